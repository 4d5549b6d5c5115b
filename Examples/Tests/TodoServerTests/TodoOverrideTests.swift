import Foundation
import Frost
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TodoServer

/// Replacing a dependency for a test, the two Frost ways.
@Suite struct TodoOverrideTests {
    /// A child of the application container that registers a fake: everything resolved
    /// through it — each request's child is a child of it — gets the fake, services the
    /// application container wires included.
    @Test(.timeLimit(.minutes(1)))
    func aChildReplacesTheIDGenerator() async throws {
        let container = try makeContainer()
        let withFakeIDs = try container.child { child in
            child.register(instance: SequentialIDs() as any IDGenerator)
        }
        let app = buildApplication(
            container: withFakeIDs, config: AppConfig(), logger: quietLogger)
        try await app.test(.router) { client in
            #expect(
                try await client.addTodo("One", as: "ann").decoded(as: Todo.self).id == "todo-1")
            #expect(
                try await client.addTodo("Two", as: "bob").decoded(as: Todo.self).id == "todo-2")
            let deleted = try await client.execute(
                uri: "/todos/todo-1", method: .delete, headers: [.xUser: "ann"])
            #expect(deleted.status == .noContent)
        }
        await withFakeIDs.dispose()
        await container.dispose()
    }

    /// A fake registered before `freeze()` replaces the real registration: the way to reach a
    /// singleton's dependencies too, since a singleton is made from the application
    /// container's registrations.
    @Test(.timeLimit(.minutes(1)))
    func aFakeClockRegisteredBeforeFreezing() async throws {
        let newYear = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let container = try makeContainer { container in
            container.register((any WallClock).self) { _ in FixedClock(date: newYear) }
                .scope(.singleton)
        }
        let app = buildApplication(container: container, config: AppConfig(), logger: quietLogger)
        try await app.test(.router) { client in
            let response = try await client.addTodo("Celebrate", as: "ann")
            #expect(response.text.contains(#""createdAt":"2026-01-01T00:00:00Z""#))
            #expect(try response.decoded(as: Todo.self).createdAt == newYear)
        }
        await container.dispose()
    }
}
