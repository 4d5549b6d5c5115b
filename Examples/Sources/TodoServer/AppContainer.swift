import Frost
import Logging

/// Registers the server's components on `container`: what the executable freezes, and what a
/// test freezes after replacing a part.
///
/// - Parameters:
///   - container: The application container, not yet frozen.
///   - config: The server's settings.
///   - logger: The logger every component writes to.
public func registerServices(in container: Container, config: AppConfig, logger: Logger) {
    // The application's: made once, shared by every request.
    container.register(instance: config)
    container.register(instance: logger)
    container.register((any WallClock).self) { _ in SystemClock() }.scope(.singleton)
    container.register((any IDGenerator).self) { _ in UUIDGenerator() }.scope(.singleton)
    container.register(TodoStore.self) { r async throws in
        try await TodoStore.open(logger: try await r.resolve(Logger.self))
    }
    .scope(.singleton)
    .onDispose { store async in await store.close() }

    // Each request's child supplies these (see RequestContainers.swift).
    container.provided(CurrentUser.self)
    container.provided(CorrelationID.self)

    // One per request, written to the log when the request's child is disposed.
    container.autowire(RequestLog.self, RequestLog.init(logger:correlationID:user:))
        .scope(.scoped)
        .onDispose { log in log.flush() }

    // Transients, autowired: `freeze()` checks their parameters, the request-scoped ones
    // included.
    container.autowire(TodoService.self, TodoService.init(store:clock:ids:config:))
    container.autowire(TodoHandler.self, TodoHandler.init(user:service:log:))
}
