public import Frost
public import Logging
public import ServiceLifecycle

/// A frozen container run as a swift-service-lifecycle `Service`: its singletons made at
/// start-up, the ones that are `Service`s run, and on graceful shutdown stopped in reverse
/// order, then the container disposed.
///
/// ```swift
/// let frozen = try container.freeze()
/// let group = ServiceGroup(
///     configuration: .init(
///         services: [.init(service: ContainerService(frozen, logger: logger)), .init(service: app)],
///         gracefulShutdownSignals: [.sigterm, .sigint],
///         logger: logger))
/// try await group.run()
/// ```
///
/// ``run()``:
/// 1. `try await container.bootstrap()`: every singleton, dependencies first, async factories
///    awaited (a failure is thrown: the service group stops); a singleton registered
///    `.lazy()` is left to its first resolve, unless a singleton bootstrap makes depends on it;
/// 2. runs the singletons made by then that are `Service`s (a lazy one made later is not
///    run), in the order they were made (each after the singletons it depends on), under one
///    `ServiceGroup` of their own; that group follows the graceful shutdown of the group this
///    service runs in, and stops them in reverse order — a service after the ones that depend
///    on it;
/// 3. `await container.dispose()`: the `.onDispose` hooks, newest instance first, async ones
///    awaited — also when a service failed or the task was cancelled.
///
/// A container with no `Service` singleton waits for the graceful shutdown, then disposes.
public struct ContainerService: Service {
    /// The container whose life this service runs.
    public let container: FrozenContainer
    private let logger: Logger

    /// A service for `container`.
    ///
    /// - Parameters:
    ///   - container: The frozen container; its singletons are made when the service runs.
    ///   - logger: The logger of the service group of the container's services.
    public init(_ container: FrozenContainer, logger: Logger) {
        self.container = container
        self.logger = logger
    }

    /// Bootstraps the container, runs its `Service` singletons until graceful shutdown, stops
    /// them in reverse order and disposes the container.
    ///
    /// - Throws: ``FrostError`` when bootstrapping fails; what the container's services throw;
    ///   `CancellationError` when cancelled before the graceful shutdown.
    public func run() async throws {
        do {
            try await container.bootstrap()
            let services = container.createdSingletons(of: (any Service).self)
            if services.isEmpty {
                try await gracefulShutdown()
            } else {
                logger.debug(
                    "Frost: running the container's services",
                    metadata: ["services": "\(services.map { String(describing: type(of: $0)) })"])
                // Run inside this service, the group follows the graceful shutdown of the
                // group this service runs in (swift-service-lifecycle passes it down).
                let group = ServiceGroup(
                    configuration: .init(
                        services: services.map { .init(service: $0) }, logger: logger))
                try await group.run()
            }
        } catch {
            await container.dispose()
            throw error
        }
        await container.dispose()
    }
}
