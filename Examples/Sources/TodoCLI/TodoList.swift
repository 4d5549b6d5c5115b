import Foundation

/// What the commands do, as the text they print.
struct TodoList: Sendable {
    let file: TodoFile

    /// Adds a todo; returns the line that says so.
    ///
    /// - Throws: ``EmptyTitle`` for a blank title; what saving the file throws.
    func add(_ title: String) async throws -> String {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw EmptyTitle() }
        let item = try await file.append(title: title)
        return "Added #\(item.id): \(item.title)"
    }

    /// The todos, one a line, or a line that says there are none.
    func render() async -> String {
        let items = await file.items
        guard !items.isEmpty else { return "Nothing to do." }
        return items.map { "#\($0.id) \($0.title)" }.joined(separator: "\n")
    }
}

/// A blank title.
struct EmptyTitle: Error, CustomStringConvertible {
    var description: String { "A todo needs a title." }
}
