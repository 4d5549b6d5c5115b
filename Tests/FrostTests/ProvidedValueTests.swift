import Frost
import Testing

/// Provided keys (`provided`): a value each child supplies, which the parent's registrations
/// resolve through the child (autowired, by `.inject`, named); from a container that does not
/// supply it, `.notProvided`. A child's values skip the registration machinery (they go
/// straight into the cells the frozen child reads); whatever a user does with them afterwards
/// behaves as if they were ordinary registrations.
@Suite("Provided values")
struct ProvidedValueTests {
    final class CurrentUser: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    /// A provided key of a value type.
    struct RequestID: Hashable, Sendable {
        let value: String
    }

    /// Autowired on the provided user.
    final class Profile: Sendable {
        let user: CurrentUser
        init(user: CurrentUser) { self.user = user }
    }

    /// Given the provided user and the provided request id by property injection.
    final class Badge {
        var user: CurrentUser?
        var requestID = ""
        init() {}
    }

    /// A parent with the provided user, a provided named request id, and users of both.
    static func providing() -> Container {
        let container = Container()
        container.provided(CurrentUser.self)
        container.provided(String.self, name: "requestID")
        container.autowire(Profile.self, Profile.init(user:))
        container.register(Badge.self) { _ in Badge() }
            .inject(\.user)
            .inject(\.requestID, name: "requestID")
        container.register(instance: AppConfig(port: 1))
        return container
    }

    /// Users of provided keys (autowired, by `.inject`, named) freeze and get each child's values.
    @Test(arguments: Mode.allCases)
    func usersOfProvidedKeysFreezeAndGetTheChildsValues(mode: Mode) throws {
        let parent = try mode.family(Self.providing())  // frozen: freeze() finds no problem
        let ann = CurrentUser(id: "ann")
        let bob = CurrentUser(id: "bob")

        let first = try parent.child { c in
            c.register(instance: ann)
            c.register(instance: "r-1", name: "requestID")
        }
        let second = try parent.child { c in
            c.register(instance: bob)
            c.register(instance: "r-2", name: "requestID")
        }
        for (child, user, requestID) in [(first, ann, "r-1"), (second, bob, "r-2")] {
            #expect(try child.resolver.resolve(CurrentUser.self) === user)
            #expect(try child.resolver.resolve(String.self, name: "requestID") == requestID)
            #expect(try child.resolver.resolve(Profile.self).user === user)
            let badge = try child.resolver.resolve(Badge.self)
            #expect(badge.user === user)
            #expect(badge.requestID == requestID)
        }
    }

    /// Resolving a provided key, or a user of one, from the parent throws `.notProvided`.
    @Test(arguments: Mode.allCases)
    func aProvidedKeyResolvedFromTheParentIsNotProvided(mode: Mode) throws {
        let parent = try mode.family(Self.providing())

        let error = try #require(frostError { _ = try parent.resolver.resolve(CurrentUser.self) })
        #expect(error.code == .notProvided)
        #expect(error.requestedKey == String(reflecting: CurrentUser.self))
        #expect(error.description.contains("child"), "\(error)")
        let named = try #require(
            frostError { _ = try parent.resolver.resolve(String.self, name: "requestID") })
        #expect(named.code == .notProvided)
        #expect(named.requestedKey == "Swift.String#requestID")
        let user = try #require(frostError { _ = try parent.resolver.resolve(Profile.self) })
        #expect(user.code == .notProvided)
        #expect(user.dependencyPath.first == String(reflecting: Profile.self))
        #expect(user.dependencyPath.last == String(reflecting: CurrentUser.self))
        #expect(try parent.resolver.resolve(AppConfig.self).port == 1)
    }

    /// A child that does not supply a provided key is made; resolving the key then fails.
    @Test(arguments: Mode.allCases)
    func aChildThatDoesNotSupplyAProvidedKeyFailsWhenItIsResolved(mode: Mode) throws {
        let parent = try mode.family(Self.providing())

        let child = try parent.child { c in c.register(instance: "r-1", name: "requestID") }
        #expect(try child.resolver.resolve(String.self, name: "requestID") == "r-1")
        #expect(try child.resolver.resolve(AppConfig.self).port == 1)
        let error = try #require(frostError { _ = try child.resolver.resolve(CurrentUser.self) })
        #expect(error.code == .notProvided)
        #expect(error.requestedKey == String(reflecting: CurrentUser.self))
        let user = try #require(frostError { _ = try child.resolver.resolve(Profile.self) })
        #expect(user.code == .notProvided)
        #expect(user.requestedKey == String(reflecting: CurrentUser.self))

        let empty = try parent.child()
        #expect(frostError { _ = try empty.resolver.resolve(Badge.self) }?.code == .notProvided)
    }

    // MARK: Values a child supplies

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
            // Not `.onDispose`: `freeze()` rejects a hook on a value, which Frost never makes.
            c.register(instance: ann)
                .implements((any Principal).self)
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
