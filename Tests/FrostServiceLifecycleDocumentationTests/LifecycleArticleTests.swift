#if ServiceLifecycle && Hummingbird
    import Foundation
    import Frost
    import FrostServiceLifecycle
    import Hummingbird
    import HummingbirdTesting
    import Logging
    import ServiceLifecycle
    import Testing

    /// The code of FrostServiceLifecycle's article ("Serving after bootstrap"), of the README's
    /// lifecycle block and of the Frost article "Async set-up and graceful shutdown", run as
    /// written with a real Hummingbird `Application` on loopback: the container's pool is held
    /// at its connect until the test opens the gate, nothing is served before bootstrap has
    /// finished, a real SIGTERM stops the server, then the container's services in reverse,
    /// then `dispose()`. Serialized: each server traps SIGTERM.
    @Suite("Serving after bootstrap (documentation)", .serialized, .timeLimit(.minutes(5)))
    struct LifecycleArticleTests {
        static let logger = Logger(label: "lifecycle-article")

        static func wire(_ config: AppConfig) throws -> FrozenContainer {
            // snippet lifecycle-wiring: begin
            let container = Container()
            container.register(instance: config)
            container.register(ConnectionPool.self) { r async throws in
                try await ConnectionPool.connect(to: try await r.resolve(AppConfig.self))
            }
            .scope(.singleton)  // a Service: its run() keeps the connections healthy
            .onDispose { pool async in await pool.close() }
            container.autowire(OutboxRelay.self, OutboxRelay.init(pool:))
                .scope(.singleton)  // a Service too, which needs the pool
            container.autowire(TodoStore.self, TodoStore.init(pool:)).scope(.singleton)
            let frozen = try container.freeze()  // the whole graph checked before anything runs
            // snippet lifecycle-wiring: end
            return frozen
        }

        /// The article's server, under a `ServiceGroup`: runs until SIGTERM.
        static func serve(_ frozen: FrozenContainer, port: Int, logger: Logger) async throws {
            // snippet lifecycle-serve: begin
            let router = Router()
            router.get("todos") { _, _ in
                try await frozen.resolve(TodoStore.self).list()  // made before the server started
            }
            let app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: port)),
                logger: logger
            )
            // bootstrap() first; then the pool, the relay and the server, in that order.
            let service = ContainerService(frozen, startingAfterBootstrap: [app], logger: logger)
            let group = ServiceGroup(
                configuration: .init(
                    services: [service],
                    gracefulShutdownSignals: [.sigterm],
                    logger: logger
                )
            )
            try await group.run()  // until SIGTERM: server, relay, pool stopped; then dispose()
            // snippet lifecycle-serve: end
        }

        /// The same server under the application's own service group.
        static func serveFromApplication(
            _ frozen: FrozenContainer, port: Int, logger: Logger
        ) async throws {
            let router = Router()
            router.get("todos") { _, _ in try await frozen.resolve(TodoStore.self).list() }
            // snippet lifecycle-add-services: begin
            var app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: port)),
                logger: logger
            )
            app.addServices(ContainerService(frozen, logger: logger))  // stops after the server
            app.beforeServerStarts { try await frozen.bootstrap() }  // the server waits for it
            try await app.runService(gracefulShutdownSignals: [.sigterm])
            // snippet lifecycle-add-services: end
        }

        /// The README's block.
        static func serveAsTheReadmeDoes(
            _ frozen: FrozenContainer, router: Router<BasicRequestContext>, port: Int,
            logger: Logger
        ) async throws {
            // snippet readme-lifecycle: begin
            let app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: port)),
                logger: logger
            )
            // bootstrap() makes every singleton; then the container's services and the server
            // start. On SIGTERM: the server stops first, then those services, then dispose().
            let service = ContainerService(frozen, startingAfterBootstrap: [app], logger: logger)
            let group = ServiceGroup(
                configuration: .init(
                    services: [service], gracefulShutdownSignals: [.sigterm], logger: logger))
            try await group.run()
            // snippet readme-lifecycle: end
        }

        /// The Frost article "Async set-up and graceful shutdown"'s block.
        static func serveAsTheAsyncArticleDoes(
            _ frozen: FrozenContainer, router: Router<BasicRequestContext>, port: Int,
            logger: Logger
        ) async throws {
            // snippet async-lifecycle: begin
            let app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: port)),
                logger: logger
            )
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        ContainerService(frozen, startingAfterBootstrap: [app], logger: logger)
                    ],
                    gracefulShutdownSignals: [.sigterm],
                    logger: logger
                )
            )
            try await group.run()
            // snippet async-lifecycle: end
        }

        /// The article's Logging section quotes the description of the service it builds.
        @Test func theArticlesServiceDescribesItselfAsQuoted() throws {
            struct Server: Service { func run() async throws {} }
            let frozen = try Self.wire(AppConfig(events: Events()))
            let service = ContainerService(
                frozen, startingAfterBootstrap: [Server()], logger: Self.logger)
            #expect("\(service)" == "ContainerService(4 registrations, then 1 service)")
        }

        enum Form: String, CaseIterable, Sendable {
            case article, applicationServices, readme, asyncArticle
        }

        @Test(arguments: Form.allCases)
        func nothingIsServedBeforeBootstrapAndShutdownIsInReverse(form: Form) async throws {
            let events = Events()
            let gate = Gate()
            let frozen = try Self.wire(
                AppConfig(events: events, connectGate: { await gate.wait() }))
            let port = try freePort()
            let router = Router()
            router.get("todos") { _, _ in try await frozen.resolve(TodoStore.self).list() }
            let server = Task {
                switch form {
                case .article: try await Self.serve(frozen, port: port, logger: Self.logger)
                case .applicationServices:
                    try await Self.serveFromApplication(frozen, port: port, logger: Self.logger)
                case .readme:
                    try await Self.serveAsTheReadmeDoes(
                        frozen, router: router, port: port, logger: Self.logger)
                case .asyncArticle:
                    try await Self.serveAsTheAsyncArticleDoes(
                        frozen, router: router, port: port, logger: Self.logger)
                }
            }

            // Bootstrap is held at the pool's connect: no request is answered.
            #expect(await eventually(within: 120) { events.contains("pool connecting") })
            await #expect(throws: (any Error).self) { try await get("/todos", port: port) }
            #expect(!events.contains("served"))
            gate.open()

            #expect(try await getWhenListening("/todos", port: port) == "[]")
            #expect(events.position("pool connected") < events.position("served"))
            // The group traps SIGTERM before it starts its services: it is trapped by now.
            kill(getpid(), SIGTERM)
            try await server.value

            let order = ["pool running", "relay running", "relay stopped", "pool stopped"]
            #expect(order.allSatisfy(events.contains))
            // A ServiceGroup launches its services in order but runs them concurrently: which
            // one logs "running" first is a race; the order of their graceful shutdown is not.
            #expect(events.position("relay stopped") < events.position("pool stopped"))
            #expect(events.position("pool stopped") < events.position("pool closed"))
            #expect(events.entries.last == "pool closed")
        }
    }

    // MARK: Test support

    /// A door that the pool's connect waits at until the test opens it.
    final class Gate: Sendable {
        private let stream: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self) }
        func open() { continuation.finish() }
        func wait() async { for await _ in stream {} }
    }

    /// Polls `condition` until it holds, at most `seconds` (a watchdog, not a timing).
    func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// A port on 127.0.0.1 that nothing listens on: bound to port 0, read, released.
    func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// One GET on a new connection.
    func get(_ path: String, port: Int) async throws -> String {
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            String(buffer: try await client.get(path).body ?? ByteBuffer())
        }
    }

    /// GET, retried until the server listens (at most two minutes: a watchdog).
    func getWhenListening(_ path: String, port: Int) async throws -> String {
        let deadline = Date().addingTimeInterval(120)
        while true {
            do {
                return try await get(path, port: port)
            } catch  where Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
#endif
