#if Hummingbird
    public import Frost
    public import Hummingbird

    /// A request context that carries the request's child container to the handlers: adopt it
    /// in the application's `RequestContext`, and ``RequestContainerMiddleware`` fills it in.
    ///
    /// ```swift
    /// struct AppRequestContext: FrostRequestContext {
    ///     var coreContext: CoreRequestContextStorage
    ///     var requestContainer: FrozenContainer?
    ///
    ///     init(source: Source) {
    ///         self.coreContext = .init(source: source)
    ///     }
    /// }
    /// ```
    ///
    /// Handlers resolve through it: `try await context.resolve(TodoHandler.self)`.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    public protocol FrostRequestContext: RequestContext {
        /// The request's child container: set by ``RequestContainerMiddleware`` before the
        /// handlers run, `nil` for a request it did not see. Disposed once the request is done
        /// with it (the handler returned a body in memory, or a streamed body was written): do
        /// not keep it, or what it resolved, past the request.
        var requestContainer: FrozenContainer? { get set }
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    extension FrostRequestContext {
        /// The request's child container.
        ///
        /// - Returns: ``requestContainer``.
        /// - Throws: ``RequestContainerMissing`` when no ``RequestContainerMiddleware`` saw the
        ///   request (Hummingbird answers it with a 500).
        public func requireRequestContainer() throws -> FrozenContainer {
            guard let requestContainer else { throw RequestContainerMissing() }
            return requestContainer
        }

        /// Resolves `type` (under `name`) through the request's child container, awaiting what
        /// needs it: the request's values and `.scoped` instances, and the application's
        /// components, made in the request's context.
        ///
        /// ```swift
        /// router.get("todos") { request, context in
        ///     try await context.resolve(TodoHandler.self).list()
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - type: The type to resolve; inferred from the context when omitted.
        ///   - name: The registration's name, or `nil` for the unnamed registration.
        /// - Returns: The instance, created or cached according to its registration's scope.
        /// - Throws: ``RequestContainerMissing`` when no ``RequestContainerMiddleware`` saw the
        ///   request; `FrostError` as the container's awaited `resolve` throws it.
        nonisolated(nonsending)
            public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) async throws -> T
        {
            try await requireRequestContainer().resolve(T.self, name: name)
        }
    }

    /// What ``FrostRequestContext/requireRequestContainer()`` throws for a request that no
    /// ``RequestContainerMiddleware`` saw: a route outside the group the middleware was added
    /// to, for instance. A server's mistake, not the client's: Hummingbird answers it with a
    /// 500.
    public struct RequestContainerMissing: Error, CustomStringConvertible {
        /// Says what is missing and how to add it.
        public var description: String {
            "The request has no child container: no RequestContainerMiddleware saw it. Add the "
                + "middleware to the router, or the group, that holds the route."
        }
    }

    /// A request context with nothing but what Hummingbird and ``RequestContainerMiddleware``
    /// need: `BasicRequestContext` with a ``requestContainer``.
    ///
    /// ```swift
    /// let router = Router(context: BasicFrostRequestContext.self)
    /// router.add(middleware: RequestContainerMiddleware(app) { request, _, child in
    ///     guard let name = request.headers[.xUser] else { throw HTTPError(.unauthorized) }
    ///     child.register(instance: CurrentUser(name: name))
    /// })
    /// router.get("me") { _, context in try await context.resolve(CurrentUser.self).name }
    /// ```
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    public struct BasicFrostRequestContext: FrostRequestContext {
        /// Hummingbird's own values: the logger, the route's parameters, its path.
        public var coreContext: CoreRequestContextStorage
        /// The request's child container, set by ``RequestContainerMiddleware``.
        public var requestContainer: FrozenContainer?

        /// A context for a new request, without a child container yet.
        ///
        /// - Parameter source: Where the request came from (the server's channel and logger).
        public init(source: Source) {
            self.coreContext = .init(source: source)
            self.requestContainer = nil
        }
    }
#endif
