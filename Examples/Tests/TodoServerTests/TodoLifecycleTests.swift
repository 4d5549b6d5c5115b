import Frost
import FrostServiceLifecycle
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import ServiceLifecycle
import Testing

@testable import TodoServer

/// What lives how long: the wiring, each request's scope, the application's singletons.
@Suite struct TodoLifecycleTests {
    /// `freeze()` checks every autowired dependency, request-scoped ones included, without
    /// running a factory.
    @Test(.timeLimit(.minutes(1)))
    func theApplicationWires() throws {
        _ = try makeContainer()
    }

    /// Each request's child is disposed when the request ends: its `.scoped` `RequestLog`'s
    /// `.onDispose` hook writes the request's line before the response is returned.
    @Test(.timeLimit(.minutes(1)))
    func eachRequestDisposesItsScope() async throws {
        let logs = InMemoryLogHandler()
        let logger = Logger(label: "todo-server-tests") { _ in logs }
        let container = try makeContainer(logger: logger)
        let app = buildApplication(container: container, config: AppConfig(), logger: logger)
        @Sendable func finished() -> [Logger.Metadata] {
            logs.entries.filter { $0.message == "request finished" }.map(\.metadata)
        }
        try await app.test(.router) { client in
            let todo = try await client.addTodo("Buy milk", as: "ann", requestID: "request-1")
                .decoded(as: Todo.self)
            #expect(
                finished() == [
                    [
                        "request.id": "request-1", "user": "ann",
                        "events": .array([.string("added \(todo.id)")]),
                    ]
                ])

            _ = try await client.listTodos(as: "ann", requestID: "request-2")
            #expect(finished().count == 2)
            #expect(finished().last?["request.id"] == "request-2")
            #expect(finished().last?["events"] == .array([.string("listed 1 todos")]))
        }
        await container.dispose()
    }

    /// Disposing of the application container runs the store's async `.onDispose` hook.
    @Test(.timeLimit(.minutes(1)))
    func disposingClosesTheStore() async throws {
        let container = try makeContainer()
        try await container.bootstrap()
        let store = try await container.resolve(TodoStore.self)
        #expect(await !store.isClosed)

        await container.dispose()
        #expect(await store.isClosed)
        let error = #expect(throws: FrostError.self) { try container.resolve(TodoStore.self) }
        #expect(error?.code == .disposed)
    }

    /// The executable's shutdown: graceful shutdown of the service group stops the
    /// `ContainerService`, which disposes of the container.
    @Test(.timeLimit(.minutes(1)))
    func gracefulShutdownClosesTheStore() async throws {
        let container = try makeContainer()
        let group = ServiceGroup(
            configuration: .init(
                services: [ContainerService(container, logger: quietLogger)],
                logger: quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let store = try await container.resolve(TodoStore.self)
            #expect(await !store.isClosed)

            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            #expect(await store.isClosed)
        }
    }
}
