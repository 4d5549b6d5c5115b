#if Hummingbird
    import Frost
    import FrostHummingbird
    import Hummingbird
    import HummingbirdTesting
    import Synchronization
    import Testing

    /// The README's Hummingbird block, compiled and run as written: `make readme-check` checks
    /// that the block between the "snippet" markers is the README's, character for character.
    @Suite struct ReadmeHummingbirdTests {
        @Test(.timeLimit(.minutes(1)))
        func theReadmeRouterServesEachRequestFromItsOwnChild() async throws {
            let database = Database()
            let container = Container()
            container.register(instance: database)
            container.provided(CurrentUser.self)
            container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(Database.self)) }
                .scope(.scoped)
                .onDispose { uow in uow.rollbackIfOpen() }
            container.autowire(TodoHandler.self, TodoHandler.init(user:uow:))
            let app = try container.freeze()

            // snippet readme-hummingbird: begin
            let router = Router(context: BasicFrostRequestContext.self)
            router.group("todos")
                .add(
                    middleware: RequestContainerMiddleware(app) { request, _, child in
                        guard let user = request.headers[.authorization] else {
                            throw HTTPError(.unauthorized)  // no child, no handler
                        }
                        child.register(instance: CurrentUser(name: user))
                    }
                )
                .get { _, context in
                    try await context.resolve(TodoHandler.self).list()  // from the child
                }  // the child is disposed once the handler has returned
            // snippet readme-hummingbird: end

            try await Application(router: router).test(.router) { client in
                let ann = try await client.execute(
                    uri: "/todos", method: .get, headers: [.authorization: "ann"])
                #expect(String(buffer: ann.body) == "todos of ann")
                let nobody = try await client.execute(uri: "/todos", method: .get)
                #expect(nobody.status == .unauthorized)
            }
            // One unit of work, for ann's request, rolled back when its child was disposed.
            let units = database.units.withLock { $0 }
            #expect(units.count == 1)
            #expect(units.allSatisfy { !$0.isOpen })
        }
    }

    // MARK: The types the README's block uses

    extension ReadmeHummingbirdTests {
        struct CurrentUser: Sendable { let name: String }

        /// Remembers each unit of work begun on it.
        final class Database: Sendable {
            let units = Mutex<[UnitOfWork]>([])
        }

        final class UnitOfWork: Sendable {
            private let open = Mutex(true)
            init(_ database: Database) { database.units.withLock { $0.append(self) } }
            var isOpen: Bool { open.withLock { $0 } }
            func rollbackIfOpen() { open.withLock { $0 = false } }
        }

        final class TodoHandler: Sendable {
            let user: CurrentUser
            let uow: UnitOfWork
            init(user: CurrentUser, uow: UnitOfWork) {
                self.user = user
                self.uow = uow
            }
            func list() -> String { "todos of \(user.name)" }
        }
    }
#endif
