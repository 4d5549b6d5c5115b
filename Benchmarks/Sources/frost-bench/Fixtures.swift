import Frost

// The object graph every contender builds, modelled on the IocPerformance suite: singletons,
// transients, a transient with singleton dependencies ("combined") and a root with three
// singletons and three transient sub-objects ("complex").
//
// The autowired initializers declare their parameters `consuming`, as the README recommends:
// an initializer takes them owned anyway, and so declared, the function value `autowire`
// receives passes them on instead of copying each one (a retain and a release per
// parameter). `PlainComplex` is the same graph with plain initializers ("complex-plain").

protocol Logger: AnyObject, Sendable {
    func log(_ message: String)
}

final class ConsoleLogger: Logger {
    func log(_ message: String) {}
}

final class Config: Sendable {
    let port = 8080
}

final class Clock: Sendable {
    let offset = 0
}

final class Repository: Sendable {
    let config: Config
    init(config: consuming Config) { self.config = config }
}

final class Cache: Sendable {
    let capacity = 64
}

final class Metrics: Sendable {
    let prefix = "frost"
}

/// A transient registered with a closure (the others are autowired): "transient-closure".
final class Token: Sendable {
    let value = 1
}

/// A transient with two singleton dependencies.
final class Combined: Sendable {
    let logger: any Logger
    let config: Config
    init(logger: consuming any Logger, config: consuming Config) {
        self.logger = logger
        self.config = config
    }
}

/// One root, three singletons (logger, config, clock), three transient sub-objects.
final class Complex: Sendable {
    let logger: any Logger
    let config: Config
    let clock: Clock
    let repository: Repository
    let cache: Cache
    let metrics: Metrics
    init(
        logger: consuming any Logger,
        config: consuming Config,
        clock: consuming Clock,
        repository: consuming Repository,
        cache: consuming Cache,
        metrics: consuming Metrics
    ) {
        self.logger = logger
        self.config = config
        self.clock = clock
        self.repository = repository
        self.cache = cache
        self.metrics = metrics
    }
}

/// `Repository` with a plain initializer, for "complex-plain".
final class PlainRepository: Sendable {
    let config: Config
    init(config: Config) { self.config = config }
}

/// `Complex` with plain initializers: each parameter is copied into the initializer.
final class PlainComplex: Sendable {
    let logger: any Logger
    let config: Config
    let clock: Clock
    let repository: PlainRepository
    let cache: Cache
    let metrics: Metrics
    init(
        logger: any Logger,
        config: Config,
        clock: Clock,
        repository: PlainRepository,
        cache: Cache,
        metrics: Metrics
    ) {
        self.logger = logger
        self.config = config
        self.clock = clock
        self.repository = repository
        self.cache = cache
        self.metrics = metrics
    }
}

/// A value-type singleton: resolving it touches no reference count, so threads share nothing
/// but the container's read path (what the thread cases measure).
struct Settings: Sendable {
    var port = 8080
    var retries = 3
    var timeoutMilliseconds = 500
}

/// A transient whose delegate is injected after its initializer (property injection).
final class Screen {
    var delegate: (any Logger)?
}

/// An object the container does not create (a storyboard's view controller, a framework's
/// object), made fresh and filled by `inject(into:)`: "inject-into". Its properties are of
/// registered types: two singletons and an autowired transient.
final class Panel {
    @Injected var logger: any Logger
    @Injected var config: Config
    @Injected var cache: Cache
}

/// Made from a runtime argument.
struct Greeting: Sendable {
    let text: String
    init(to name: String) { text = "Hello, " + name }
}

/// Hand-written laziness: the closure runs on first access.
final class HandLazy<T> {
    private let make: () -> T
    private var made: T?
    init(_ make: @escaping () -> T) { self.make = make }
    var value: T {
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}

/// Never registered: the miss case.
final class Unregistered {}

/// What hand-written code keeps: the singletons, made once, stored. The optimizer returns these
/// at +0 (no retain), which `resolve` cannot do: it returns an owned reference.
final class HandWritten: Sendable {
    let logger: any Logger = ConsoleLogger()
    let config = Config()
    let clock = Clock()
    let settings = Settings()

    @inline(never)
    func singleton() -> any Logger { logger }

    @inline(never)
    func settingsSingleton() -> Settings { settings }

    @inline(never)
    func transient() -> Cache { Cache() }

    @inline(never)
    func token() -> Token { Token() }

    @inline(never)
    func combined() -> Combined { Combined(logger: logger, config: config) }

    @inline(never)
    func property() -> Screen {
        let screen = Screen()
        screen.delegate = logger
        return screen
    }

    /// A `Panel` made and filled by hand: what a hand-wired app assigns, through the same
    /// wrappers.
    @inline(never)
    func injectInto() -> Panel {
        let panel = Panel()
        panel.logger = logger
        panel.config = config
        panel.cache = Cache()
        return panel
    }

    @inline(never)
    func argument(_ name: String) -> Greeting { Greeting(to: name) }

    @inline(never)
    func lazy() -> any Logger {
        let logger = self.logger
        return HandLazy { logger }.value
    }

    @inline(never)
    func complex() -> Complex {
        Complex(
            logger: logger,
            config: config,
            clock: clock,
            repository: Repository(config: config),
            cache: Cache(),
            metrics: Metrics()
        )
    }

    @inline(never)
    func plainComplex() -> PlainComplex {
        PlainComplex(
            logger: logger,
            config: config,
            clock: clock,
            repository: PlainRepository(config: config),
            cache: Cache(),
            metrics: Metrics()
        )
    }
}

// MARK: - A server request (the `request` case)

/// Who made the request: supplied by each request (authentication made it).
final class CurrentUser: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// The request's id: supplied by each request.
struct RequestID: Sendable {
    let value: UInt64
}

/// An app singleton: the connection pool.
final class AppDatabase: Sendable {
    let name = "todos"

    /// What a server's pool does at start-up: opens its connections, awaiting them.
    static func connect() async -> AppDatabase {
        await Task.yield()
        return AppDatabase()
    }
}

/// An app singleton the request handler never uses, made by an async factory (a metrics
/// exporter that connects at start-up).
final class MetricsExporter: Sendable {
    static func start() async -> MetricsExporter {
        await Task.yield()
        return MetricsExporter()
    }
}

/// One per request: rolled back when the request ends, if still open.
final class UnitOfWork: @unchecked Sendable {
    // @unchecked: a request's unit of work is used by that request's task only.
    let database: AppDatabase
    private(set) var open = true
    init(database: consuming AppDatabase) { self.database = database }
    func rollbackIfOpen() { open = false }
}

final class TodoRepository: Sendable {
    let database: AppDatabase
    let unitOfWork: UnitOfWork
    init(database: consuming AppDatabase, unitOfWork: consuming UnitOfWork) {
        self.database = database
        self.unitOfWork = unitOfWork
    }
}

final class TodoService: Sendable {
    let repository: TodoRepository
    let unitOfWork: UnitOfWork
    init(repository: consuming TodoRepository, unitOfWork: consuming UnitOfWork) {
        self.repository = repository
        self.unitOfWork = unitOfWork
    }
}

/// The request's handler: six objects with what it depends on (two app singletons, the
/// request's unit of work, two transients), plus the request's two values.
final class TodoHandler: Sendable {
    let service: TodoService
    let logger: any Logger
    let user: CurrentUser
    let requestID: RequestID
    init(
        service: consuming TodoService,
        logger: consuming any Logger,
        user: consuming CurrentUser,
        requestID: consuming RequestID
    ) {
        self.service = service
        self.logger = logger
        self.user = user
        self.requestID = requestID
    }
}

/// A request handled by hand: the app's singletons stored, the request's objects built.
final class HandWrittenServer: Sendable {
    let database = AppDatabase()
    let logger: any Logger = ConsoleLogger()

    @inline(never)
    func handle(user: CurrentUser, requestID: RequestID) -> TodoHandler {
        let unitOfWork = UnitOfWork(database: database)
        let handler = TodoHandler(
            service: TodoService(
                repository: TodoRepository(database: database, unitOfWork: unitOfWork),
                unitOfWork: unitOfWork),
            logger: logger,
            user: user,
            requestID: requestID
        )
        blackHole(handler)
        unitOfWork.rollbackIfOpen()  // the request ends
        return handler
    }
}
