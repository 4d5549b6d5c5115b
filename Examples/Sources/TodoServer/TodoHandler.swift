import Hummingbird

/// Serves the `/todos` routes for one request.
///
/// Registered in the application container and resolved through the request's child, so it
/// gets that request's user and log together with the application's singletons.
struct TodoHandler {
    let user: CurrentUser
    let service: TodoService
    let log: RequestLog

    /// `GET /todos`: the user's todos.
    func list() async throws -> [Todo] {
        let todos = try await service.list(owner: user.name)
        log.record("listed \(todos.count) todos")
        return todos
    }

    /// `POST /todos`: adds a todo for the user; 400 for an empty or too long title.
    func add(_ new: NewTodo) async throws -> Todo {
        do {
            let todo = try await service.add(title: new.title, owner: user.name)
            log.record("added \(todo.id)")
            return todo
        } catch let error as InvalidTitle {
            log.record("refused a title")
            throw HTTPError(
                .badRequest, message: "A title has 1 to \(error.maxLength) characters.")
        }
    }

    /// `DELETE /todos/:id`: 204 when the user had that todo, 404 otherwise.
    func delete(id: String) async throws -> HTTPResponse.Status {
        guard try await service.delete(id: id, owner: user.name) else {
            log.record("found no \(id) to delete")
            return .notFound
        }
        log.record("deleted \(id)")
        return .noContent
    }
}
