#if Hummingbird
    import Foundation
    import Frost
    @testable import FrostHummingbird
    import Hummingbird

    /// What happened while the requests ran, in order: handlers, bodies, middlewares and
    /// `.onDispose` hooks write to it; each disposal is also sent to `disposals`.
    final class Journal: @unchecked Sendable {
        // @unchecked: `lines` and `serials` are only touched under `lock`; the stream's
        // continuation is Sendable.
        private let lock = NSLock()
        private var lines: [String] = []
        private var serials = 0
        /// One element per `RequestResource` disposed: its `description`.
        let disposals: AsyncStream<String>
        private let disposed: AsyncStream<String>.Continuation

        init() {
            (disposals, disposed) = AsyncStream.makeStream(of: String.self)
        }

        func write(_ line: String) {
            lock.withLock { lines.append(line) }
        }

        var entries: [String] { lock.withLock { lines } }

        /// The lines that record a disposal (`disposed 3 ann`).
        var disposalLines: [String] { entries.filter { $0.hasPrefix("disposed ") } }

        /// 1, 2, 3, … : one per `RequestResource` made.
        func nextSerial() -> Int {
            lock.withLock {
                serials += 1
                return serials
            }
        }

        fileprivate func recordDisposal(of resource: RequestResource) {
            write("disposed \(resource)")
            disposed.yield(resource.description)
        }
    }

    /// The user a request acts for: each request's child supplies it (from `?user=`).
    struct CurrentUser: Sendable, Equatable {
        var name: String
    }

    /// What a request holds open while it runs — a transaction, a stream: `.scoped`, one per
    /// request's child, closed by its `.onDispose` hook when the child is disposed.
    final class RequestResource: @unchecked Sendable, CustomStringConvertible {
        // @unchecked: `closed` is only touched under `lock`; the rest is immutable.
        let serial: Int
        let user: CurrentUser
        private let journal: Journal
        private let lock = NSLock()
        private var closed = false

        init(serial: Int, user: CurrentUser, journal: Journal) {
            self.serial = serial
            self.user = user
            self.journal = journal
        }

        /// Whether its child has been disposed.
        var isClosed: Bool { lock.withLock { closed } }

        /// `.onDispose`: closes it; a second call would be journaled twice.
        func close() {
            lock.withLock { closed = true }
            journal.recordDisposal(of: self)
        }

        /// `3 ann`: its serial and its user.
        var description: String { "\(serial) \(user.name)" }
    }

    /// The application container: a `provided` user, the `.scoped` resource that records its
    /// disposal, and a resource with an async `.onDispose` hook that takes a while.
    func makeApplicationContainer(journal: Journal) throws -> FrozenContainer {
        let container = Container()
        container.provided(CurrentUser.self)
        container.register(RequestResource.self) { r in
            RequestResource(
                serial: journal.nextSerial(), user: try r.resolve(CurrentUser.self),
                journal: journal)
        }
        .scope(.scoped)
        .onDispose { resource in resource.close() }
        container.register(SlowToClose.self) { _ in SlowToClose() }
            .scope(.scoped)
            .onDispose { _ async in
                try? await Task.sleep(for: .milliseconds(20))
                journal.write("slow to close: closed")
            }
        return try container.freeze()
    }

    /// A `.scoped` instance whose async `.onDispose` hook sleeps before it journals.
    final class SlowToClose: Sendable {}

    /// The middleware as an application writes it: the user from the request (401 without).
    func requestContainers(
        _ app: FrozenContainer
    ) -> RequestContainerMiddleware<BasicFrostRequestContext> {
        RequestContainerMiddleware(app) { request, _, child in
            guard let name = request.uri.queryParameters["user"].map(String.init) else {
                throw HTTPError(.unauthorized, message: "Say who you are: ?user=")
            }
            child.register(instance: CurrentUser(name: name))
        }
    }

    /// Journals "next returned" when the rest of the chain has returned its response — which,
    /// for a middleware added before ``RequestContainerMiddleware``, is after that one's `next`
    /// returned, and before the body is written — or "next threw" when it threw.
    struct JournalingMiddleware: RouterMiddleware {
        typealias Context = BasicFrostRequestContext
        let journal: Journal

        func handle(
            _ request: Request, context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            do {
                let response = try await next(request, context)
                journal.write("next returned")
                return response
            } catch {
                journal.write("next threw")
                throw error
            }
        }
    }

    /// Journals, when the rest of the chain has returned its response, whether its body is
    /// still in memory (what Hummingbird writes in one batch): "in memory" or "streamed".
    struct BodyKindMiddleware: RouterMiddleware {
        typealias Context = BasicFrostRequestContext
        let journal: Journal

        func handle(
            _ request: Request, context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            let response = try await next(request, context)
            journal.write(response.body.isInMemory ? "in memory" : "streamed")
            return response
        }
    }

    /// Drops the response of the rest of the chain unwritten and answers with its own: what a
    /// middleware that rewrites responses, or a client gone before the head was written, does
    /// to the body ``RequestContainerMiddleware`` wrapped.
    struct BodyReplacingMiddleware: RouterMiddleware {
        typealias Context = BasicFrostRequestContext

        func handle(
            _ request: Request, context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            let response = try await next(request, context)
            return Response(
                status: response.status, headers: response.headers,
                body: ResponseBody(byteBuffer: ByteBuffer(string: "replaced")))
        }
    }

    /// What a failing request does.
    enum Failure: String, CaseIterable, Sendable {
        /// The handler throws an `HTTPError`: its status is the response.
        case httpError
        /// The handler throws another error: a 500.
        case otherError
        /// The handler returns a streamed body that throws after its first chunk.
        case bodyFailsMidStream
    }

    /// An error a handler throws.
    struct HandlerFailed: Error {}
#endif
