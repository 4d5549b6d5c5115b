#if ServiceLifecycle
    import Frost
    import FrostServiceLifecycle
    import Logging
    import ServiceLifecycle
    import Testing

    /// `ContainerService` describes itself in one short line, and that line is what
    /// swift-service-lifecycle logs as `sl-service` (not the container's table, not the
    /// logger's storage).
    @Suite("ContainerService description", .timeLimit(.minutes(1)))
    struct ServiceDescriptionTests {
        struct Idle: Service {
            func run() async throws { try await gracefulShutdown() }
        }

        static func frozen(registrations: Int) throws -> FrozenContainer {
            let container = Container()
            for index in 0..<registrations {
                container.register(Int.self, name: "value \(index)") { _ in index }
            }
            return try container.freeze()
        }

        @Test(arguments: [
            (1, 0, "ContainerService(1 registration)"),
            (7, 0, "ContainerService(7 registrations)"),
            (7, 1, "ContainerService(7 registrations, then 1 service)"),
            (0, 2, "ContainerService(0 registrations, then 2 services)"),
        ])
        func oneShortLine(registrations: Int, after: Int, expected: String) throws {
            let service = ContainerService(
                try Self.frozen(registrations: registrations),
                startingAfterBootstrap: Array(repeating: Idle(), count: after),
                logger: Logger(label: "test"))
            #expect("\(service)" == expected)
            #expect(String(describing: service) == expected)
        }

        @Test func theServiceGroupLogsIt() async throws {
            let recording = RecordingLogHandler.Recording()
            let service = ContainerService(
                try Self.frozen(registrations: 7), logger: recording.logger())
            let group = ServiceGroup(
                configuration: .init(services: [service], logger: recording.logger()))
            let run = Task { try await group.run() }
            #expect(
                await eventually(within: 60) {
                    recording.entries.contains { $0.message.contains("bootstrapped") }
                })
            await group.triggerGracefulShutdown()
            try await run.value

            let named = recording.entries.compactMap { $0.metadata["sl-service"] }
            #expect(!named.isEmpty)
            #expect(named.allSatisfy { $0 == "ContainerService(7 registrations)" })
        }
    }
#endif
