import Foundation

/// The todo file: read once when the container makes it, written after each change.
///
/// A singleton, so an actor.
actor TodoFile {
    private let url: URL
    /// The todos, oldest first.
    private(set) var items: [TodoItem]

    /// Reads the file at `location`; a missing file is an empty list.
    ///
    /// - Throws: When the file exists but cannot be read or is not a JSON list of todos.
    init(location: TodoFileLocation) throws {
        url = URL(fileURLWithPath: location.path)
        if FileManager.default.fileExists(atPath: location.path) {
            items = try JSONDecoder().decode([TodoItem].self, from: Data(contentsOf: url))
        } else {
            items = []
        }
    }

    /// Appends a todo titled `title`, numbered after the last one, and saves the file.
    func append(title: String) throws -> TodoItem {
        let item = TodoItem(id: (items.map(\.id).max() ?? 0) + 1, title: title)
        items.append(item)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(items).write(to: url, options: .atomic)
        return item
    }
}
