#if ServiceLifecycle && Hummingbird
    import Foundation
    import ServiceLifecycle

    /// What happened, in order: the pool's, the relay's and the server's steps.
    final class Events: @unchecked Sendable {
        // @unchecked: `lines` is only touched under `lock`.
        private let lock = NSLock()
        private var lines: [String] = []

        func write(_ line: String) { lock.withLock { lines.append(line) } }
        var entries: [String] { lock.withLock { lines } }
        func contains(_ line: String) -> Bool { entries.contains(line) }
        func position(_ line: String) -> Int { entries.firstIndex(of: line) ?? .max }
    }

    /// The application's configuration; `connectGate` holds the pool's connect for as long as
    /// a test keeps it shut.
    struct AppConfig: Sendable {
        let events: Events
        var connectGate: (@Sendable () async -> Void)? = nil
    }

    /// A connection pool: connected asynchronously, closed asynchronously, and a `Service`
    /// whose `run()` keeps its connections healthy until graceful shutdown.
    final class ConnectionPool: Service, Sendable {
        let events: Events

        private init(events: Events) { self.events = events }

        static func connect(to config: AppConfig) async throws -> ConnectionPool {
            config.events.write("pool connecting")
            await config.connectGate?()
            config.events.write("pool connected")
            return ConnectionPool(events: config.events)
        }

        func run() async throws {
            events.write("pool running")
            try? await gracefulShutdown()
            events.write("pool stopped")
        }

        func close() async { events.write("pool closed") }
    }

    /// Relays the outbox to a message queue: a `Service` that needs the pool.
    final class OutboxRelay: Service, Sendable {
        let pool: ConnectionPool
        init(pool: ConnectionPool) { self.pool = pool }

        func run() async throws {
            pool.events.write("relay running")
            try? await gracefulShutdown()
            pool.events.write("relay stopped")
        }
    }

    /// What the routes serve.
    final class TodoStore: Sendable {
        let pool: ConnectionPool
        init(pool: ConnectionPool) { self.pool = pool }

        func list() -> String {
            pool.events.write("served")
            return "[]"
        }
    }
#endif
