import Foundation
import Frost
import Synchronization

// The application the articles wire ("Per-request scopes", "Testing with Frost") and the
// README's per-request section: a database, a clock, the current user, a unit of work per
// request, and the services and handler above them.

protocol Database: Sendable {}

/// The database, which remembers whether each unit of work begun on it is still open, so
/// that a test can check that every request's was rolled back. (It keeps the units' states,
/// not the units, which refer to it: no reference cycle.)
final class Postgres: Database {
    let units = Mutex<[UnitOfWork.State]>([])
}

protocol Clock: Sendable { var now: Date { get } }
struct SystemClock: Clock { var now: Date { Date() } }

struct CurrentUser: Sendable, Equatable { let id: Int }

/// Open until it commits or its request ends; `.onDispose` rolls it back.
final class UnitOfWork: Sendable {
    /// Whether a unit is open, shared with the database that began it.
    final class State: Sendable {
        let open = Mutex(true)
        var isOpen: Bool { open.withLock { $0 } }
    }

    let database: any Database
    private let state = State()
    init(_ database: any Database) {
        self.database = database
        (database as? Postgres)?.units.withLock { $0.append(state) }
    }
    var isOpen: Bool { state.isOpen }
    func rollbackIfOpen() { state.open.withLock { $0 = false } }
}

final class TodoService: Sendable {
    let clock: any Clock
    let uow: UnitOfWork
    init(clock: any Clock, uow: UnitOfWork) {
        self.clock = clock
        self.uow = uow
    }
}

struct Response: Sendable, Equatable { let body: String }

final class TodoHandler: Sendable {
    let service: TodoService
    let user: CurrentUser
    let uow: UnitOfWork
    init(service: TodoService, user: CurrentUser, uow: UnitOfWork) {
        self.service = service
        self.user = user
        self.uow = uow
    }
    func handle() throws -> Response {
        Response(body: "todos of user \(user.id)")
    }
}

final class BillingService: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
}

final class Scheduler: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
}
