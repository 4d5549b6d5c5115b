// hummingbird-load MODE PORT SECONDS
//
// Serves GET /todos?user=N on 127.0.0.1:PORT for at most SECONDS, then exits by itself.
// MODE is how a request's objects are wired: `hand` (by hand), `frost` (plain Frost: a child
// made in the handler with `withChild`), `middleware` (RequestContainerMiddleware). Every mode
// builds the same handler graph (the frost-bench `request` graph: a handler, a service, a
// repository, a unit of work per request that is rolled back when the request ends, the
// request's user and id) and answers the same in-memory String. GET /stats (outside any
// middleware) answers "served N disposed M": requests handled, units of work rolled back.

import Frost
import FrostHummingbird
import Hummingbird
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

let served = Atomic<Int>(0)
let disposed = Atomic<Int>(0)
let nextRequestID = Atomic<UInt64>(0)

struct CurrentUser: Sendable { let id: Int }
struct RequestID: Sendable { let value: UInt64 }
final class AppDatabase: Sendable { let name = "todos" }
final class UnitOfWork: Sendable {
    let database: AppDatabase
    init(database: AppDatabase) { self.database = database }
    func rollback() { disposed.add(1, ordering: .relaxed) }
}
final class TodoRepository: Sendable {
    let database: AppDatabase
    let unitOfWork: UnitOfWork
    init(database: AppDatabase, unitOfWork: UnitOfWork) {
        self.database = database
        self.unitOfWork = unitOfWork
    }
}
final class TodoService: Sendable {
    let repository: TodoRepository
    let unitOfWork: UnitOfWork
    init(repository: TodoRepository, unitOfWork: UnitOfWork) {
        self.repository = repository
        self.unitOfWork = unitOfWork
    }
}
final class TodoHandler: Sendable {
    let service: TodoService
    let user: CurrentUser
    let requestID: RequestID
    init(service: TodoService, user: CurrentUser, requestID: RequestID) {
        self.service = service
        self.user = user
        self.requestID = requestID
    }
    func list() -> String {
        served.add(1, ordering: .relaxed)
        return "todos of user \(user.id) from \(service.repository.database.name), "
            + "request \(requestID.value)\n"
    }
}

func user(of request: Request) throws -> CurrentUser {
    guard let id = request.uri.queryParameters["user"].flatMap({ Int($0) }) else {
        throw HTTPError(.unauthorized)
    }
    return CurrentUser(id: id)
}

func requestID() -> RequestID {
    RequestID(value: nextRequestID.add(1, ordering: .relaxed).newValue)
}

func makeApp() throws -> FrozenContainer {
    let container = Container()
    container.register(AppDatabase.self) { _ in AppDatabase() }.scope(.singleton)
    container.provided(CurrentUser.self)
    container.provided(RequestID.self)
    container.autowire(UnitOfWork.self, UnitOfWork.init(database:))
        .scope(.scoped)
        .onDispose { $0.rollback() }
    container.autowire(TodoRepository.self, TodoRepository.init(database:unitOfWork:))
    container.autowire(TodoService.self, TodoService.init(repository:unitOfWork:))
    container.autowire(TodoHandler.self, TodoHandler.init(service:user:requestID:))
    let app = try container.freeze()
    _ = try app.resolve(AppDatabase.self)
    return app
}

func stats() -> String {
    "served \(served.load(ordering: .relaxed)) disposed \(disposed.load(ordering: .relaxed))\n"
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let port = Int(arguments[2]), let seconds = Int(arguments[3]) else {
    print("usage: hummingbird-load hand|frost|middleware PORT SECONDS")
    exit(2)
}
let mode = arguments[1]
let address = BindAddress.hostname("127.0.0.1", port: port)
var logger = Logger(label: "hummingbird-load")
logger.logLevel = .warning

let application: any ApplicationProtocol
switch mode {
case "hand":
    let database = AppDatabase()
    let router = Router(context: BasicRequestContext.self)
    router.get("stats") { _, _ in stats() }
    router.get("todos") { request, _ -> String in
        let unitOfWork = UnitOfWork(database: database)
        defer { unitOfWork.rollback() }
        return TodoHandler(
            service: TodoService(
                repository: TodoRepository(database: database, unitOfWork: unitOfWork),
                unitOfWork: unitOfWork),
            user: try user(of: request), requestID: requestID()
        ).list()
    }
    application = Application(router: router, configuration: .init(address: address), logger: logger)
case "frost":
    let app = try makeApp()
    let router = Router(context: BasicRequestContext.self)
    router.get("stats") { _, _ in stats() }
    router.get("todos") { request, _ -> String in
        let user = try user(of: request)
        return try await app.withChild({ c in
            c.register(instance: user)
            c.register(instance: requestID())
        }) { child in
            try await child.resolve(TodoHandler.self).list()
        }
    }
    application = Application(router: router, configuration: .init(address: address), logger: logger)
case "middleware":
    let app = try makeApp()
    let router = Router(context: BasicFrostRequestContext.self)
    router.get("stats") { _, _ in stats() }
    router.group()
        .add(
            middleware: RequestContainerMiddleware(app) { request, _, child in
                child.register(instance: try user(of: request))
                child.register(instance: requestID())
            }
        )
        .get("todos") { _, context -> String in
            try await context.resolve(TodoHandler.self).list()
        }
    application = Application(router: router, configuration: .init(address: address), logger: logger)
default:
    print("hummingbird-load: unknown mode \(mode)")
    exit(2)
}

// Stops by itself after `seconds`, whatever happens.
Task.detached {
    try? await Task.sleep(for: .seconds(seconds))
    print("hummingbird-load \(mode): \(stats())", terminator: "")
    exit(0)
}
try await application.runService(gracefulShutdownSignals: [.sigterm, .sigint])
print("hummingbird-load \(mode): \(stats())", terminator: "")
