#if Hummingbird
    import Frost
    @testable import FrostHummingbird
    import Hummingbird
    import HummingbirdTesting
    import Testing

    /// Requests sent through a Hummingbird router with ``RequestContainerMiddleware``: each
    /// gets a child of the application container, its handlers resolve through the context,
    /// and its child is disposed exactly once — when the handler has returned a body in memory,
    /// after a streamed body has been written, or when the request failed.
    @Suite struct RequestContainerMiddlewareTests {
        let journal = Journal()

        /// A router whose routes all run under the middleware.
        func makeRouter() throws -> Router<BasicFrostRequestContext> {
            let router = Router(context: BasicFrostRequestContext.self)
            router.add(
                middleware: requestContainers(try makeApplicationContainer(journal: journal)))
            return router
        }

        /// A router whose routes all run under the middleware, `outer` added before it.
        func makeRouter(
            outer: some RouterMiddleware<BasicFrostRequestContext>
        ) throws -> Router<BasicFrostRequestContext> {
            let router = Router(context: BasicFrostRequestContext.self)
            router.add(middleware: outer)
            router.add(
                middleware: requestContainers(try makeApplicationContainer(journal: journal)))
            return router
        }

        @Test(.timeLimit(.minutes(1)))
        func aHandlerResolvesTheRequestsScopedObject() async throws {
            let router = try makeRouter()
            router.get("me") { _, context -> String in
                let resource = try await context.resolve(RequestResource.self)
                #expect(try await context.resolve(RequestResource.self) === resource)
                #expect(!resource.isClosed)
                return resource.description
            }
            try await Application(router: router).test(.router) { client in
                let ann = try await client.execute(uri: "/me?user=ann", method: .get)
                #expect(ann.status == .ok)
                #expect(String(buffer: ann.body) == "1 ann")
                #expect(journal.disposalLines == ["disposed 1 ann"])

                let bob = try await client.execute(uri: "/me?user=bob", method: .get)
                #expect(String(buffer: bob.body) == "2 bob")
                #expect(journal.disposalLines == ["disposed 1 ann", "disposed 2 bob"])
            }
        }

        /// The body streams after the middleware's `next` returned, reading the request's
        /// `.scoped` object: the child is disposed only once the last chunk is written.
        @Test(.timeLimit(.minutes(1)))
        func aStreamedBodyKeepsTheRequestsObjectsUntilItEnds() async throws {
            let journal = journal
            let router = try makeRouter(outer: JournalingMiddleware(journal: journal))
            router.get("stream") { _, context -> Response in
                let resource = try await context.resolve(RequestResource.self)
                return Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        for chunk in 0..<4 {
                            journal.write("chunk \(chunk), closed: \(resource.isClosed)")
                            try await writer.write(
                                ByteBuffer(string: "\(resource.user.name) \(chunk)\n"))
                            try await Task.sleep(for: .milliseconds(5))
                        }
                        try await writer.finish(nil)
                    })
            }
            try await Application(router: router).test(.router) { client in
                let response = try await client.execute(uri: "/stream?user=ann", method: .get)
                #expect(String(buffer: response.body) == "ann 0\nann 1\nann 2\nann 3\n")
            }
            #expect(
                journal.entries == [
                    "next returned",
                    "chunk 0, closed: false", "chunk 1, closed: false",
                    "chunk 2, closed: false", "chunk 3, closed: false",
                    "disposed 1 ann",
                ])
        }

        /// A handler that throws, or a body that fails while it streams: the child is
        /// disposed once, its async hook awaited, before the error goes on.
        @Test(.timeLimit(.minutes(1)), arguments: Failure.allCases)
        func aFailingRequestDisposesItsChildOnce(failure: Failure) async throws {
            let router = try makeRouter(outer: JournalingMiddleware(journal: journal))
            router.get("fail") { _, context -> Response in
                let resource = try await context.resolve(RequestResource.self)
                _ = try await context.resolve(SlowToClose.self)
                switch failure {
                case .httpError:
                    throw HTTPError(.conflict, message: "no, \(resource.user.name)")
                case .otherError:
                    throw HandlerFailed()
                case .bodyFailsMidStream:
                    return Response(
                        status: .ok,
                        body: ResponseBody { writer in
                            try await writer.write(ByteBuffer(string: resource.user.name))
                            throw HandlerFailed()
                        })
                }
            }
            try await Application(router: router).test(.router) { client in
                switch failure {
                case .httpError:
                    let response = try await client.execute(uri: "/fail?user=ann", method: .get)
                    #expect(response.status == .conflict)
                case .otherError:
                    let response = try await client.execute(uri: "/fail?user=ann", method: .get)
                    #expect(response.status == .internalServerError)
                case .bodyFailsMidStream:
                    await #expect(throws: HandlerFailed.self) {
                        try await client.execute(uri: "/fail?user=ann", method: .get)
                    }
                }
                journal.write("the client has the answer")
                let disposal = ["slow to close: closed", "disposed 1 ann"]  // newest first
                if failure == .bodyFailsMidStream {
                    #expect(
                        journal.entries == ["next returned"] + disposal + [
                            "the client has the answer"
                        ])
                } else {
                    #expect(
                        journal.entries == disposal + ["next threw", "the client has the answer"])
                }
            }
            #expect(journal.disposalLines == ["disposed 1 ann"])
        }

        /// What the application's closure throws reaches Hummingbird as thrown (a 401, not
        /// the 500 of a wrapped error), before the handler runs.
        @Test(.timeLimit(.minutes(1)))
        func anErrorWhileMakingTheChildIsTheResponse() async throws {
            let journal = journal
            let router = try makeRouter()
            router.get("me") { _, _ -> String in
                journal.write("handler ran")
                return "unreachable"
            }
            try await Application(router: router).test(.router) { client in
                let response = try await client.execute(uri: "/me", method: .get)
                #expect(response.status == .unauthorized)
            }
            #expect(journal.entries.isEmpty)
        }

        /// 64 requests at once, each for its own user, each resolving twice with a pause
        /// between: every response shows its own user, every child is disposed exactly once.
        @Test(.timeLimit(.minutes(1)))
        func concurrentRequestsEachHaveTheirOwnChild() async throws {
            let router = try makeRouter()
            router.get("me") { _, context -> Response in
                let resource = try await context.resolve(RequestResource.self)
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...5)))
                let again = try await context.resolve(RequestResource.self)
                let user = try await context.resolve(CurrentUser.self)
                #expect(again === resource)
                #expect(user == resource.user)
                return Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        try await Task.sleep(for: .milliseconds(Int.random(in: 0...5)))
                        try await writer.write(ByteBuffer(string: resource.user.name))
                        try await writer.finish(nil)
                    })
            }
            let users = (0..<64).map { "user-\($0)" }
            try await Application(router: router).test(.router) { client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for user in users {
                        group.addTask {
                            let response = try await client.execute(
                                uri: "/me?user=\(user)", method: .get)
                            #expect(response.status == .ok)
                            #expect(String(buffer: response.body) == user)
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let disposed = journal.disposalLines.map { $0.split(separator: " ") }
            #expect(disposed.count == users.count)
            #expect(Set(disposed.map { $0[1] }).count == users.count)  // each serial once
            #expect(Set(disposed.map { String($0[2]) }) == Set(users))  // each user once
        }

        /// The async `.onDispose` hook of a request's object has run when the client has the
        /// response: the middleware awaits the child's disposal.
        @Test(.timeLimit(.minutes(1)))
        func asyncHooksAreAwaitedBeforeTheRequestEnds() async throws {
            let router = try makeRouter()
            router.get("slow") { _, context -> String in
                _ = try await context.resolve(SlowToClose.self)
                return "done"
            }
            try await Application(router: router).test(.router) { client in
                _ = try await client.execute(uri: "/slow?user=ann", method: .get)
                #expect(journal.entries == ["slow to close: closed"])
            }
        }

        /// A streamed response dropped before its body was written (here a middleware outside
        /// replaces it): the child is still disposed, once, as soon as nothing refers to the
        /// body.
        @Test(.timeLimit(.minutes(1)))
        func aStreamedResponseDroppedUnwrittenStillDisposesItsChild() async throws {
            let router = try makeRouter(outer: BodyReplacingMiddleware())
            router.get("me") { _, context -> Response in
                let resource = try await context.resolve(RequestResource.self)
                return Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: resource.description))
                        try await writer.finish(nil)
                    })
            }
            try await Application(router: router).test(.router) { client in
                let response = try await client.execute(uri: "/me?user=ann", method: .get)
                #expect(String(buffer: response.body) == "replaced")
            }
            var disposals = journal.disposals.makeAsyncIterator()
            #expect(await disposals.next() == "1 ann")
            #expect(journal.disposalLines == ["disposed 1 ann"])
        }

        /// A route the middleware does not cover has no child container: resolving through the
        /// context fails with `RequestContainerMissing` (a 500), and says why.
        @Test(.timeLimit(.minutes(1)))
        func aRouteOutsideTheMiddlewareHasNoChild() async throws {
            let app = try makeApplicationContainer(journal: journal)
            let router = Router(context: BasicFrostRequestContext.self)
            router.group("scoped").add(middleware: requestContainers(app))
                .get("me") { _, context -> String in
                    try await context.resolve(CurrentUser.self).name
                }
            router.get("unscoped") { _, context -> String in
                #expect(context.requestContainer == nil)
                let error = #expect(throws: RequestContainerMissing.self) {
                    try context.requireRequestContainer()
                }
                #expect(error?.description.contains("RequestContainerMiddleware") == true)
                return try await context.resolve(CurrentUser.self).name
            }
            try await Application(router: router).test(.router) { client in
                let scoped = try await client.execute(uri: "/scoped/me?user=ann", method: .get)
                #expect(String(buffer: scoped.body) == "ann")
                let unscoped = try await client.execute(uri: "/unscoped?user=ann", method: .get)
                #expect(unscoped.status == .internalServerError)
            }
        }
    }
#endif
