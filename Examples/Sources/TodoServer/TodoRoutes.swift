import Hummingbird

/// The `/todos` routes. Each one runs in a request scope, with that request's ``TodoHandler``.
struct TodoRoutes: Sendable {
    let scopes: RequestScopes

    /// Adds the routes to `group` (mounted at `/todos`).
    func add(to group: RouterGroup<BasicRequestContext>) {
        group.get { request, _ in
            try await scopes.withHandler(for: request) { handler in
                try await handler.list()
            }
        }
        group.post { request, context in
            try await scopes.withHandler(for: request) { handler in
                let new = try await request.decode(as: NewTodo.self, context: context)
                return EditedResponse(status: .created, response: try await handler.add(new))
            }
        }
        group.delete(":id") { request, context in
            let id = try context.parameters.require("id")
            return try await scopes.withHandler(for: request) { handler in
                try await handler.delete(id: id)
            }
        }
    }
}
