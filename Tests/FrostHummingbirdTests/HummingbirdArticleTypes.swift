#if Hummingbird
    import Foundation
    import Frost
    import FrostHummingbird
    import Hummingbird
    import Logging
    import Synchronization

    // The types of the "Serving requests with Hummingbird" article
    // (Sources/FrostHummingbird/FrostHummingbird.docc/ServingRequests.md); the blocks between
    // "snippet" markers are the article's, character for character (Scripts/readme-check.sh).

    // snippet hb-context: begin
    struct AppRequestContext: FrostRequestContext {
        var coreContext: CoreRequestContextStorage
        var requestContainer: FrozenContainer?  // set by RequestContainerMiddleware

        init(source: Source) {
            self.coreContext = .init(source: source)
        }
    }
    // snippet hb-context: end

    // snippet hb-service: begin
    final class TodoService: Sendable {
        let uow: UnitOfWork
        let logger: Logger  // the request's: its metadata holds hb.request.id

        init(uow: UnitOfWork, logger: Logger) {
            self.uow = uow
            self.logger = logger
        }

        func list(for user: CurrentUser) -> String {
            logger.info("listing todos", metadata: ["user": "\(user.name)"])
            return uow.database.todos(of: user.name).joined(separator: ", ")
        }
    }
    // snippet hb-service: end

    // snippet hb-router: begin
    func buildRouter(app: FrozenContainer, sessions: Sessions) -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        router.group("todos")
            .add(
                middleware: RequestContainerMiddleware(app) { request, context, child in
                    guard let token = request.headers[.authorization],
                        let user = try await sessions.user(for: token)
                    else { throw HTTPError(.unauthorized) }  // no child, no handler
                    child.register(instance: user)
                    child.register(instance: context.logger)  // carries hb.request.id
                }
            )
            .get { _, context -> String in
                let user = try await context.resolve(CurrentUser.self)
                try await audit("listed todos")
                return try await context.resolve(TodoService.self).list(for: user)
            }
        router.get("health") { _, _ in "ok" }  // outside the group: no child
        return router
    }
    // snippet hb-router: end

    // snippet hb-current: begin
    /// Deep in a handler: handed neither the context nor the child.
    func audit(_ action: String) async throws {
        guard let request = FrozenContainer.current else { return }  // not serving a request
        let user = try await request.resolve(CurrentUser.self)
        try await request.resolve(Logger.self).info("audit: \(user.name) \(action)")
    }
    // snippet hb-current: end

    /// The application's pool: a singleton, closed last at shutdown. It counts the units of
    /// work begun on it and those rolled back (not the units: they refer to it).
    final class Database: Sendable {
        let name: String
        private let counts = Mutex((begun: 0, rolledBack: 0))
        private let closed = Mutex(false)

        init(name: String = "postgres") {
            self.name = name
        }

        func todos(of user: String) -> [String] { ["\(user)'s todo on \(name)"] }

        func didBegin() { counts.withLock { $0.begun += 1 } }
        func didRollBack() { counts.withLock { $0.rolledBack += 1 } }
        /// Units of work begun, and rolled back.
        var units: (begun: Int, rolledBack: Int) { counts.withLock { $0 } }

        func close() { closed.withLock { $0 = true } }
        var isClosed: Bool { closed.withLock { $0 } }
    }

    /// One per request (`.scoped`), rolled back when the request's child is disposed.
    final class UnitOfWork: Sendable {
        let database: Database
        private let open = Mutex(true)

        init(_ database: Database) {
            self.database = database
            database.didBegin()
        }

        func rollbackIfOpen() {
            if open.withLock({ isOpen in
                defer { isOpen = false }
                return isOpen
            }) {
                database.didRollBack()
            }
        }
    }

    /// The application's sessions: a token's user, found asynchronously.
    actor Sessions {
        private let users: [String: String]

        init(_ users: [String: String] = ["t-ann": "ann", "t-bob": "bob"]) {
            self.users = users
        }

        func user(for token: String) async throws -> CurrentUser? {
            await Task.yield()  // a lookup in a store
            return users[token].map(CurrentUser.init(name:))
        }
    }

    /// Keeps every log record, with its metadata: what the per-request logger wrote.
    final class LogRecords: @unchecked Sendable {
        // @unchecked: `records` is only touched under `lock`.
        private let lock = NSLock()
        private var records: [(message: String, metadata: Logger.Metadata)] = []

        func append(_ message: String, _ metadata: Logger.Metadata) {
            lock.withLock { records.append((message, metadata)) }
        }

        var all: [(message: String, metadata: Logger.Metadata)] { lock.withLock { records } }

        /// A logger that records here.
        func logger(label: String) -> Logger {
            Logger(label: label) { _ in Handler(records: self) }
        }

        struct Handler: LogHandler {
            let records: LogRecords
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .info

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                records.append(
                    event.message.description,
                    metadata.merging(event.metadata ?? [:]) { _, new in new })
            }
        }
    }
#endif
