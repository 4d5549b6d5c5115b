import Foundation
import Frost
import Testing

// The README's code, compiled and run. The blocks between the "snippet ... begin/end" markers
// are the README's blocks of the same name, character for character (indented here): `make
// readme-check` (part of `make test`) fails when they differ. The types they use are below.

@Suite("README")
struct ReadmeTourTests {
    @Test func theTourRunsAsWritten() throws {
        let currentRequest = CurrentRequest(path: "/todos")
        // snippet tour: begin
        let container = Container()

        // A factory; dependencies come from the resolver it receives.
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(instance: AppConfig(port: 8080))
        container.register(Database.self) { r in Primary(try r.resolve(AppConfig.self)) }
            .scope(.singleton)
        container.register(Database.self, name: "replica") { r in
            Replica(try r.resolve(AppConfig.self))
        }

        // Autowiring: the initializer's parameters are resolved by type (any number of them).
        container.autowire(UserService.self, UserService.init(logger:db:))

        // One registration, resolvable through each protocol it implements (one singleton for
        // all), and under another name. (Registering a type and name again replaces the
        // earlier registration: `.implements(Logger.self)` here would replace ConsoleLogger.)
        container.register(FileLogger.self) { _ in FileLogger() }
            .scope(.singleton)
            .implements(Sink.self)
            .alias("file")

        // Property injection after the initializer, and a hook per created instance.
        container.register(Screen.self) { _ in Screen() }
            .inject(\.delegate)
            .inject(\.backup, name: "replica")
            .onCreate { r, screen in screen.didLoad() }

        // Runtime arguments (Swinject's spelling), any number of them.
        container.register(Greeting.self) { _, name in Greeting(to: name) }
        container.register(Route.self) { _, path, port in Route(path, port) }

        // Several registrations of one type, resolved all at once.
        container.register((any Plugin).self, name: "metrics") { _ in MetricsPlugin() }
        container.register((any Plugin).self, name: "audit") { _ in AuditPlugin() }

        let frozen = try container.freeze()  // validates everything, reports every problem at once

        let service = try frozen.resolve(UserService.self)
        let replica = try frozen.resolve(Database.self, name: "replica")
        let sink = try frozen.resolve(Sink.self)  // the FileLogger singleton
        let hi = try frozen.resolve(Greeting.self, argument: "Ann")
        let route = try frozen.resolve(Route.self, arguments: "/", 80)

        let handle = try frozen.handle(for: UserService.self)  // find the slot once...
        let fast = try frozen.resolve(handle)  // ...then resolve without hashing
        let logger = try frozen.handle(for: Logger.self)  // a singleton's handle holds it:
        try frozen.withResolved(logger) { $0.log("hot loop") }  // lent, no reference counting

        let lazy = try frozen.resolve(Lazy<Logger>.self)  // resolved on first .value, once
        let provider = try frozen.resolve(Provider<Screen>.self)  // a new Screen per call
        let screen = provider()  // (provider.resolve() throws instead of trapping)
        let plugins: [any Plugin] = try frozen.resolveAll((any Plugin).self)  // in order

        // Objects the container did not create: fills their unset @Injected properties.
        final class DetailScreen {
            @Injected var service: UserService
            @Injected(name: "replica") var db: Database
            @LazyInjected var logger: Logger  // resolved on first access
        }
        let detailScreen = DetailScreen()
        try frozen.inject(into: detailScreen)

        // A child (a request, a job, a test), disposed on every path: see "Per-request scopes".
        let path = try frozen.withChild({ c in c.register(instance: currentRequest) }) { request in
            try request.resolve(CurrentRequest.self).path
        }

        frozen.releaseCachedInstances()  // next resolves create singletons anew
        print(frozen.description)  // registrations, scopes, dependencies
        let dot = frozen.graphviz()  // the dependency graph, for `dot -Tsvg`
        // snippet tour: end

        #expect(service.db is Primary)
        #expect(service.logger is ConsoleLogger)
        #expect(replica is Replica)
        #expect(sink is FileLogger)
        // One singleton behind the alias and the protocol (made anew after the release).
        let aliased = try frozen.resolve(FileLogger.self, name: "file")
        #expect(aliased === (try frozen.resolve(Sink.self) as? FileLogger))
        #expect(hi.text == "Hello, Ann!")
        #expect(route.path == "/" && route.port == 80)
        #expect(fast.db is Primary)
        #expect(lazy.value is ConsoleLogger)
        #expect(screen.loaded && screen.delegate is ConsoleLogger && screen.backup is Replica)
        #expect(plugins.count == 2)
        #expect(detailScreen.service.db is Primary && detailScreen.db is Replica)
        #expect(detailScreen.logger is ConsoleLogger)
        #expect(path == "/todos")
        #expect(dot.contains("UserService"))
    }

    @Test(.timeLimit(.minutes(1))) func theAsyncTourRunsAsWritten() async throws {
        let container = Container()
        container.register(instance: AppConfig(port: 5432))
        // snippet async: begin
        container.register(ConnectionPool.self) { r async throws in
            try await ConnectionPool.connect(to: try await r.resolve(AppConfig.self))
        }
        .scope(.singleton)
        .onDispose { pool async in await pool.close() }
        container.autowire(TodoStore.self, TodoStore.init(pool:))  // a synchronous initializer

        let frozen = try container.freeze()
        try await frozen.bootstrap()  // every singleton, dependencies first, async ones awaited
        let store = try await frozen.resolve(TodoStore.self)  // in async code: `try await`
        // ... serve ...
        await frozen.dispose()  // .onDispose hooks, newest instance first, async ones awaited
        // snippet async: end
        #expect(await store.pool.isOpen == false)
    }
}

// MARK: The types the README uses

extension ReadmeTourTests {
    protocol Logger: Sendable { func log(_ message: String) }
    protocol Sink: Sendable {}
    protocol Database: Sendable {}
    protocol Plugin: Sendable {}

    final class ConsoleLogger: Logger {
        func log(_ message: String) {}
    }

    final class FileLogger: Logger, Sink {
        func log(_ message: String) {}
    }

    struct AppConfig: Sendable { let port: Int }

    final class Primary: Database {
        init(_ config: AppConfig) {}
    }

    final class Replica: Database {
        init(_ config: AppConfig) {}
    }

    final class UserService: Sendable {
        let logger: any Logger
        let db: any Database
        init(logger: any Logger, db: any Database) {
            self.logger = logger
            self.db = db
        }
    }

    final class Screen: @unchecked Sendable {
        var delegate: (any Logger)?
        var backup: (any Database)?
        private(set) var loaded = false
        func didLoad() { loaded = true }
    }

    struct Greeting: Sendable {
        let text: String
        init(to name: String) { text = "Hello, \(name)!" }
    }

    struct Route: Sendable {
        let path: String
        let port: Int
        init(_ path: String, _ port: Int) {
            self.path = path
            self.port = port
        }
    }

    struct MetricsPlugin: Plugin {}
    struct AuditPlugin: Plugin {}
    struct CurrentRequest: Sendable { let path: String }

    /// The async tour's types: a pool opened with `await`, closed on dispose.
    actor ConnectionPool {
        private(set) var isOpen = false
        static func connect(to config: AppConfig) async throws -> ConnectionPool {
            let pool = ConnectionPool()
            await pool.open()
            return pool
        }
        private func open() { isOpen = true }
        func close() { isOpen = false }
    }

    final class TodoStore: Sendable {
        let pool: ConnectionPool
        init(pool: ConnectionPool) { self.pool = pool }
    }
}
