import Testing

@testable import Frost

/// Children of both containers (`frozen.child` and `container.child`), engine rules 7 and 8:
/// whatever a child is asked — resolve, handle, description, graphviz — the answer comes from
/// one walk of the chain (own registrations, overrides, supplied values, then the parent), so
/// a parent's factories resolved through a child see the child's registrations, a parent's
/// singletons stay in the parent, and a child's own new keys resolve through it only; below a
/// disposed child, what that child would have supplied fails with `.disposed` while what a live
/// ancestor above it supplies still resolves. A child that only supplies values or overrides
/// keys its parent knows builds no hash table; a new key gets a table holding that key only.
@Suite("A child answers through one walk of its chain", .timeLimit(.minutes(1)))
struct ChildChainTests {
    protocol WallClock: AnyObject, Sendable {
        var now: Int { get }
    }

    final class SystemClock: WallClock {
        var now: Int { 1 }
    }

    /// What a test registers in a child instead of the real clock.
    final class FakeClock: WallClock {
        var now: Int { 42 }
    }

    final class Service: Sendable {
        let clock: any WallClock
        init(clock: any WallClock) { self.clock = clock }
    }

    final class CurrentUser: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    /// What the parent's factories of every kind make: the clock and the user they were given.
    final class Visit: Sendable {
        let clock: any WallClock
        let user: CurrentUser
        init(clock: any WallClock, user: CurrentUser) {
            self.clock = clock
            self.user = user
        }
    }

    // MARK: The parent's factories see the child

    /// Tests override a dependency of an already-wired service through a child (a fake clock).
    @Test(arguments: Mode.allCases)
    func aChildOverridesADependencyOfAnAlreadyWiredService(mode: Mode) throws {
        let container = Container()
        container.register((any WallClock).self) { _ in SystemClock() }
        container.autowire(Service.self, Service.init(clock:))
        let app = try mode.family(container)

        let test = try app.child { $0.register((any WallClock).self) { _ in FakeClock() } }
        #expect(try test.resolver.resolve(Service.self).clock is FakeClock)
        #expect(try app.resolver.resolve(Service.self).clock is SystemClock)
    }

    /// A parent's autowired, closure, `.graph` and `.scoped` factories see the child's values.
    @Test(arguments: Mode.allCases)
    func parentFactoriesOfEveryKindSeeTheChildsRegistrations(mode: Mode) throws {
        let container = Container()
        container.register((any WallClock).self) { _ in SystemClock() }.scope(.singleton)
        container.provided(CurrentUser.self)
        container.autowire(Visit.self, name: "autowired", Visit.init(clock:user:))
        container.register(Visit.self, name: "closure") { r in
            Visit(clock: try r.resolve((any WallClock).self), user: try r.resolve(CurrentUser.self))
        }
        container.autowire(Visit.self, name: "graph", Visit.init(clock:user:)).scope(.graph)
        container.autowire(Visit.self, name: "scoped", Visit.init(clock:user:)).scope(.scoped)
        container.autowire(Service.self, Service.init(clock:))
        let parent = try mode.family(container)
        let user = CurrentUser(id: "ann")

        let child = try parent.child { c in
            c.register(instance: user)
            c.register((any WallClock).self) { _ in FakeClock() }
        }
        for name in ["autowired", "closure", "graph", "scoped"] {
            let visit = try child.resolver.resolve(Visit.self, name: name)
            #expect(visit.clock is FakeClock, "\(name)")
            #expect(visit.user === user, "\(name)")
        }
        #expect(try child.resolver.resolve(Service.self).clock is FakeClock)
        #expect(try parent.resolver.resolve(Service.self).clock is SystemClock)
        #expect(try parent.resolver.resolve((any WallClock).self) is SystemClock)
    }

    // MARK: Singletons stay in the parent

    final class Scheduler: Sendable {
        let clock: any WallClock
        init(clock: any WallClock) { self.clock = clock }
    }

    /// A parent's singleton first resolved through a child is made from the parent's, once.
    @Test(arguments: Mode.allCases)
    func aParentSingletonIsMadeInTheParentAndSharedByEveryChild(mode: Mode) throws {
        let container = Container()
        let made = Counter()
        container.register((any WallClock).self) { _ in SystemClock() }.scope(.singleton)
        container.autowire(Scheduler.self) { (clock: any WallClock) in
            made.increment()
            return Scheduler(clock: clock)
        }
        .scope(.singleton)
        let parent = try mode.family(container)
        let first = try parent.child { c in c.register((any WallClock).self) { _ in FakeClock() } }
        let second = try parent.child { c in c.register((any WallClock).self) { _ in FakeClock() } }

        let scheduler = try first.resolver.resolve(Scheduler.self)
        #expect(scheduler.clock is SystemClock)
        #expect(try second.resolver.resolve(Scheduler.self) === scheduler)
        #expect(try parent.resolver.resolve(Scheduler.self) === scheduler)
        #expect(try first.resolver.resolve(Scheduler.self) === scheduler)
        #expect(scheduler.clock === (try parent.resolver.resolve((any WallClock).self)))
        #expect(made.value == 1)
    }

    // MARK: A child's keys

    final class Audit: Sendable {}

    final class Token: Sendable {}

    /// Made by a parent's closure that resolves `Audit`, which only a child registers.
    final class Probe: Sendable {
        let audit: Audit
        init(audit: Audit) { self.audit = audit }
    }

    final class Inspector: Sendable {
        let audit: Audit
        let clock: any WallClock
        init(audit: Audit, clock: any WallClock) {
            self.audit = audit
            self.clock = clock
        }
    }

    /// Children that only fill a provided key and override a known one each resolve their own.
    @Test(arguments: Mode.allCases)
    func childrenThatOnlyFillKnownKeysResolveTheirOwnValues(mode: Mode) throws {
        let container = Container()
        container.register((any WallClock).self) { _ in SystemClock() }
        container.provided(CurrentUser.self)
        container.autowire(Visit.self, Visit.init(clock:user:))
        container.register(Token.self) { _ in Token() }.scope(.singleton)
        let parent = try mode.family(container)
        let users = ["ann", "bob", "eve"].map(CurrentUser.init(id:))

        let children = try users.map { user in
            try parent.child { c in
                c.register(instance: user)
                c.register((any WallClock).self) { _ in FakeClock() }
            }
        }
        let token = try parent.resolver.resolve(Token.self)
        for (child, user) in zip(children, users) {
            #expect(try child.resolver.resolve(CurrentUser.self) === user, "\(user.id)")
            #expect(try child.resolver.resolve((any WallClock).self) is FakeClock, "\(user.id)")
            let visit = try child.resolver.resolve(Visit.self)
            #expect(visit.user === user, "\(user.id)")
            #expect(visit.clock is FakeClock, "\(user.id)")
            #expect(try child.resolver.resolve(Token.self) === token, "\(user.id)")
            let miss = frostError { _ = try child.resolver.resolve(Audit.self) }
            #expect(miss?.code == .notRegistered, "\(user.id)")
        }
    }

    /// A child's brand-new key resolves through the child, and a parent's transient factory
    /// resolved through the child sees it (it resolves in the child); from the parent alone it
    /// is not registered.
    @Test(arguments: Mode.allCases)
    func aChildsNewKeyResolvesThroughTheChildOnly(mode: Mode) throws {
        let container = Container()
        container.register((any WallClock).self) { _ in SystemClock() }
        container.autowire(Service.self, Service.init(clock:))
        container.register(Probe.self) { r in Probe(audit: try r.resolve(Audit.self)) }
        let parent = try mode.family(container)
        let audit = Audit()

        let child = try parent.child { c in
            c.register(instance: audit)
            c.autowire(Inspector.self, Inspector.init(audit:clock:))
            c.register((any WallClock).self) { _ in FakeClock() }
        }
        #expect(try child.resolver.resolve(Audit.self) === audit)
        let inspector = try child.resolver.resolve(Inspector.self)
        #expect(inspector.audit === audit)
        #expect(inspector.clock is FakeClock)
        #expect(try child.resolver.resolve(Service.self).clock is FakeClock)
        #expect(try child.resolver.resolve(Probe.self).audit === audit)
        let error = try #require(frostError { _ = try parent.resolver.resolve(Probe.self) })
        #expect(error.code == .notRegistered)
        #expect(error.requestedKey == String(reflecting: Audit.self))
        #expect(frostError { _ = try parent.resolver.resolve(Audit.self) }?.code == .notRegistered)
    }

    @Test func childShadowsAndFallsBackWithoutRebuildingTheParent() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(instance: AppConfig(port: 1))
        let parent = try container.freeze()
        let parentDescription = parent.description
        let parentLogger = try parent.resolve(Logger.self)

        let child = try parent.child { c in
            c.register(instance: AppConfig(port: 2))
            c.autowire(Replica.self, Replica.init)
        }
        #expect(try child.resolve(AppConfig.self).port == 2)
        #expect(try child.resolve(Replica.self).label == "replica:2")
        #expect(try child.resolve(Logger.self) === parentLogger)
        #expect(try parent.resolve(AppConfig.self).port == 1)
        #expect(child.count == 2)
        #expect(parent.description == parentDescription)
        #expect(!parent.contains(Replica.self))
    }

    // MARK: Tables only for new keys

    final class User: Sendable {}

    @Test func onlyNewKeysBuildATable() throws {
        let container = Container()
        container.provided(User.self)
        container.register(Session.self) { _ in Session() }
        let parent = try container.freeze()
        let user = User()

        let filling = try parent.child { c in
            c.register(instance: user)
            c.register(Session.self) { _ in Session() }  // an override of a known key
        }
        #expect(filling.table === PerfectHashTable.empty)
        #expect(filling.table.functionInfo(0).attempts == 0)  // cmph never ran
        #expect(try filling.resolve(User.self) === user)
        let extending = try parent.child { c in c.register(instance: Audit()) }
        #expect(extending.table !== PerfectHashTable.empty)
        #expect(extending.table.count == 1)
    }

    // MARK: Below a disposed child

    protocol ChainClock: AnyObject, Sendable {
        var now: Int { get }
    }

    final class ChainSystemClock: ChainClock {
        var now: Int { 1 }
    }

    /// What a child registers instead of the parent's clock.
    final class ChainFakeClock: ChainClock {
        var now: Int { 42 }
    }

    /// A value each child supplies (`provided` in the root).
    final class ChainUser: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    /// A key only the child registers, `.scoped`.
    final class ChainLedger: Sendable {}

    /// The root's singleton.
    final class ChainAudit: Sendable {}

    /// The root's transient.
    final class ChainReport: Sendable {}

    /// A grandchild of a disposed child: the child's supplied value, its `.scoped`
    /// registration and its override fail with `.disposed`; the live root's singleton and
    /// transient still resolve through the grandchild.
    @Test(arguments: DoorKind.allCases)
    func aGrandchildOfADisposedChildRefusesWhatTheChildSuppliedAndReachesItsLiveRoot(
        kind: DoorKind
    ) throws {
        let container = Container()
        container.register((any ChainClock).self) { _ in ChainSystemClock() }
        container.provided(ChainUser.self)
        container.register(ChainAudit.self) { _ in ChainAudit() }.scope(.singleton)
        container.register(ChainReport.self) { _ in ChainReport() }
        let root = try DoorHost.root(container, kind)
        let child = try root.child { c in
            c.register(instance: ChainUser(id: "ann"))
            c.register((any ChainClock).self) { _ in ChainFakeClock() }
            c.register(ChainLedger.self) { _ in ChainLedger() }.scope(.scoped)
        }
        let grandchild = try child.child()
        #expect(try grandchild.resolveNow(ChainUser.self).id == "ann")
        #expect(try grandchild.resolveNow((any ChainClock).self).now == 42)

        child.disposeNow()
        let user = Result { () throws(FrostError) in try grandchild.resolveNow(ChainUser.self) }
        #expect(user.doorCode == .disposed, "the disposed child's supplied value")
        let ledger = Result { () throws(FrostError) in try grandchild.resolveNow(ChainLedger.self) }
        #expect(ledger.doorCode == .disposed, "the disposed child's .scoped registration")
        let clock = Result { () throws(FrostError) in
            try grandchild.resolveNow((any ChainClock).self)
        }
        #expect(clock.doorCode == .disposed, "the disposed child's override")
        let audit = Result { () throws(FrostError) in try grandchild.resolveNow(ChainAudit.self) }
        let rootAudit = try root.resolveNow(ChainAudit.self)
        #expect((try? audit.get()) === rootAudit, "the live root's singleton: \(audit)")
        let report = Result { () throws(FrostError) in try grandchild.resolveNow(ChainReport.self) }
        #expect(report.doorCode == nil, "the live root's transient: \(report)")
    }

    // MARK: Handles and descriptions of a child

    /// A child's `handle(for:)` finds a key only the child registers and the child's override
    /// of a parent key, as `resolve` does.
    @Test func aChildsHandleFindsItsOwnKeysAndItsOverrides() throws {
        let container = Container()
        container.register((any ChainClock).self) { _ in ChainSystemClock() }
        let frozen = try container.freeze()
        let child = try frozen.child { c in
            c.register(ChainLedger.self) { _ in ChainLedger() }.scope(.scoped)
            c.register((any ChainClock).self) { _ in ChainFakeClock() }
        }
        let ledger = try child.handle(for: ChainLedger.self)
        #expect(try child.resolve(ledger) === child.resolve(ChainLedger.self))

        #expect(try child.resolve((any ChainClock).self).now == 42)
        let clock = try child.handle(for: (any ChainClock).self)
        #expect(try child.resolve(clock).now == 42)
        #expect(try frozen.resolve((any ChainClock).self).now == 1)
    }

    /// A child's `handle(for:)` finds the value the child supplies for a `provided` key, as
    /// `resolve` does.
    @Test func aChildsHandleFindsTheValueItSupplies() throws {
        let container = Container()
        container.provided(ChainUser.self)
        let frozen = try container.freeze()
        let ann = ChainUser(id: "ann")
        let child = try frozen.child { $0.register(instance: ann) }

        #expect(try child.resolve(ChainUser.self) === ann)
        let user = try child.handle(for: ChainUser.self)
        #expect(try child.resolve(user) === ann)
    }

    /// A child's `description` and `graphviz()` show the child's override of a parent key,
    /// with the override's scope.
    @Test func aChildsDescriptionAndGraphvizShowItsOverrides() throws {
        let container = Container()
        container.register(ChainReport.self) { _ in ChainReport() }
        let frozen = try container.freeze()
        let child = try frozen.child { c in
            c.register(ChainReport.self) { _ in ChainReport() }.scope(.singleton)
        }
        let name = String(reflecting: ChainReport.self)

        let description = child.description
        let described = description.split(separator: "\n").contains {
            $0.contains(name) && $0.contains("singleton")
        }
        #expect(described, "the override is missing from the description:\n\(description)")
        let dot = child.graphviz()
        let drawn = dot.split(separator: "\n").contains {
            $0.contains(name) && $0.contains("singleton")
        }
        #expect(drawn, "the override is missing from the graph:\n\(dot)")
    }
}
