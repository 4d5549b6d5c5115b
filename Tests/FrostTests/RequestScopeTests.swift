import Foundation
import Frost
import Testing

/// A server-shaped graph: application singletons in a frozen parent, one child per request
/// that provides the request's user and id, a `.scoped` unit of work per request, transient
/// services and handlers, all autowired in the parent, resolved and disposed on many threads.
@Suite("Per-request scopes", .timeLimit(.minutes(1)))
struct RequestScopeTests {
    final class CurrentUser: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    /// The request id each child provides (autowiring resolves by type: a type of its own).
    struct RequestID: Hashable, Sendable {
        let value: String
    }

    final class UnitOfWork: Sendable {
        let database: any Database
        init(database: any Database) { self.database = database }
    }

    final class TodoService: Sendable {
        let uow: UnitOfWork
        let user: CurrentUser
        init(uow: UnitOfWork, user: CurrentUser) {
            self.uow = uow
            self.user = user
        }
    }

    final class TodoHandler: Sendable {
        let service: TodoService
        let logger: any Logger
        let user: CurrentUser
        let requestID: RequestID
        init(service: TodoService, logger: any Logger, user: CurrentUser, requestID: RequestID) {
            self.service = service
            self.logger = logger
            self.user = user
            self.requestID = requestID
        }
    }

    /// What the request threads saw: failures, every unit of work (kept alive, so that their
    /// identities stay distinct) with the number of times its hook ran, and the singletons.
    final class Ledger: @unchecked Sendable {
        private let lock = NSLock()
        private var failures: [String] = []
        private var units: [ObjectIdentifier: (uow: UnitOfWork, disposals: Int)] = [:]
        private var singletons: Set<ObjectIdentifier> = []

        func fail(_ message: String) {
            lock.lock()
            if failures.count < 10 { failures.append(message) }
            lock.unlock()
        }

        /// Records a request's unit of work and the singletons its handler holds.
        func served(_ handler: TodoHandler) {
            let uow = handler.service.uow
            lock.lock()
            if units[ObjectIdentifier(uow)] == nil { units[ObjectIdentifier(uow)] = (uow, 0) }
            singletons.insert(ObjectIdentifier(uow.database))
            singletons.insert(ObjectIdentifier(handler.logger))
            lock.unlock()
        }

        /// The unit of work's `.onDispose` hook.
        func disposed(_ uow: UnitOfWork) {
            lock.lock()
            units[ObjectIdentifier(uow), default: (uow, 0)].disposals += 1
            lock.unlock()
        }

        func disposals(of uow: UnitOfWork) -> Int {
            lock.lock()
            defer { lock.unlock() }
            return units[ObjectIdentifier(uow)]?.disposals ?? 0
        }

        var errors: [String] {
            lock.lock()
            defer { lock.unlock() }
            return failures
        }

        var unitCount: Int {
            lock.lock()
            defer { lock.unlock() }
            return units.count
        }

        /// The units of work whose hook did not run exactly once.
        var unitsNotDisposedOnce: Int {
            lock.lock()
            defer { lock.unlock() }
            return units.values.filter { $0.disposals != 1 }.count
        }

        var singletonIdentities: Set<ObjectIdentifier> {
            lock.lock()
            defer { lock.unlock() }
            return singletons
        }
    }

    static let threads = 8
    static let requestsPerThread = 200

    /// The application: singletons, the unit of work, provided keys, services and handlers. The
    /// database, which every request needs, is made while every thread's first request is in
    /// flight: its factory waits (bounded) until `race` has seen them all.
    static func application(_ ledger: Ledger, databaseDisposals: Counter, race: RaceWitness)
        throws -> FrozenContainer
    {
        let container = Container()
        container.register(Database.self) { _ in
            _ = race.waitForPeak(Self.threads)
            return Primary()
        }
        .scope(.singleton)
        .onDispose { _ in databaseDisposals.increment() }
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.autowire(UnitOfWork.self, UnitOfWork.init(database:))
            .scope(.scoped)
            .onDispose { ledger.disposed($0) }
        container.provided(CurrentUser.self)
        container.provided(RequestID.self)
        container.autowire(TodoService.self, TodoService.init(uow:user:))
        container.autowire(
            TodoHandler.self, TodoHandler.init(service:logger:user:requestID:))
        return try container.freeze()
    }

    /// One request: a child with its user and id, the handler resolved twice, then disposed.
    static func serve(_ frozen: FrozenContainer, thread: Int, request: Int, _ ledger: Ledger) {
        let user = CurrentUser(id: "user-\(thread)-\(request)")
        let requestID = RequestID(value: "request-\(thread)-\(request)")
        let label = requestID.value
        do {
            let child = try frozen.child { c in
                c.register(instance: user)
                c.register(instance: requestID)
            }
            let first = try child.resolve(TodoHandler.self)
            let second = try child.resolve(TodoHandler.self)
            ledger.served(first)
            ledger.served(second)
            let uow = first.service.uow
            for handler in [first, second] {
                if handler.user !== user || handler.service.user !== user {
                    ledger.fail("\(label): a handler got another request's user")
                }
                if handler.requestID != requestID {
                    ledger.fail("\(label): a handler got \(handler.requestID.value)")
                }
            }
            if second.service.uow !== uow {
                ledger.fail("\(label): two units of work in one request")
            }
            if first === second || first.service === second.service {
                ledger.fail("\(label): a transient was shared between two resolves")
            }
            if ledger.disposals(of: uow) != 0 {
                ledger.fail("\(label): the unit of work was disposed before its request ended")
            }
            child.dispose()
            let disposals = ledger.disposals(of: uow)
            if disposals != 1 {
                ledger.fail("\(label): the unit of work's hook ran \(disposals) times")
            }
        } catch {
            ledger.fail("\(label): \(error)")
        }
    }

    /// The `Container` that configures a child is reused for the next child once that child
    /// has frozen (a request's child costs one object fewer): never while the application
    /// still holds it, always empty, and never keeping its parent alive.
    @Test func aChildsConfiguringContainerIsReusedOnlyWhenNothingElseHoldsIt() throws {
        weak var weakParent: FrozenContainer?
        weak var spare: Container?
        do {
            let container = Container()
            container.provided(CurrentUser.self)
            let frozen = try container.freeze()
            weakParent = frozen
            for index in 0..<3 {
                let child = try frozen.child { c in
                    #expect(c.count == 0)
                    if index > 0 { #expect(c === spare) }
                    spare = c
                    c.register(instance: CurrentUser(id: "\(index)"))
                }
                #expect(spare != nil)  // kept by the parent for the next child
                #expect(try child.resolve(CurrentUser.self).id == "\(index)")
            }

            var held: Container?
            _ = try frozen.child { c in held = c }
            #expect(held === spare)
            _ = try frozen.child { c in #expect(c !== held) }
            #expect(held?.count == 0)

            let own = try frozen.child { c in c.register(String.self) { _ in "own" } }
            #expect(try own.resolve(String.self) == "own")
            _ = try frozen.child { c in
                #expect(c.count == 0)
                #expect(throws: FrostError.self) { try c.resolve(String.self) }
            }
            // Used through a weak reference after its child froze: not reused.
            weak var escaped: Container?
            _ = try frozen.child { c in escaped = c }
            escaped?.register(String.self) { _ in "leaked" }
            let clean = try frozen.child { c in #expect(c.count == 0) }
            #expect(throws: FrostError.self) { try clean.resolve(String.self) }
            withExtendedLifetime(held) {}
        }
        #expect(weakParent == nil)
        #expect(spare == nil)
    }

    /// A freed child's per-child cells serve the next child of the same parent (its root keeps
    /// the block): emptied, so the next child sees none of the earlier values or `.scoped`
    /// instances, and what they held is released with the child; a child alive meanwhile
    /// never shares its cells.
    @Test func aFreedChildsCellsServeTheNextChildEmpty() throws {
        let container = Container()
        container.provided(CurrentUser.self)
        container.provided(RequestID.self)
        container.register(UnitOfWork.self) { _ in UnitOfWork(database: Primary()) }
            .scope(.scoped)
        let frozen = try container.freeze()

        weak var firstUser: CurrentUser?
        weak var firstUnit: UnitOfWork?
        do {
            let user = CurrentUser(id: "first")
            firstUser = user
            let first = try frozen.child { c in
                c.register(instance: user)
                c.register(instance: RequestID(value: "1"))
            }
            firstUnit = try first.resolve(UnitOfWork.self)
            #expect(try first.resolve(CurrentUser.self) === user)
        }
        #expect(firstUser == nil, "the freed child's value was not released")
        #expect(firstUnit == nil, "the freed child's .scoped instance was not released")

        // Supplies nothing: the block it gets is empty.
        let bare = try frozen.child { _ in }
        #expect(throws: FrostError.self) { try bare.resolve(CurrentUser.self) }
        #expect(throws: FrostError.self) { try bare.resolve(RequestID.self) }
        let bareUnit = try bare.resolve(UnitOfWork.self)

        // Two children alive at once, one made after the other was freed: each its own.
        let second = try frozen.child { c in c.register(instance: CurrentUser(id: "second")) }
        let third = try frozen.child { c in c.register(instance: RequestID(value: "3")) }
        #expect(try second.resolve(CurrentUser.self).id == "second")
        #expect(throws: FrostError.self) { try second.resolve(RequestID.self) }
        #expect(try third.resolve(RequestID.self).value == "3")
        #expect(throws: FrostError.self) { try third.resolve(CurrentUser.self) }
        let units = [try second.resolve(UnitOfWork.self), try third.resolve(UnitOfWork.self)]
        #expect(units[0] !== units[1] && units[0] !== bareUnit && units[1] !== bareUnit)
        #expect(try second.resolve(UnitOfWork.self) === units[0])
    }

    /// A `.scoped` instance whose `deinit` makes and frees another child of the same parent
    /// while its own child's cells are being emptied (to go back to the parent): each child
    /// still sees only its own values.
    @Test func aScopedDeinitThatMakesAChildWhileCellsAreEmptiedSeesItsOwnValues() throws {
        final class Recorder: @unchecked Sendable {
            private let lock = NSLock()
            private(set) var seen: [String] = []
            private(set) var errors: [String] = []
            weak var parent: FrozenContainer?

            func record(_ body: () throws -> String) {
                do {
                    let id = try body()
                    lock.withLock { seen.append(id) }
                } catch {
                    lock.withLock { errors.append("\(error)") }
                }
            }
        }
        final class Unit: Sendable {
            let onDeinit: @Sendable () -> Void
            init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
            deinit { onDeinit() }
        }
        let recorder = Recorder()
        let container = Container()
        container.provided(CurrentUser.self)
        container.register(Unit.self) { _ in
            Unit {
                guard let parent = recorder.parent else { return }
                recorder.record {
                    let inner = try parent.child { c in
                        c.register(instance: CurrentUser(id: "inner"))
                    }
                    return try inner.resolve(CurrentUser.self).id
                }
            }
        }
        .scope(.scoped)
        let parent = try container.freeze()
        recorder.parent = parent
        do {
            let outer = try parent.child { c in c.register(instance: CurrentUser(id: "outer")) }
            #expect(try outer.resolve(CurrentUser.self).id == "outer")
            _ = try outer.resolve(Unit.self)
        }  // `outer` freed: while its cells are emptied, the unit's deinit makes `inner`
        #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        #expect(recorder.seen == ["inner"])
        let next = try parent.child { c in c.register(instance: CurrentUser(id: "next")) }
        #expect(try next.resolve(CurrentUser.self).id == "next")
        let bare = try parent.child { _ in }
        #expect(throws: FrostError.self) { try bare.resolve(CurrentUser.self) }
    }

    /// 8 threads of 200 requests, started together, the shared database made while every
    /// thread's first request is in flight: each child's own user, id and uow, shared
    /// singletons, one hook.
    @Test func requestsOnEightThreadsEachGetTheirOwnScopeAndShareTheSingletons() async throws {
        let ledger = Ledger()
        let databaseDisposals = Counter()
        let race = RaceWitness()
        let frozen = try Self.application(ledger, databaseDisposals: databaseDisposals, race: race)

        let bodies: [@Sendable () -> Void] = (0..<Self.threads).map { thread in
            {
                _ = race.barrier(Self.threads)
                for request in 0..<Self.requestsPerThread {
                    race.during { Self.serve(frozen, thread: thread, request: request, ledger) }
                }
            }
        }
        guard await runOnThreads(within: 50, bodies) else {
            Issue.record("deadlock: 8 threads of requests did not finish within 50 s")
            return
        }
        #expect(race.peak == Self.threads, "the race did not happen: requests ran one at a time")
        #expect(ledger.errors.isEmpty, "\(ledger.errors.prefix(3))")
        #expect(ledger.unitCount == Self.threads * Self.requestsPerThread)
        #expect(ledger.unitsNotDisposedOnce == 0)
        let database = try resolveSynchronously(Database.self, from: frozen)
        let logger = try resolveSynchronously(Logger.self, from: frozen)
        #expect(
            ledger.singletonIdentities == [ObjectIdentifier(database), ObjectIdentifier(logger)])

        await frozen.dispose()  // the application's singletons; the children are disposed already
        #expect(databaseDisposals.value == 1)
        #expect(ledger.unitsNotDisposedOnce == 0)
    }
}
