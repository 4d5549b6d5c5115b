import Hummingbird

/// The `/todos` routes. Each one runs in its request's child container (see
/// ``requestContainers(of:)``) and resolves that request's ``TodoHandler`` through the context.
struct TodoRoutes: Sendable {
    /// Adds the routes to `group` (mounted at `/todos`, under the request containers'
    /// middleware).
    func add(to group: RouterGroup<TodoRequestContext>) {
        group.get { _, context in
            try await context.resolve(TodoHandler.self).list()
        }
        group.post { request, context in
            let new = try await request.decode(as: NewTodo.self, context: context)
            let todo = try await context.resolve(TodoHandler.self).add(new)
            return EditedResponse(status: .created, response: todo)
        }
        group.delete(":id") { _, context in
            let id = try context.parameters.require("id")
            return try await context.resolve(TodoHandler.self).delete(id: id)
        }
    }
}
