import Testing

@testable import Frost

/// Children of both containers (`frozen.child` and `container.child`): a parent's factories
/// resolved through a child see the child's registrations, a parent's singletons stay in the
/// parent, one `.graph` graph per top-level resolve across the boundary, a child's own new
/// keys, and near misses that include the child's registrations.
@Suite("Children")
struct ChildContainerTests {
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

    // MARK: One graph across the boundary

    final class Token: Sendable {}

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

    // MARK: Errors

    /// A miss through a child lists the child's registration of the type among its near misses.
    @Test(arguments: Mode.allCases)
    func aMissThroughAChildListsTheChildsNearMisses(mode: Mode) throws {
        let container = Container()
        container.register(instance: 1.5)
        let parent = try mode.family(container)
        let child = try parent.child { c in c.register(instance: 2.5, name: "child") }

        let error = try #require(
            frostError { _ = try child.resolver.resolve(Double.self, name: "chlid") })
        #expect(error.code == .notRegistered)
        #expect(error.nearMisses.contains { $0.contains(#"name "child""#) }, "\(error.nearMisses)")
        #expect(error.nearMisses.contains { $0.hasPrefix("Swift.Double (unnamed)") })
        #expect(error.description.contains(#"name "child""#), "\(error)")
        #expect(try child.resolver.resolve(Double.self, name: "child") == 2.5)
        #expect(try child.resolver.resolve(Double.self) == 1.5)
    }
}

// MARK: Helpers

/// What a child costs: a child that only supplies values or overrides keys its parent knows
/// builds no hash table (it shares the empty table, with no cmph function); a key the parent
/// does not know gets a table of its own, holding that key only.
@Suite("Children build tables only for new keys")
struct ChildTableTests {
    final class User: Sendable {}
    final class Audit: Sendable {}

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
}
