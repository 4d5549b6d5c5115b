import Frost
import Hummingbird
import Logging

/// The HTTP application: the `/todos` routes, served from `container`.
///
/// `container` is the frozen container that ``registerServices(in:config:logger:)`` wired, or
/// a child of it (a test's overrides). The server bootstraps it before it takes its first
/// request; the caller disposes of it when the server has stopped (the executable runs it as
/// a `ContainerService`).
///
/// - Parameters:
///   - container: The application container.
///   - config: Where to listen.
///   - logger: The server's logger.
/// - Returns: The application, to run as a service or to test.
public func buildApplication(
    container: FrozenContainer,
    config: AppConfig,
    logger: Logger
) -> some ApplicationProtocol {
    let router = Router(context: TodoRequestContext.self)
    // Each request under /todos gets a child of `container`, disposed once its handler has
    // returned (a streamed body: once it has been written).
    TodoRoutes().add(to: router.group("todos").add(middleware: requestContainers(of: container)))
    var app = Application(
        router: router,
        configuration: .init(
            address: .hostname(config.host, port: config.port), serverName: "todo-server"),
        logger: logger
    )
    // The service group starts the container's service and this one together: make every
    // singleton (the store's connection) before listening, so that a failure stops start-up
    // and no request waits for one. `bootstrap()` makes each singleton once, however many
    // callers race. (A child's `bootstrap()` makes only the child's own singletons: its
    // parent's are made on first use.)
    app.beforeServerStarts { try await container.bootstrap() }
    return app
}
