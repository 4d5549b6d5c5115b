import Frost
import FrostServiceLifecycle
import Logging
import ServiceLifecycle
import TodoServer

/// `todo-server`: wires and freezes the application container, then runs it and the HTTP
/// server under one service group until SIGTERM or SIGINT.
@main
struct TodoServerMain {
    static func main() async throws {
        let logger = Logger(label: "todo-server")
        let config = AppConfig.fromEnvironment()

        let container = Container()
        registerServices(in: container, config: config, logger: logger)
        // Checks the whole graph, request-scoped parts included, before anything runs.
        let frozen = try container.freeze()

        let app = buildApplication(container: frozen, config: config, logger: logger)
        // The server starts once `bootstrap()` has made every singleton. On a signal it stops
        // first (it finishes the requests it has), then the container's services, then
        // `dispose()` runs the `.onDispose` hooks (the store closes).
        let group = ServiceGroup(
            configuration: .init(
                services: [ContainerService(frozen, startingAfterBootstrap: [app], logger: logger)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }
}
