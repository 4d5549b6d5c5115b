#if Hummingbird
    import Frost
    @testable import FrostHummingbird
    import Hummingbird
    import HummingbirdTesting
    import Testing

    /// When ``RequestContainerMiddleware`` disposes a request's child, by the kind of body the
    /// handler returns: a body in memory is left as it is (Hummingbird writes it in one batch)
    /// and its child is disposed once the handler has returned; only a streamed body is
    /// wrapped, and its child disposed once it has been written.
    @Suite struct ResponseBodyDisposalTests {
        let journal = Journal()

        /// What a handler returns whose body is in memory.
        enum InMemoryBody: String, CaseIterable, Sendable {
            case string, byteBuffer, empty, encoded
        }

        struct Greeting: ResponseEncodable {
            let text: String
        }

        /// Whether Hummingbird writes a body in one batch, for each way of making one.
        @Test(arguments: [
            (ResponseBody(byteBuffer: ByteBuffer(string: "hello")), true),
            (ResponseBody(), true),
            (ResponseBody { writer in try await writer.finish(nil) }, false),
            (ResponseBody(contentLength: 5) { writer in try await writer.finish(nil) }, false),
            (ResponseBody(contentsOf: [ByteBuffer(string: "hello")]), false),
            (ResponseBody(asyncSequence: AsyncStream<ByteBuffer> { $0.finish() }), false),
            (ResponseBody(byteBuffer: ByteBuffer(string: "hello")).map { $0 }, false),
        ])
        func aBodyIsInMemoryOnlyWhenHummingbirdWritesItInOneBatch(
            body: ResponseBody, inMemory: Bool
        ) {
            #expect(body.isInMemory == inMemory)
        }

        @Test(.timeLimit(.minutes(1)), arguments: InMemoryBody.allCases)
        func anInMemoryBodyIsLeftAsItIsAndItsChildDisposedWhenTheHandlerReturns(
            body: InMemoryBody
        ) async throws {
            let journal = journal
            let router = Router(context: BasicFrostRequestContext.self)
            router.add(middleware: BodyKindMiddleware(journal: journal))
            router.add(
                middleware: requestContainers(try makeApplicationContainer(journal: journal)))
            @Sendable func served(_ context: BasicFrostRequestContext) async throws -> String {
                let resource = try await context.resolve(RequestResource.self)
                journal.write("handler returns")
                return resource.description
            }
            switch body {
            case .string:
                router.get("me") { _, context -> String in try await served(context) }
            case .byteBuffer:
                router.get("me") { _, context -> ByteBuffer in
                    ByteBuffer(string: try await served(context))
                }
            case .empty:
                router.get("me") { _, context -> HTTPResponse.Status in
                    _ = try await served(context)
                    return .noContent
                }
            case .encoded:
                router.get("me") { _, context -> Greeting in
                    Greeting(text: try await served(context))
                }
            }
            try await Application(router: router).test(.router) { client in
                let response = try await client.execute(uri: "/me?user=ann", method: .get)
                #expect(response.status == (body == .empty ? .noContent : .ok))
            }
            #expect(journal.entries == ["handler returns", "disposed 1 ann", "in memory"])
        }

        @Test(.timeLimit(.minutes(1)))
        func aStreamedBodyIsWrappedAndItsChildDisposedOnceItIsWritten() async throws {
            let journal = journal
            let router = Router(context: BasicFrostRequestContext.self)
            router.add(middleware: BodyKindMiddleware(journal: journal))
            router.add(
                middleware: requestContainers(try makeApplicationContainer(journal: journal)))
            router.get("me") { _, context -> Response in
                let resource = try await context.resolve(RequestResource.self)
                journal.write("handler returns")
                return Response(
                    status: .ok,
                    body: ResponseBody(contentLength: 5) { writer in
                        journal.write("writing, closed: \(resource.isClosed)")
                        try await writer.write(ByteBuffer(string: "1 ann"))
                        try await writer.finish(nil)
                    })
            }
            try await Application(router: router).test(.router) { client in
                let response = try await client.execute(uri: "/me?user=ann", method: .get)
                #expect(String(buffer: response.body) == "1 ann")
            }
            #expect(
                journal.entries == [
                    "handler returns", "streamed", "writing, closed: false", "disposed 1 ann",
                ])
        }

        /// The configure closure awaits (a session store here) before it registers the user;
        /// what it throws after awaiting is the response, and no handler runs.
        @Test(.timeLimit(.minutes(1)))
        func anAsyncConfigureClosureAwaitsBeforeItRegisters() async throws {
            actor Sessions {
                private let users = ["t-ann": "ann"]
                func user(for token: String) async -> CurrentUser? {
                    await Task.yield()
                    return users[token].map { CurrentUser(name: $0) }
                }
            }
            let sessions = Sessions()
            let journal = journal
            let router = Router(context: BasicFrostRequestContext.self)
            router.add(
                middleware: RequestContainerMiddleware(
                    try makeApplicationContainer(journal: journal)
                ) { request, _, child in
                    let token = request.uri.queryParameters["token"].map(String.init) ?? ""
                    guard let user = await sessions.user(for: token) else {
                        throw HTTPError(.unauthorized)
                    }
                    child.register(instance: user)
                })
            router.get("me") { _, context -> String in
                journal.write("handler ran")
                return try await context.resolve(RequestResource.self).description
            }
            try await Application(router: router).test(.router) { client in
                let ann = try await client.execute(uri: "/me?token=t-ann", method: .get)
                #expect(String(buffer: ann.body) == "1 ann")
                let stranger = try await client.execute(uri: "/me?token=forged", method: .get)
                #expect(stranger.status == .unauthorized)
            }
            #expect(journal.entries == ["handler ran", "disposed 1 ann"])
        }

        /// A configure closure that registers what cannot be frozen (a dependency neither the
        /// child nor the application has): the child is never made, the request gets a 500 and
        /// no handler runs.
        @Test(.timeLimit(.minutes(1)))
        func aConfigureClosureWhoseChildCannotBeFrozenFailsTheRequest() async throws {
            struct Unregistered: Sendable {}
            struct NeedsUnregistered: Sendable { let value: Unregistered }
            let journal = journal
            let router = Router(context: BasicFrostRequestContext.self)
            router.add(
                middleware: RequestContainerMiddleware(
                    try makeApplicationContainer(journal: journal)
                ) { _, _, child in
                    await Task.yield()
                    child.register(instance: CurrentUser(name: "ann"))
                    child.autowire(NeedsUnregistered.self, NeedsUnregistered.init(value:))
                })
            router.get("me") { _, _ -> String in
                journal.write("handler ran")
                return "unreachable"
            }
            try await Application(router: router).test(.router) { client in
                let response = try await client.execute(uri: "/me", method: .get)
                #expect(response.status == .internalServerError)
            }
            #expect(journal.entries.isEmpty)
        }

        /// Code deep in the handler — a function not handed the context — and a streamed body
        /// as it is written resolve the request's objects from `FrozenContainer.current`; after
        /// the request there is no current container.
        @Test(.timeLimit(.minutes(1)))
        func theRequestsChildIsTheCurrentContainerWhileItIsServed() async throws {
            /// Deep in the handler: handed nothing.
            @Sendable func servedUser() async throws -> String {
                guard let request = FrozenContainer.current else { return "no request" }
                return try await request.resolve(CurrentUser.self).name
            }
            let router = try makeRouter()
            router.get("deep") { _, context -> String in
                #expect(FrozenContainer.current === context.requestContainer)
                return try await servedUser()
            }
            router.get("stream") { _, _ -> Response in
                Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: try await servedUser()))
                        try await writer.finish(nil)
                    })
            }
            try await Application(router: router).test(.router) { client in
                let deep = try await client.execute(uri: "/deep?user=ann", method: .get)
                #expect(String(buffer: deep.body) == "ann")
                let stream = try await client.execute(uri: "/stream?user=bob", method: .get)
                #expect(String(buffer: stream.body) == "bob")
                #expect(FrozenContainer.current == nil)
                #expect(try await servedUser() == "no request")
            }
            #expect(FrozenContainer.current == nil)
        }

        /// 64 concurrent requests, every other one streamed: as many children disposed as
        /// requests served, each once.
        @Test(.timeLimit(.minutes(1)))
        func everyChildIsDisposedOnceWhateverItsBody() async throws {
            let router = try makeRouter()
            router.get("me") { request, context -> Response in
                let resource = try await context.resolve(RequestResource.self)
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...3)))
                let name = resource.user.name
                guard request.uri.queryParameters["stream"] != nil else {
                    return Response(
                        status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: name)))
                }
                return Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        try await Task.sleep(for: .milliseconds(Int.random(in: 0...3)))
                        try await writer.write(ByteBuffer(string: resource.user.name))
                        try await writer.finish(nil)
                    })
            }
            let users = (0..<64).map { "user-\($0)" }
            let served = try await Application(router: router).test(.router) { client in
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for (index, user) in users.enumerated() {
                        group.addTask {
                            let stream = index.isMultiple(of: 2) ? "&stream" : ""
                            let response = try await client.execute(
                                uri: "/me?user=\(user)\(stream)", method: .get)
                            return String(buffer: response.body) == user
                        }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
            }
            let disposed = journal.disposalLines.map { $0.split(separator: " ") }
            #expect(served == users.count)
            #expect(disposed.count == served)
            #expect(Set(disposed.map { $0[1] }).count == served)  // each serial once
            #expect(Set(disposed.map { String($0[2]) }) == Set(users))  // each user once
        }

        /// The router used by most tests: the middleware over every route.
        func makeRouter() throws -> Router<BasicFrostRequestContext> {
            let router = Router(context: BasicFrostRequestContext.self)
            router.add(
                middleware: requestContainers(try makeApplicationContainer(journal: journal)))
            return router
        }
    }
#endif
