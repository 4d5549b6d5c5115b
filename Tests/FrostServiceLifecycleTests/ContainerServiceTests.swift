#if ServiceLifecycle
    import Foundation
    import Frost
    import FrostServiceLifecycle
    import Logging
    import ServiceLifecycle
    import Testing

    /// A frozen container run under a real `ServiceGroup`: bootstrapped, its `Service` singletons
    /// run in dependency order, stopped in reverse on graceful shutdown (a real signal), then
    /// disposed.
    @Suite("ContainerService", .timeLimit(.minutes(5)))
    struct ContainerServiceTests {
        /// A service that runs until graceful shutdown, journaling when it starts and stops.
        class Worker: Service, @unchecked Sendable {
            // @unchecked: immutable.
            let name: String
            let journal: Journal

            init(name: String, journal: Journal) {
                self.name = name
                self.journal = journal
            }

            func run() async throws {
                journal.write("\(name) started")
                try? await gracefulShutdown()
                journal.write("\(name) stopped")
            }
        }

        /// The database pool: opened asynchronously, a service (it runs its maintenance loop).
        final class Pool: Worker, @unchecked Sendable {}

        /// The queue consumer depends on the pool: it must stop before the pool.
        final class Consumer: Worker, @unchecked Sendable {
            let pool: Pool

            init(pool: Pool, journal: Journal) {
                self.pool = pool
                super.init(name: "consumer", journal: journal)
            }
        }

        static func container(journal: Journal) -> Container {
            let container = Container()
            container.register(Pool.self) { _ async throws in
                await Task.yield()  // connecting
                journal.write("pool made")
                return Pool(name: "pool", journal: journal)
            }
            .scope(.singleton)
            .onDispose { _ async in
                await Task.yield()
                journal.write("pool closed")
            }
            container.register(Consumer.self) { r async throws in
                let consumer = Consumer(pool: try await r.resolve(Pool.self), journal: journal)
                journal.write("consumer made")
                return consumer
            }
            .scope(.singleton)
            .onDispose { _ in journal.write("consumer disposed") }
            return container
        }

        @Test func aSignalStopsTheServicesInReverseOrderThenDisposes() async throws {
            let journal = Journal()
            let frozen = try Self.container(journal: journal).freeze()
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        .init(service: ContainerService(frozen, logger: Logger(label: "test")))
                    ],
                    gracefulShutdownSignals: [.sigusr2],
                    logger: Logger(label: "test")))
            let run = Task { try await group.run() }
            // The group traps its signals before it starts any service.
            #expect(
                await eventually(within: 240) {
                    journal.contains("pool started") && journal.contains("consumer started")
                })
            kill(getpid(), SIGUSR2)
            let finished = await eventually(within: 240) { journal.contains("pool closed") }
            #expect(finished)
            try await run.value

            let entries = journal.entries
            func position(_ line: String) -> Int { entries.firstIndex(of: line) ?? .max }
            #expect(position("pool made") < position("consumer made"))
            #expect(position("consumer stopped") < position("pool stopped"))
            #expect(position("pool stopped") < position("consumer disposed"))
            #expect(position("consumer disposed") < position("pool closed"))
            #expect(throws: FrostError.self) {
                _ = try resolveSynchronously(Pool.self, from: frozen)
            }
        }

        @Test func aContainerWithoutServicesWaitsForShutdownThenDisposes() async throws {
            let journal = Journal()
            let container = Container()
            container.register(String.self) { _ async in "config" }.scope(.singleton)
                .onDispose { _ in journal.write("config disposed") }
            let frozen = try container.freeze()
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        .init(service: ContainerService(frozen, logger: Logger(label: "test")))
                    ],
                    logger: Logger(label: "test")))
            let run = Task { try await group.run() }
            #expect(
                await eventually(within: 240) {
                    (try? resolveSynchronously(String.self, from: frozen)) == "config"
                })
            #expect(!journal.contains("config disposed"))
            await group.triggerGracefulShutdown()
            try await run.value
            #expect(journal.entries == ["config disposed"])
        }

        @Test func aLazySingletonIsLeftToItsFirstResolveAndStillDisposed() async throws {
            let journal = Journal()
            let container = Self.container(journal: journal)
            container.register(Worker.self) { _ in
                journal.write("report made")
                return Worker(name: "report", journal: journal)
            }
            .scope(.singleton)
            .lazy()
            .onDispose { _ in journal.write("report disposed") }
            let frozen = try container.freeze()
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        .init(service: ContainerService(frozen, logger: Logger(label: "test")))
                    ],
                    logger: Logger(label: "test")))
            let run = Task { try await group.run() }
            #expect(
                await eventually(within: 240) {
                    journal.contains("pool started") && journal.contains("consumer started")
                })
            // Bootstrap made the eager singletons only.
            #expect(!journal.contains("report made"))
            let report = try resolveSynchronously(Worker.self, from: frozen)
            #expect(report.name == "report")
            #expect(try resolveSynchronously(Worker.self, from: frozen) === report)
            await group.triggerGracefulShutdown()
            try await run.value

            let entries = journal.entries
            #expect(entries.filter { $0 == "report made" }.count == 1)
            // Made after start-up, it is not one of the services the container runs...
            #expect(!journal.contains("report started"))
            // ...and disposed with the rest, newest first.
            func position(_ line: String) -> Int { entries.firstIndex(of: line) ?? .max }
            #expect(position("report disposed") < position("consumer disposed"))
            #expect(position("consumer disposed") < position("pool closed"))
        }

        @Test func aBootstrapFailureStopsTheGroupAndNamesThePath() async throws {
            struct Refused: Error {}
            let container = Container()
            container.register(Int.self) { _ async throws -> Int in throw Refused() }.scope(
                .singleton)
            let frozen = try container.freeze()
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        .init(service: ContainerService(frozen, logger: Logger(label: "test")))
                    ],
                    logger: Logger(label: "test")))
            do {
                try await group.run()
                Issue.record("the group ran although bootstrap failed")
            } catch let error as FrostError {
                #expect(error.code == .factoryFailed)
                #expect(error.underlying is Refused)
            } catch {
                // ServiceGroup may wrap what a service threw.
                #expect("\(error)".contains("Refused"))
            }
        }
    }
#endif
