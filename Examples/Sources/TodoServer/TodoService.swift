import Foundation

/// The rules for todos: titles are trimmed and bounded, ids and dates come from the injected
/// generator and clock.
///
/// Stateless, so transient: autowired anew for each request, from what that request's child
/// container sees — a test's override of the clock or the ids included.
struct TodoService: Sendable {
    let store: TodoStore
    let clock: any WallClock
    let ids: any IDGenerator
    let config: AppConfig

    /// Adds a todo titled `title` for `owner`.
    func add(title: String, owner: String) async throws -> Todo {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, title.count <= config.maxTitleLength else {
            throw InvalidTitle(maxLength: config.maxTitleLength)
        }
        let todo = Todo(id: ids.next(), title: title, createdAt: clock.now())
        try await store.insert(todo, owner: owner)
        return todo
    }

    /// The todos of `owner`, oldest first.
    func list(owner: String) async throws -> [Todo] {
        try await store.todos(owner: owner)
    }

    /// Deletes the todo `id` of `owner`; returns whether there was one.
    func delete(id: String, owner: String) async throws -> Bool {
        try await store.delete(id: id, owner: owner)
    }
}

/// A title that is empty or too long.
struct InvalidTitle: Error {
    /// The longest title allowed.
    var maxLength: Int
}
