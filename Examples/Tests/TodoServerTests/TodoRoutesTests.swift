import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TodoServer

/// The `/todos` routes, through the router, as the executable wires them.
@Suite struct TodoRoutesTests {
    @Test(.timeLimit(.minutes(1)))
    func addListAndDelete() async throws {
        let container = try makeContainer()
        let app = buildApplication(container: container, config: AppConfig(), logger: quietLogger)
        try await app.test(.router) { client in
            let created = try await client.addTodo("  Buy milk ", as: "ann")
            #expect(created.status == .created)
            let todo = try created.decoded(as: Todo.self)
            #expect(todo.title == "Buy milk")
            #expect(!todo.id.isEmpty)

            let listed = try await client.listTodos(as: "ann")
            #expect(listed.status == .ok)
            #expect(try listed.decoded(as: [Todo].self) == [todo])

            let deleted = try await client.execute(
                uri: "/todos/\(todo.id)", method: .delete, headers: [.xUser: "ann"])
            #expect(deleted.status == .noContent)
            #expect(try await client.listTodos(as: "ann").decoded(as: [Todo].self).isEmpty)

            let again = try await client.execute(
                uri: "/todos/\(todo.id)", method: .delete, headers: [.xUser: "ann"])
            #expect(again.status == .notFound)
        }
        await container.dispose()
    }

    @Test(.timeLimit(.minutes(1)))
    func eachUserSeesTheirOwnTodos() async throws {
        let container = try makeContainer()
        let app = buildApplication(container: container, config: AppConfig(), logger: quietLogger)
        try await app.test(.router) { client in
            let ann = try await client.addTodo("Ann's", as: "ann").decoded(as: Todo.self)
            let bob = try await client.addTodo("Bob's", as: "bob").decoded(as: Todo.self)
            #expect(try await client.listTodos(as: "ann").decoded(as: [Todo].self) == [ann])
            #expect(try await client.listTodos(as: "bob").decoded(as: [Todo].self) == [bob])

            let notHers = try await client.execute(
                uri: "/todos/\(bob.id)", method: .delete, headers: [.xUser: "ann"])
            #expect(notHers.status == .notFound)
        }
        await container.dispose()
    }

    @Test(.timeLimit(.minutes(1)))
    func aRequestWithoutAUserIsUnauthorized() async throws {
        let container = try makeContainer()
        let app = buildApplication(container: container, config: AppConfig(), logger: quietLogger)
        try await app.test(.router) { client in
            #expect(try await client.execute(uri: "/todos", method: .get).status == .unauthorized)
            let post = try await client.execute(
                uri: "/todos", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"title":"Buy milk"}"#))
            #expect(post.status == .unauthorized)
            let delete = try await client.execute(uri: "/todos/1", method: .delete)
            #expect(delete.status == .unauthorized)
        }
        await container.dispose()
    }

    @Test(.timeLimit(.minutes(1)))
    func aBlankTitleIsABadRequest() async throws {
        let container = try makeContainer()
        let app = buildApplication(container: container, config: AppConfig(), logger: quietLogger)
        try await app.test(.router) { client in
            let blank = try await client.addTodo("   ", as: "ann")
            #expect(blank.status == .badRequest)
            let listed = try await client.listTodos(as: "ann")
            #expect(try listed.decoded(as: [Todo].self).isEmpty)
        }
        await container.dispose()
    }
}
