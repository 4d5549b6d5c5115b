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

    final class Pair: Sendable {
        let first: Token
        let second: Token
        init(first: Token, second: Token) {
            self.first = first
            self.second = second
        }
    }

    final class Envelope: Sendable {
        let pair: Pair
        let token: Token
        init(pair: Pair, token: Token) {
            self.pair = pair
            self.token = token
        }
    }

    /// A parent's `.graph` registration reached twice in one resolve through a child is one.
    @Test(arguments: Mode.allCases)
    func oneGraphPerTopLevelResolveAcrossTheBoundary(mode: Mode) throws {
        let container = Container()
        container.register(Token.self) { _ in Token() }.scope(.graph)
        container.autowire(Pair.self, Pair.init(first:second:))
        let parent = try mode.family(container)
        let child = try parent.child { c in
            c.autowire(Envelope.self, Envelope.init(pair:token:))
            c.register(Envelope.self, name: "closure") { r in
                Envelope(pair: try r.resolve(Pair.self), token: try r.resolve(Token.self))
            }
        }

        let pair = try child.resolver.resolve(Pair.self)
        #expect(pair.first === pair.second)
        for name in [nil, "closure"] {
            let envelope = try child.resolver.resolve(Envelope.self, name: name)
            #expect(envelope.pair.first === envelope.token, "\(name ?? "autowired")")
            #expect(envelope.pair.second === envelope.token, "\(name ?? "autowired")")
            let next = try child.resolver.resolve(Envelope.self, name: name)
            #expect(next.token !== envelope.token, "\(name ?? "autowired")")
        }
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

/// A child's values for its parent's provided keys skip the registration machinery (they go
/// straight into the cells the frozen child reads); whatever a user does with them afterwards
/// must behave as if they were ordinary registrations.
@Suite("Values a child supplies")
struct SuppliedValueTests {
    protocol Principal: Sendable {}

    final class User: Principal {
        let name: String
        init(name: String) { self.name = name }
    }

    final class Greeter: Sendable {
        let user: User
        init(user: User) { self.user = user }
    }

    static func parent() throws -> FrozenContainer {
        let container = Container()
        container.provided(User.self)
        container.provided(String.self, name: "tenant")
        container.autowire(Greeter.self, Greeter.init(user:))
        return try container.freeze()
    }

    @Test func aValueSuppliedTwiceKeepsTheLastOne() throws {
        let (ann, bob) = (User(name: "ann"), User(name: "bob"))
        let child = try Self.parent().child { c in
            c.register(instance: ann)
            c.register(instance: bob)
            c.register(instance: "acme", name: "tenant")
        }
        #expect(try child.resolve(User.self) === bob)
        #expect(try child.resolve(Greeter.self).user === bob)
        #expect(try child.resolve(String.self, name: "tenant") == "acme")
    }

    @Test func aFactoryRegisteredAfterAValueReplacesIt() throws {
        let ann = User(name: "ann")
        let child = try Self.parent().child { c in
            c.register(instance: ann)
            c.register(User.self) { _ in User(name: "made") }
        }
        #expect(try child.resolve(User.self).name == "made")
        #expect(try child.resolve(Greeter.self).user.name == "made")
    }

    @Test func aValueRegisteredAfterAFactoryReplacesIt() throws {
        let ann = User(name: "ann")
        let child = try Self.parent().child { c in
            c.register(User.self) { _ in User(name: "made") }
            c.register(instance: ann)
        }
        #expect(try child.resolve(User.self) === ann)
        #expect(try child.resolve(Greeter.self).user === ann)
    }

    @Test func aSuppliedValueCanBeConfiguredLikeAnyRegistration() throws {
        let ann = User(name: "ann")
        let child = try Self.parent().child { c in
            c.register(instance: ann)
                .implements((any Principal).self)
                .onDispose { _ in Issue.record("a registered instance's hooks never run") }
        }
        #expect(try child.resolve(User.self) === ann)
        #expect(try child.resolve((any Principal).self) as? User === ann)
        #expect(try child.resolve(Greeter.self).user === ann)
        child.dispose()
    }

    @Test func theConfiguringContainerResolvesWhatItSupplied() throws {
        let ann = User(name: "ann")
        var seen: User?
        _ = try Self.parent().child { c in
            c.register(instance: ann)
            seen = try? c.resolve(User.self)
            #expect(c.count == 1)
        }
        #expect(seen === ann)
    }

    @Test func aChildThatThrowsWhileConfiguringLeavesNothingBehind() throws {
        struct Refused: Error {}
        let parent = try Self.parent()
        weak var dropped: User?
        do {
            let user = User(name: "dropped")
            dropped = user
            _ = try parent.child { c in
                c.register(instance: user)
                throw Refused()
            }
            Issue.record("configure threw")
        } catch {
            #expect(error.code == .factoryFailed)
        }
        #expect(dropped == nil)  // the value's cell was freed with the configuring container
    }

    @Test func aChildLetsGoOfItsValuesWhenItIsFreed() throws {
        let parent = try Self.parent()
        weak var dropped: User?
        do {
            let user = User(name: "dropped")
            dropped = user
            let child = try parent.child { $0.register(instance: user) }
            #expect(try child.resolve(Greeter.self).user === user)
            child.dispose()
        }
        #expect(dropped == nil)
    }
}
