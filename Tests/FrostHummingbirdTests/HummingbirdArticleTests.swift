#if Hummingbird
    import Frost
    import FrostHummingbird
    import Hummingbird
    import HummingbirdTesting
    import Logging
    import ServiceLifecycle
    import Testing

    // The code of the "Serving requests with Hummingbird" article
    // (Sources/FrostHummingbird/FrostHummingbird.docc/ServingRequests.md), compiled and run:
    // `make readme-check` checks that every copy between "snippet" markers is the article's.

    @Suite(.timeLimit(.minutes(1)))
    struct HummingbirdArticleTests {
        /// The application container of the article.
        static func makeApp() throws -> FrozenContainer {
            // snippet hb-declare: begin
            let container = Container()
            container.register(Database.self) { _ in Database() }
                .scope(.singleton)
                .onDispose { db in db.close() }
            container.provided(CurrentUser.self)  // each request's child supplies them
            container.provided(Logger.self)
            container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(Database.self)) }
                .scope(.scoped)  // one per request
                .onDispose { uow in uow.rollbackIfOpen() }
            container.autowire(TodoService.self, TodoService.init(uow:logger:))
            let app = try container.freeze()
            // snippet hb-declare: end
            return app
        }

        @Test func theServerServesEachRequestFromItsOwnChild() async throws {
            let app = try Self.makeApp()
            // snippet hb-testing: begin
            let router = buildRouter(app: app, sessions: Sessions())
            try await Application(router: router).test(.router) { client in
                let ann = try await client.execute(
                    uri: "/todos", method: .get, headers: [.authorization: "t-ann"])
                #expect(String(buffer: ann.body) == "ann's todo on postgres")
                let stranger = try await client.execute(uri: "/todos", method: .get)
                #expect(stranger.status == .unauthorized)
            }
            // snippet hb-testing: end
            let database = try await app.resolve(Database.self)
            #expect(database.units.begun == 1)
            #expect(database.units.rolledBack == 1)
            await app.dispose()
            #expect(database.isClosed)
        }

        /// Each request's logger carries its request id: the service's line and the audit
        /// line deep in the handler both have it, and no two requests share one.
        @Test func theRequestsLoggerCarriesItsRequestID() async throws {
            let app = try Self.makeApp()
            let records = LogRecords()
            let router = buildRouter(app: app, sessions: Sessions())
            let application = Application(router: router, logger: records.logger(label: "todos"))
            try await application.test(.router) { client in
                for token in ["t-ann", "t-bob"] {
                    let response = try await client.execute(
                        uri: "/todos", method: .get, headers: [.authorization: token])
                    #expect(response.status == .ok)
                }
            }
            let lines = records.all.filter {
                $0.message == "listing todos" || $0.message.hasPrefix("audit: ")
            }
            #expect(
                lines.map(\.message) == ["audit: ann listed todos", "listing todos"]
                    + ["audit: bob listed todos", "listing todos"])
            let ids = lines.map { $0.metadata["hb.request.id"]?.description }
            #expect(ids.allSatisfy { $0 != nil })
            #expect(ids[0] == ids[1])
            #expect(ids[2] == ids[3])
            #expect(ids[0] != ids[2])
            await app.dispose()
        }

        /// A route outside the middleware's group: no child, no current container; resolving
        /// through the context throws `RequestContainerMissing`, a bare 500 with an empty body.
        @Test func aRouteOutsideTheGroupHasNoChild() async throws {
            let app = try Self.makeApp()
            let router = buildRouter(app: app, sessions: Sessions())
            router.get("outside") { _, context -> String in
                #expect(context.requestContainer == nil)
                #expect(FrozenContainer.current == nil)
                try await audit("did nothing")  // no request: returns
                return try await context.resolve(CurrentUser.self).name
            }
            try await Application(router: router).test(.router) { client in
                let health = try await client.execute(uri: "/health", method: .get)
                #expect(String(buffer: health.body) == "ok")
                let outside = try await client.execute(
                    uri: "/outside", method: .get, headers: [.authorization: "t-ann"])
                #expect(outside.status == .internalServerError)
                #expect(outside.body.readableBytes == 0)
            }
            await app.dispose()
        }

        @Test func aTestOverridesThroughAChildPassedAsTheParent() async throws {
            let app = try Self.makeApp()
            // snippet hb-override: begin
            let testing = try app.child { c in  // the application, with a test database
                c.register(Database.self) { _ in Database(name: "fixtures") }.scope(.singleton)
            }
            let router = buildRouter(app: testing, sessions: Sessions())
            try await Application(router: router).test(.router) { client in
                let ann = try await client.execute(
                    uri: "/todos", method: .get, headers: [.authorization: "t-ann"])
                #expect(String(buffer: ann.body) == "ann's todo on fixtures")
            }
            await testing.dispose()
            // snippet hb-override: end
            await app.dispose()
        }

        /// The server runs in a service group on a free port; a client is answered, then a
        /// graceful shutdown stops the server, and only then is the application disposed.
        @Test func shutdownDisposesTheApplicationAfterTheLastRequest() async throws {
            let app = try Self.makeApp()
            let sessions = Sessions()
            let (running, serverIsRunning) = AsyncStream.makeStream(of: Int.self)
            // snippet hb-services: begin
            let server = Application(
                router: buildRouter(app: app, sessions: sessions),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),  // any free port
                onServerRunning: { serverIsRunning.yield($0.localAddress?.port ?? 0) }
            )
            let services = ServiceGroup(
                services: [server], gracefulShutdownSignals: [.sigterm, .sigint],
                logger: server.logger)
            // snippet hb-services: end
            let database = try await app.resolve(Database.self)
            // A client on loopback, then what SIGTERM would do.
            let client = Task {
                var ports = running.makeAsyncIterator()
                let port = try #require(await ports.next())
                let answer = try await TestClient.withClient(host: "127.0.0.1", port: port) {
                    try await $0.get("/todos", headers: [.authorization: "t-bob"])
                }
                #expect(answer.body.map { String(buffer: $0) } == "bob's todo on postgres")
                #expect(!database.isClosed)
                await services.triggerGracefulShutdown()
            }
            // snippet hb-shutdown: begin
            try await services.run()  // until SIGTERM or SIGINT, then its requests are answered
            await app.dispose()  // and only then the application's singletons: the pool closes
            // snippet hb-shutdown: end
            try await client.value
            #expect(database.isClosed)
        }
    }
#endif
