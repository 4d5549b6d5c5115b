import Frost

/// Registers the CLI's components, for the todo file at `path`.
func registerCLI(in container: Container, file path: String) {
    container.register(instance: TodoFileLocation(path: path))
    // A singleton whose factory reads the file: `bootstrap()` reads it before any command
    // logic runs, and reports a damaged file there.
    container.autowire(TodoFile.self, TodoFile.init(location:)).scope(.singleton)
    container.autowire(TodoList.self, TodoList.init(file:))
}

/// Wires, freezes and bootstraps the CLI's container for the file at `path`, runs `body` with
/// its ``TodoList``, and disposes of the container.
///
/// - Throws: `FrostError` when the file cannot be read (`factoryFailed`, the reading error as
///   its `underlying` error); what `body` throws.
func withTodoList<Result>(
    file path: String,
    _ body: (TodoList) async throws -> Result
) async throws -> Result {
    let container = Container()
    registerCLI(in: container, file: path)
    let app = try container.freeze()
    // A `defer` cannot await, so the container is disposed on each path: `await dispose()`
    // waits for async `.onDispose` hooks too.
    do {
        try await app.bootstrap()
        let list = try await app.resolve(TodoList.self)
        let result = try await body(list)
        await app.dispose()
        return result
    } catch {
        await app.dispose()
        throw error
    }
}
