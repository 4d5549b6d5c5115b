#if Hummingbird
    public import Frost
    public import Hummingbird

    /// Gives each request a child of the application's frozen container: made from the request
    /// and its context, handed to the handlers in the context (``FrostRequestContext``) and as
    /// the task's current container (`FrozenContainer.current`), and disposed once the
    /// request is done with it.
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
    /// - for a body already in memory (a `String`, a `ByteBuffer`, an encoded value, an
    ///   empty body: `ResponseBody(byteBuffer:)`), once the handler and the middlewares after
    ///   this one have returned, before the response goes on. The response is left as it is,
    ///   so Hummingbird writes its head, body and end in one batched write;
    /// - for a streamed body (`ResponseBody { writer in … }`, a file, an async sequence),
    ///   which may still use the request's objects after the handler returned, once the body
    ///   has been written or writing it failed; the child is the current container while the
    ///   body is written. Only such a body is wrapped;
    /// - when a later middleware or the handler throws, before the error goes on (Hummingbird
    ///   turns it into the response);
    /// - when a streamed response is dropped unwritten (the client went away before its head
    ///   was written, a middleware outside this one replaced its body): in a task of its own,
    ///   once nothing refers to the response any more.
    ///
    /// A middleware added before this one sees the response after an in-memory body's child
    /// was disposed: it must not resolve through ``FrostRequestContext/requestContainer``.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    public struct RequestContainerMiddleware<Context: FrostRequestContext>: RouterMiddleware {
        /// The container each request's child is made from: the application's, frozen once.
        public let parent: FrozenContainer
        private let configure:
            nonisolated(nonsending) @Sendable (Request, Context, Container) async throws -> Void

        /// A middleware that makes each request's child of `parent` with `configure`.
        ///
        /// - Parameters:
        ///   - parent: The application container (or a child of it, a test's overrides).
        ///   - configure: Registers the request's values in its child: the current user from
        ///     a header, the request's id, a session it awaits. A synchronous closure works as
        ///     well. What it throws — an `HTTPError(.unauthorized)` for a request without
        ///     credentials — reaches Hummingbird as thrown, before any handler runs; no child
        ///     exists then. It runs for every request, before any handler: register what only
        ///     some handlers need and takes work (a lookup in a database) as an async `.scoped`
        ///     factory instead, made when first resolved.
        public init(
            _ parent: FrozenContainer,
            configure:
                nonisolated(nonsending) @escaping @Sendable (Request, Context, Container)
                async throws
                -> Void = {
                    _, _, _ in
                }
        ) {
            self.parent = parent
            self.configure = configure
        }

        /// Makes the request's child, sets it as the context's
        /// ``FrostRequestContext/requestContainer`` and as the current container, runs
        /// `next`, and disposes the child: at once when `next` throws or its response's body is
        /// in memory, once the body has been written when it streams.
        ///
        /// - Parameters:
        ///   - request: The request.
        ///   - context: The request's context; `next` gets it with the child.
        ///   - next: The rest of the middleware chain and the handler.
        /// - Returns: `next`'s response: as it was for a body in memory; for a streamed body,
        ///   its body followed by the child's disposal.
        /// - Throws: What `configure` throws; `FrostError` when the child cannot be made; what
        ///   `next` throws, after the child is disposed.
        public func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            let child = try await parent.child(awaiting: { child in
                try await configure(request, context, child)
            })
            var context = context
            context.requestContainer = child
            var response: Response
            do {
                response = try await FrozenContainer.$current.withValue(child) {
                    try await next(request, context)
                }
            } catch {
                await child.dispose()
                throw error
            }
            if response.body.isInMemory {
                await child.dispose()
            } else {
                response.body = response.body.followed(by: ChildDisposal(child))
            }
            return response
        }
    }
#endif
