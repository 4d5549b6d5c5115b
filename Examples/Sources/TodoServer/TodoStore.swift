import Logging

/// Where todos live, per user. An in-memory stand-in for a database connection: opened at
/// start-up, asynchronously, as a real connection is, and closed at shutdown.
///
/// An actor, because it is a singleton that every request uses at once.
actor TodoStore {
    private var todosByOwner: [String: [Todo]] = [:]
    private let logger: Logger
    /// Whether ``close()`` ran. A closed store refuses every operation.
    private(set) var isClosed = false

    private init(logger: Logger) {
        self.logger = logger
    }

    /// Opens the store (what connecting to a database would be).
    static func open(logger: Logger) async throws -> TodoStore {
        try await Task.sleep(for: .milliseconds(1))
        logger.info("todo store opened")
        return TodoStore(logger: logger)
    }

    /// Adds `todo` to the todos of `owner`.
    func insert(_ todo: Todo, owner: String) throws(TodoStoreClosed) {
        try checkOpen()
        todosByOwner[owner, default: []].append(todo)
    }

    /// The todos of `owner`, oldest first.
    func todos(owner: String) throws(TodoStoreClosed) -> [Todo] {
        try checkOpen()
        return todosByOwner[owner] ?? []
    }

    /// Deletes the todo `id` of `owner`; returns whether there was one.
    func delete(id: String, owner: String) throws(TodoStoreClosed) -> Bool {
        try checkOpen()
        guard let index = todosByOwner[owner]?.firstIndex(where: { $0.id == id }) else {
            return false
        }
        todosByOwner[owner]?.remove(at: index)
        return true
    }

    /// Closes the store: what the container's `.onDispose` hook calls at shutdown.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        logger.info("todo store closed")
    }

    private func checkOpen() throws(TodoStoreClosed) {
        if isClosed { throw TodoStoreClosed() }
    }
}

/// What a closed ``TodoStore`` throws.
struct TodoStoreClosed: Error {}
