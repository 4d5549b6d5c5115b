#if ServiceLifecycle
    import Frost
    import FrostServiceLifecycle
    import Logging
    import ServiceLifecycle
    import Testing

    /// Start-up never serves early: a server given to `ContainerService` as
    /// `startingAfterBootstrap` starts only once `bootstrap()` has finished, and stops before
    /// the container's services and its disposal. Each test's server is a fake that records, as
    /// it starts serving, whether the container's one singleton exists (without waiting for it:
    /// a resolve would wait for the creation in progress).
    @Suite("ContainerService start-up", .timeLimit(.minutes(5)))
    struct StartUpOrderTests {
        /// The connection pool: its async factory waits at a gate, so that bootstrap is still
        /// running for as long as the test (or, in the counter-check, the server) keeps the gate
        /// shut. A `Service` (its maintenance loop runs until shutdown).
        final class Pool: Service, Sendable {
            let journal: Journal
            init(journal: Journal) { self.journal = journal }

            func run() async throws {
                journal.write("pool running")
                try? await gracefulShutdown()
                journal.write("pool stopped")
            }
        }

        /// A fake HTTP server.
        final class FakeServer: Service, Sendable {
            let container: FrozenContainer
            let journal: Journal
            let onStart: @Sendable () -> Void

            init(
                container: FrozenContainer, journal: Journal,
                onStart: @escaping @Sendable () -> Void = {}
            ) {
                self.container = container
                self.journal = journal
                self.onStart = onStart
            }

            func run() async throws {
                let bootstrapped = !container.createdSingletons(of: Pool.self).isEmpty
                journal.write(bootstrapped ? "serving, bootstrapped" : "serving, NOT bootstrapped")
                onStart()
                try? await gracefulShutdown()
                journal.write("server stopped")
            }
        }

        static func container(
            journal: Journal, gate: Gate, awaitingShutdown: Bool = false
        ) -> FrozenContainer {
            let container = Container()
            container.register(Pool.self) { _ async in
                journal.write("pool connecting")
                await gate.wait()
                if awaitingShutdown {
                    // The group signals its services' graceful shutdown asynchronously: the
                    // connect returns only once the service's task tree sees it (bounded).
                    _ = await eventually(within: 240) { Task.isShuttingDownGracefully }
                }
                journal.write("pool made")
                return Pool(journal: journal)
            }
            .scope(.singleton)
            .onDispose { _ async in journal.write("pool closed") }
            return try! container.freeze()
        }

        static let logger = Logger(label: "test")

        @Test func theServerStartsOnlyOnceBootstrapHasFinished() async throws {
            let journal = Journal()
            let gate = Gate()
            let frozen = Self.container(journal: journal, gate: gate)
            let server = FakeServer(container: frozen, journal: journal)
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        ContainerService(
                            frozen, startingAfterBootstrap: [server], logger: Self.logger)
                    ],
                    logger: Self.logger))
            let run = Task { try await group.run() }

            // Bootstrap is under way, held at the gate: the server has not started.
            #expect(await eventually(within: 240) { journal.contains("pool connecting") })
            for _ in 0..<100 { await Task.yield() }  // every chance to start early
            #expect(!journal.entries.contains { $0.hasPrefix("serving") })
            gate.open()

            #expect(await eventually(within: 240) { journal.contains("pool running") })
            #expect(await eventually(within: 240) { journal.contains("serving, bootstrapped") })
            await group.triggerGracefulShutdown()
            try await run.value

            #expect(!journal.contains("serving, NOT bootstrapped"))
            #expect(journal.position("pool made") < journal.position("serving, bootstrapped"))
            // Shutdown in reverse: the server stops first, then the pool, then disposal.
            #expect(journal.position("server stopped") < journal.position("pool stopped"))
            #expect(journal.position("pool stopped") < journal.position("pool closed"))
        }

        /// The counter-check that gives the test above its meaning: the fake server does
        /// notice serving early. Listed beside `ContainerService` in one group, the server
        /// starts with it; here the pool's factory waits until the server has started, so the
        /// server always serves before bootstrap has finished.
        @Test func aServerListedBesideTheContainerServesBeforeBootstrap() async throws {
            let journal = Journal()
            let gate = Gate()
            let frozen = Self.container(journal: journal, gate: gate)
            let server = FakeServer(container: frozen, journal: journal, onStart: { gate.open() })
            let group = ServiceGroup(
                configuration: .init(
                    services: [ContainerService(frozen, logger: Self.logger), server],
                    logger: Self.logger))
            let run = Task { try await group.run() }

            #expect(await eventually(within: 240) { journal.contains("pool running") })
            await group.triggerGracefulShutdown()
            try await run.value
            #expect(journal.contains("serving, NOT bootstrapped"))
        }

        @Test func aFailedBootstrapStartsNoServer() async throws {
            struct Refused: Error {}
            let journal = Journal()
            let container = Container()
            container.register(Pool.self) { _ async throws -> Pool in throw Refused() }
                .scope(.singleton)
            let frozen = try container.freeze()
            let server = FakeServer(container: frozen, journal: journal)
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        ContainerService(
                            frozen, startingAfterBootstrap: [server], logger: Self.logger)
                    ],
                    logger: Self.logger))
            await #expect(throws: (any Error).self) { try await group.run() }
            #expect(journal.entries.isEmpty)
        }

        /// A graceful shutdown that arrives while bootstrap runs (a SIGTERM during a slow
        /// connect): bootstrap finishes, nothing is started, the container is disposed.
        @Test func aShutdownDuringBootstrapStartsNothingAndDisposes() async throws {
            let journal = Journal()
            let gate = Gate()
            let frozen = Self.container(journal: journal, gate: gate, awaitingShutdown: true)
            let server = FakeServer(container: frozen, journal: journal)
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        ContainerService(
                            frozen, startingAfterBootstrap: [server], logger: Self.logger)
                    ],
                    logger: Self.logger))
            let run = Task { try await group.run() }

            #expect(await eventually(within: 240) { journal.contains("pool connecting") })
            await group.triggerGracefulShutdown()
            gate.open()
            try await run.value
            #expect(journal.entries == ["pool connecting", "pool made", "pool closed"])
        }
    }
#endif
