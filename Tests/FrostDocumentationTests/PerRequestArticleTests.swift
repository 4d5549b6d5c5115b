import Frost
import Testing

// The code of the "Per-request scopes" article (Sources/Frost/Frost.docc/PerRequestScopes.md)
// and of the README's per-request section. Each snippet is compiled inside a synchronous and
// an async function, as a server's handler and a job would hold it: `make readme-check`
// checks that every copy is the documents' code, character for character.

@Suite("Per-request snippets")
struct PerRequestArticleTests {
    @Test func theArticleCompilesAndRunsInSynchronousCode() throws {
        // snippet per-request-declare: begin
        let container = Container()
        container.register(Database.self) { _ in Postgres() }.scope(.singleton)
        container.register(Clock.self) { _ in SystemClock() }.scope(.singleton)

        container.provided(CurrentUser.self)  // each child supplies it
        container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(Database.self)) }
            .scope(.scoped)  // one per child
            .onDispose { uow in uow.rollbackIfOpen() }

        container.autowire(TodoService.self, TodoService.init(clock:uow:))
        container.autowire(TodoHandler.self, TodoHandler.init(service:user:uow:))

        let app = try container.freeze()  // validates users of provided keys too
        // snippet per-request-declare: end

        // snippet per-request-serve: begin
        // In an async handler (a server's route): the child is disposed on every path, its async
        // hooks awaited, before the response goes out.
        func serve(_ user: CurrentUser, with app: FrozenContainer) async throws -> Response {
            try await app.withChild({ c in c.register(instance: user) }) { request in
                try await request.resolve(TodoHandler.self).handle()
            }
        }

        // In synchronous code (a job, a command), the same call without `await`.
        func run(_ user: CurrentUser, with app: FrozenContainer) throws -> Response {
            try app.withChild({ c in c.register(instance: user) }) { request in
                try request.resolve(TodoHandler.self).handle()
            }
        }
        // snippet per-request-serve: end

        // snippet per-request-by-hand: begin
        func serveByHand(_ user: CurrentUser, with app: FrozenContainer) async throws -> Response {
            let request = try app.child { c in c.register(instance: user) }
            do {
                let response = try await request.resolve(TodoHandler.self).handle()
                await request.dispose()
                return response
            } catch {
                await request.dispose()
                throw error
            }
        }
        // snippet per-request-by-hand: end

        #expect(try run(CurrentUser(id: 1), with: app) == Response(body: "todos of user 1"))
        try expectEachRequestDisposes(app, run: { try run($0, with: app) })
        _ = serve
        _ = serveByHand
    }

    @Test(.timeLimit(.minutes(1))) func theArticleCompilesAndRunsInAnAsyncHandler() async throws {
        // snippet per-request-declare: begin
        let container = Container()
        container.register(Database.self) { _ in Postgres() }.scope(.singleton)
        container.register(Clock.self) { _ in SystemClock() }.scope(.singleton)

        container.provided(CurrentUser.self)  // each child supplies it
        container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(Database.self)) }
            .scope(.scoped)  // one per child
            .onDispose { uow in uow.rollbackIfOpen() }

        container.autowire(TodoService.self, TodoService.init(clock:uow:))
        container.autowire(TodoHandler.self, TodoHandler.init(service:user:uow:))

        let app = try container.freeze()  // validates users of provided keys too
        // snippet per-request-declare: end

        // snippet per-request-serve: begin
        // In an async handler (a server's route): the child is disposed on every path, its async
        // hooks awaited, before the response goes out.
        func serve(_ user: CurrentUser, with app: FrozenContainer) async throws -> Response {
            try await app.withChild({ c in c.register(instance: user) }) { request in
                try await request.resolve(TodoHandler.self).handle()
            }
        }

        // In synchronous code (a job, a command), the same call without `await`.
        func run(_ user: CurrentUser, with app: FrozenContainer) throws -> Response {
            try app.withChild({ c in c.register(instance: user) }) { request in
                try request.resolve(TodoHandler.self).handle()
            }
        }
        // snippet per-request-serve: end

        // snippet per-request-by-hand: begin
        func serveByHand(_ user: CurrentUser, with app: FrozenContainer) async throws -> Response {
            let request = try app.child { c in c.register(instance: user) }
            do {
                let response = try await request.resolve(TodoHandler.self).handle()
                await request.dispose()
                return response
            } catch {
                await request.dispose()
                throw error
            }
        }
        // snippet per-request-by-hand: end

        #expect(try await serve(CurrentUser(id: 2), with: app) == Response(body: "todos of user 2"))
        #expect(try await serveByHand(CurrentUser(id: 3), with: app).body == "todos of user 3")
        #expect(try run(CurrentUser(id: 4), with: app).body == "todos of user 4")
        try await expectEachRequestDisposesAwaiting(app, serve: { try await serve($0, with: app) })
        try await expectEachRequestDisposesAwaiting(
            app, serve: { try await serveByHand($0, with: app) })
    }

    @Test func theReadmeSectionCompilesAndRunsInSynchronousCode() throws {
        let container = Container()
        container.register(Database.self) { _ in Postgres() }.scope(.singleton)
        container.register(Clock.self) { _ in SystemClock() }.scope(.singleton)
        container.autowire(TodoService.self, TodoService.init(clock:uow:))
        let user = CurrentUser(id: 5)
        // snippet readme-per-request: begin
        container.provided(CurrentUser.self)  // each child supplies it
        container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(Database.self)) }
            .scope(.scoped)  // one per child
            .onDispose { uow in uow.rollbackIfOpen() }
        container.autowire(TodoHandler.self, TodoHandler.init(service:user:uow:))
        let app = try container.freeze()  // validates users of provided keys too

        // per request, in a server's async handler: disposed on every path, hooks awaited
        func handle(_ user: CurrentUser) async throws -> Response {
            try await app.withChild({ c in c.register(instance: user) }) { request in
                try await request.resolve(TodoHandler.self).handle()
            }
        }
        // in synchronous code (a job, a command), the same call without `await`
        func run(_ user: CurrentUser) throws -> Response {
            try app.withChild({ c in c.register(instance: user) }) { request in
                try request.resolve(TodoHandler.self).handle()
            }
        }
        // snippet readme-per-request: end
        #expect(try run(user).body == "todos of user 5")
        try expectEachRequestDisposes(app, run: run)
        _ = handle
    }

    @Test(.timeLimit(.minutes(1)))
    func theReadmeSectionCompilesAndRunsInAnAsyncHandler() async throws {
        let container = Container()
        container.register(Database.self) { _ in Postgres() }.scope(.singleton)
        container.register(Clock.self) { _ in SystemClock() }.scope(.singleton)
        container.autowire(TodoService.self, TodoService.init(clock:uow:))
        let user = CurrentUser(id: 6)
        // snippet readme-per-request: begin
        container.provided(CurrentUser.self)  // each child supplies it
        container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(Database.self)) }
            .scope(.scoped)  // one per child
            .onDispose { uow in uow.rollbackIfOpen() }
        container.autowire(TodoHandler.self, TodoHandler.init(service:user:uow:))
        let app = try container.freeze()  // validates users of provided keys too

        // per request, in a server's async handler: disposed on every path, hooks awaited
        func handle(_ user: CurrentUser) async throws -> Response {
            try await app.withChild({ c in c.register(instance: user) }) { request in
                try await request.resolve(TodoHandler.self).handle()
            }
        }
        // in synchronous code (a job, a command), the same call without `await`
        func run(_ user: CurrentUser) throws -> Response {
            try app.withChild({ c in c.register(instance: user) }) { request in
                try request.resolve(TodoHandler.self).handle()
            }
        }
        // snippet readme-per-request: end
        #expect(try run(user).body == "todos of user 6")
        #expect(try await handle(CurrentUser(id: 7)).body == "todos of user 7")
        try await expectEachRequestDisposesAwaiting(app, serve: handle)
    }
}

// MARK: What every form of a request must do

/// Serves three requests through `run`, each seeing its own user, and checks that each one's
/// unit of work was rolled back (its child disposed) by the time `run` returned.
private func expectEachRequestDisposes(
    _ app: FrozenContainer, run: (CurrentUser) throws -> Response
) throws {
    let before = try unitsOfWork(app).count
    for id in 10..<13 {
        #expect(try run(CurrentUser(id: id)).body == "todos of user \(id)")
    }
    let units = try unitsOfWork(app)
    #expect(units.count == before + 3)
    #expect(units.allSatisfy { !$0.isOpen })
}

private func expectEachRequestDisposesAwaiting(
    _ app: FrozenContainer, serve: (CurrentUser) async throws -> Response
) async throws {
    let before = try unitsOfWork(app).count
    for id in 20..<23 {
        #expect(try await serve(CurrentUser(id: id)).body == "todos of user \(id)")
    }
    let units = try unitsOfWork(app)
    #expect(units.count == before + 3)
    #expect(units.allSatisfy { !$0.isOpen })
}

/// Every unit of work begun on `app`'s database (one per request served).
private func unitsOfWork(_ app: FrozenContainer) throws -> [UnitOfWork.State] {
    let database = try #require(try app.resolve(Database.self) as? Postgres)
    return database.units.withLock { $0 }
}
