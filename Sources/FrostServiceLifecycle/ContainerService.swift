#if ServiceLifecycle
    public import Frost
    public import Logging
    public import ServiceLifecycle

    /// A frozen container run as a swift-service-lifecycle `Service`: its singletons made at
    /// start-up, then its `Service` singletons and the services you give it (your HTTP server)
    /// started, and on graceful shutdown stopped in reverse order, then the container disposed.
    ///
    /// Give it the server, so that no request is handled before `bootstrap()` has finished:
    ///
    /// ```swift
    /// let app = Application(router: router, logger: logger)  // Hummingbird 2
    /// let group = ServiceGroup(
    ///     configuration: .init(
    ///         services: [ContainerService(frozen, startingAfterBootstrap: [app], logger: logger)],
    ///         gracefulShutdownSignals: [.sigterm, .sigint],
    ///         logger: logger))
    /// try await group.run()
    /// ```
    ///
    /// A `ServiceGroup` starts its services together, so a server listed beside a
    /// `ContainerService` could take requests while the container is still bootstrapping.
    ///
    /// ``run()``:
    /// 1. `try await container.bootstrap()`: every singleton, dependencies first, async
    ///    factories awaited (a failure is thrown: the service group stops, and nothing else
    ///    this service runs has started); a singleton registered `.lazy()` is left to its first
    ///    resolve, unless a singleton bootstrap makes depends on it;
    /// 2. unless a graceful shutdown was requested meanwhile, starts under one `ServiceGroup`
    ///    of its own the singletons made by then that are `Service`s (a lazy one made later is
    ///    not run), in the order they were made (each after the singletons it depends on), then
    ///    the services passed as `startingAfterBootstrap`, in their order. That group follows
    ///    the graceful shutdown of the group this service runs in, and stops them in reverse
    ///    order: your server first (it finishes the requests it has), then a container's
    ///    service before the ones it depends on;
    /// 3. `await container.dispose()`: the `.onDispose` hooks, newest instance first, async ones
    ///    awaited — also when a service failed or the task was cancelled.
    ///
    /// With nothing to run, it waits for the graceful shutdown, then disposes.
    ///
    /// It logs each step at the `debug` level on `logger`, and a failed bootstrap at `error`;
    /// swift-service-lifecycle names it by its ``description``, one short line.
    public struct ContainerService: Service, CustomStringConvertible {
        /// The container whose life this service runs.
        public let container: FrozenContainer
        private let servicesAfterBootstrap: [any Service]
        private let logger: Logger

        /// A service for `container`.
        ///
        /// - Parameters:
        ///   - container: The frozen container; its singletons are made when the service runs.
        ///   - servicesAfterBootstrap: Services that must not start before every singleton
        ///     exists — the HTTP server, a queue consumer. They start once `bootstrap()` has
        ///     finished, after the container's own `Service` singletons, and stop first. Do not
        ///     list them in a service group of their own as well.
        ///   - logger: The logger of this service and of the group it runs the services in.
        public init(
            _ container: FrozenContainer,
            startingAfterBootstrap servicesAfterBootstrap: [any Service] = [],
            logger: Logger
        ) {
            self.container = container
            self.servicesAfterBootstrap = servicesAfterBootstrap
            self.logger = logger
        }

        /// One short line, which swift-service-lifecycle logs as `sl-service`:
        /// `ContainerService(7 registrations)`, or
        /// `ContainerService(7 registrations, then 1 service)` when it starts services after
        /// bootstrap.
        public var description: String {
            let registrations = Self.counted(container.count, "registration")
            guard !servicesAfterBootstrap.isEmpty else {
                return "ContainerService(\(registrations))"
            }
            let after = Self.counted(servicesAfterBootstrap.count, "service")
            return "ContainerService(\(registrations), then \(after))"
        }

        /// "1 service", "2 services".
        private static func counted(_ count: Int, _ noun: String) -> String {
            "\(count) \(noun)\(count == 1 ? "" : "s")"
        }

        /// Bootstraps the container, then runs its `Service` singletons and the services given
        /// as `startingAfterBootstrap` until graceful shutdown, stops them in reverse order and
        /// disposes the container.
        ///
        /// - Throws: `FrostError` when bootstrapping fails; what the services throw;
        ///   `CancellationError` when cancelled before the graceful shutdown.
        public func run() async throws {
            do {
                try await bootstrap()
                try await runServices()
            } catch {
                await dispose()
                throw error
            }
            await dispose()
        }

        private func bootstrap() async throws {
            logger.debug("Frost: bootstrapping the container")
            do {
                try await container.bootstrap()
            } catch {
                logger.error(
                    "Frost: bootstrap failed; no service started",
                    metadata: ["error": "\(error)"])
                throw error
            }
        }

        private func runServices() async throws {
            guard !Task.isShuttingDownGracefully else {
                logger.debug(
                    "Frost: graceful shutdown requested during bootstrap; no service started")
                return
            }
            let services =
                container.createdSingletons(of: (any Service).self) + servicesAfterBootstrap
            logger.debug(
                "Frost: container bootstrapped; starting services",
                metadata: ["frost.services": "\(services.map { String(describing: type(of: $0)) })"]
            )
            guard !services.isEmpty else {
                try await gracefulShutdown()
                return
            }
            // Run inside this service, the group follows the graceful shutdown of the group
            // this service runs in (swift-service-lifecycle passes it down), and stops its
            // services in reverse order.
            let group = ServiceGroup(
                configuration: .init(services: services.map { .init(service: $0) }, logger: logger))
            try await group.run()
        }

        private func dispose() async {
            logger.debug("Frost: disposing the container")
            await container.dispose()
            logger.debug("Frost: container disposed")
        }
    }
#endif
