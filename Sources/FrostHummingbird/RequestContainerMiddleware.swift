#if Hummingbird
    public import Frost
    public import Hummingbird

    /// Gives each request a child of the application's frozen container: made from the request
    /// and its context, handed to the handlers in the context (``FrostRequestContext``), and
    /// disposed once the response has been written, or the request failed.
    ///
    /// ```swift
    /// let router = Router(context: AppRequestContext.self)
    /// router.add(middleware: RequestContainerMiddleware(app) { request, context, child in
    ///     guard let name = request.headers[.xUser] else { throw HTTPError(.unauthorized) }
    ///     child.register(instance: CurrentUser(name: name))
    /// })
    /// router.get("todos") { request, context in
    ///     try await context.resolve(TodoHandler.self).list()
    /// }
    /// ```
    ///
    /// The child is disposed exactly once, its `.onDispose` hooks awaited:
    /// - after the response body has been written — a streamed body included, which may still
    ///   use the request's objects after the handler returned — or after writing it failed;
    /// - when a later middleware or the handler throws, before the error goes on (Hummingbird
    ///   turns it into the response);
    /// - when the response is dropped unwritten (the client went away before its head was
    ///   written, a middleware outside this one replaced its body): in a task of its own, once
    ///   nothing refers to the response any more.
    ///
    /// The body is wrapped to learn when it has been written, so a response with a single
    /// buffer is written as head, body and end rather than in Hummingbird's one batched write.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    public struct RequestContainerMiddleware<Context: FrostRequestContext>: RouterMiddleware {
        /// The container each request's child is made from: the application's, frozen once.
        public let parent: FrozenContainer
        private let configure: @Sendable (Request, Context, Container) throws -> Void

        /// A middleware that makes each request's child of `parent` with `configure`.
        ///
        /// - Parameters:
        ///   - parent: The application container (or a child of it, a test's overrides).
        ///   - configure: Registers the request's values in its child: the current user from
        ///     a header, the request's id. What it throws — an `HTTPError(.unauthorized)` for
        ///     a request without credentials — reaches Hummingbird as thrown, before any
        ///     handler runs; no child exists then. It runs for every request: keep it to
        ///     `register(instance:)` and cheap reads, and register what takes work (a lookup
        ///     in a database) as an async `.scoped` factory, made when first resolved.
        public init(
            _ parent: FrozenContainer,
            configure: @escaping @Sendable (Request, Context, Container) throws -> Void = {
                _, _, _ in
            }
        ) {
            self.parent = parent
            self.configure = configure
        }

        /// Makes the request's child, sets it as the context's
        /// ``FrostRequestContext/requestContainer``, runs `next`, and disposes the child once
        /// the response it returns has been written, or at once when `next` throws.
        ///
        /// - Parameters:
        ///   - request: The request.
        ///   - context: The request's context; `next` gets it with the child.
        ///   - next: The rest of the middleware chain and the handler.
        /// - Returns: `next`'s response, its body followed by the child's disposal.
        /// - Throws: What `configure` throws; `FrostError` when the child cannot be made; what
        ///   `next` throws, after the child is disposed.
        public func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            let child = try makeChild(for: request, context: context)
            let disposal = ChildDisposal(child)
            var context = context
            context.requestContainer = child
            var response: Response
            do {
                response = try await next(request, context)
            } catch {
                await disposal.dispose()
                throw error
            }
            response.body = response.body.followed(by: disposal)
            return response
        }

        /// The request's child, configured by `configure`.
        ///
        /// `child(_:)` wraps what its closure throws in a `FrostError`; the application's own
        /// error is rethrown as it was thrown, so that an `HTTPError` still chooses the
        /// response.
        private func makeChild(for request: Request, context: Context) throws -> FrozenContainer {
            var thrownByConfigure: (any Error)?
            do {
                return try parent.child { child in
                    do {
                        try configure(request, context, child)
                    } catch {
                        thrownByConfigure = error
                        throw error
                    }
                }
            } catch {
                throw thrownByConfigure ?? error
            }
        }
    }
#endif
