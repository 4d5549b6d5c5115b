import Frost
import Testing

/// Keys each child supplies (`provided`), registrations with one instance per child
/// (`.scoped`), and the captive dependencies `freeze()` reports across the parent boundary.
@Suite("Scoped and provided")
struct ScopedAndProvidedTests {
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

    final class UnitOfWork: Sendable {}

    /// A transient that depends on the `.scoped` unit of work.
    final class Repository: Sendable {
        let uow: UnitOfWork
        init(uow: UnitOfWork) { self.uow = uow }
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

    // MARK: Provided keys

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

    // MARK: Scoped

    /// A `.scoped` registration is one instance within a child and another in each other child.
    @Test(arguments: Mode.allCases)
    func scopedIsOneInstancePerChild(mode: Mode) throws {
        let container = Container()
        let made = Counter()
        container.register(UnitOfWork.self) { _ in
            made.increment()
            return UnitOfWork()
        }
        .scope(.scoped)
        container.autowire(Repository.self, Repository.init(uow:))
        let parent = try mode.family(container)
        let first = try parent.child()
        let second = try parent.child()

        let one = try first.resolver.resolve(UnitOfWork.self)
        #expect(try first.resolver.resolve(UnitOfWork.self) === one)
        #expect(try first.resolver.resolve(Repository.self).uow === one)
        let other = try second.resolver.resolve(UnitOfWork.self)
        #expect(other !== one)
        #expect(try second.resolver.resolve(Repository.self).uow === other)
        #expect(try second.resolver.resolve(UnitOfWork.self) === other)
        #expect(made.value == 2)
    }

    /// Resolving a `.scoped` registration, or a user of one, from the root throws `.outsideChild`.
    @Test(arguments: Mode.allCases)
    func scopedResolvedFromTheRootIsOutsideChild(mode: Mode) throws {
        let container = Container()
        container.register(UnitOfWork.self) { _ in UnitOfWork() }.scope(.scoped)
        container.autowire(Repository.self, Repository.init(uow:))
        let root = try mode.family(container)

        let error = try #require(frostError { _ = try root.resolver.resolve(UnitOfWork.self) })
        #expect(error.code == .outsideChild)
        #expect(error.requestedKey == String(reflecting: UnitOfWork.self))
        #expect(error.description.contains("child"), "\(error)")
        let user = try #require(frostError { _ = try root.resolver.resolve(Repository.self) })
        #expect(user.code == .outsideChild)
        #expect(user.dependencyPath.first == String(reflecting: Repository.self))
    }

    // MARK: Captive dependencies across the boundary

    final class ScopedHolder: Sendable {
        init(uow: UnitOfWork) {}
    }

    final class UserHolder: Sendable {
        init(user: CurrentUser) {}
    }

    final class RequestHolder: Sendable {
        init(requestID: RequestID) {}
    }

    /// Freeze reports a singleton on a `.scoped` key, a provided class and a provided struct.
    @Test func aSingletonOnAScopedOrProvidedKeyIsCaptive() throws {
        let container = Container()
        container.register(UnitOfWork.self) { _ in UnitOfWork() }.scope(.scoped)
        container.provided(CurrentUser.self)
        container.provided(RequestID.self)
        container.autowire(ScopedHolder.self, ScopedHolder.init(uow:)).scope(.singleton)
        container.autowire(UserHolder.self, UserHolder.init(user:)).scope(.singleton)
        container.autowire(RequestHolder.self, RequestHolder.init(requestID:)).scope(.singleton)
        let error = try #require(frostError { _ = try container.freeze() })

        #expect(error.code == .invalidRegistrations)
        #expect(error.problems.count == 3)
        #expect(error.problems.allSatisfy { $0.code == .captiveDependency })
        let paths = error.problems.map(\.dependencyPath)
        for (holder, dependency): (Any.Type, Any.Type) in [
            (ScopedHolder.self, UnitOfWork.self), (UserHolder.self, CurrentUser.self),
            (RequestHolder.self, RequestID.self),
        ] {
            #expect(
                paths.contains {
                    $0.first == String(reflecting: holder)
                        && $0.last == String(reflecting: dependency)
                }, "\(paths)")
        }
    }

    final class Connection: Sendable {}

    final class Pool: Sendable {
        let connection: Connection
        init(connection: Connection) { self.connection = connection }
    }

    /// A child's singleton autowired on a parent's transient is reported by the child's freeze.
    @Test func aChildSingletonOnAParentTransientIsCaptive() throws {
        let container = Container()
        container.register(Connection.self) { _ in Connection() }
        let frozen = try container.freeze()

        let error = try #require(
            frostError {
                _ = try frozen.child { c in
                    c.autowire(Pool.self, Pool.init(connection:)).scope(.singleton)
                }
            })
        #expect(error.problems.map(\.code) == [.captiveDependency])
        #expect(
            error.problems.first?.dependencyPath == [
                String(reflecting: Pool.self), String(reflecting: Connection.self),
            ])
    }

    /// A value, like swift-log's `Logger`: a singleton holding one holds a copy.
    struct LogHandle: Sendable {
        let label: String
    }

    final class Reporter: Sendable {
        let log: LogHandle
        init(log: LogHandle) { self.log = log }
    }

    final class Auditor: Sendable {
        let log: LogHandle
        init(log: LogHandle) { self.log = log }
    }

    /// A singleton (of the root or of a child) on a struct registered transient is not captive.
    @Test func aSingletonOnATransientStructIsNotCaptive() throws {
        let container = Container()
        container.register(LogHandle.self) { _ in LogHandle(label: "app") }
        container.autowire(Reporter.self, Reporter.init(log:)).scope(.singleton)
        let frozen = try container.freeze()
        #expect(try frozen.resolve(Reporter.self).log.label == "app")

        let child = try frozen.child { c in
            c.autowire(Auditor.self, Auditor.init(log:)).scope(.singleton)
        }
        #expect(try child.resolve(Auditor.self).log.label == "app")
    }
}

/// A `.scoped` registration autowired with every parameter bound is made in the child through
/// the bound parameters, like a transient: once per child, however many threads ask at once;
/// with its hooks and the `@Injected` properties of the class it actually is.
@Suite("Scoped instances made through bound parameters")
struct ScopedThroughBoundParametersTests {
    final class UnitOfWork: @unchecked Sendable {
        // @unchecked: `disposed` is written by dispose() only, after every resolve.
        var disposed = false
        init() {}
    }

    /// An autowired transient on the `.scoped` unit of work.
    final class Repository: Sendable {
        let uow: UnitOfWork
        init(uow: UnitOfWork) { self.uow = uow }
    }

    /// Autowired on two transients that share the child's unit of work.
    final class Handler: Sendable {
        let first: Repository
        let second: Repository
        init(first: Repository, second: Repository) {
            self.first = first
            self.second = second
        }
    }

    static func parent() throws -> FrozenContainer {
        let container = Container()
        container.autowire(UnitOfWork.self, UnitOfWork.init).scope(.scoped)
            .onDispose { $0.disposed = true }
        container.autowire(Repository.self, Repository.init(uow:))
        container.autowire(Handler.self, Handler.init(first:second:))
        return try container.freeze()
    }

    @Test func oneInstancePerChildEvenWhenManyThreadsAskAtOnce() async throws {
        let parent = try Self.parent()
        for _ in 0..<20 {
            let child = try parent.child { _ in }
            let seen = Locked<[ObjectIdentifier]>([])
            let finished = await runOnThreads(
                within: 30,
                (0..<4).map { _ in
                    {
                        let handler = try! child.resolve(Handler.self)
                        #expect(handler.first.uow === handler.second.uow)
                        seen.withLock { $0.append(ObjectIdentifier(handler.first.uow)) }
                    }
                })
            #expect(finished)
            #expect(Set(seen.withLock { $0 }).count == 1)
            let uow = try resolveSynchronously(UnitOfWork.self, from: child)
            #expect(seen.withLock { $0 }.first == ObjectIdentifier(uow))
            #expect(!uow.disposed)
            await child.dispose()
            #expect(uow.disposed)
        }
    }

    /// The initializer returns a subclass with an `@Injected` property whose value resolves the
    /// `.scoped` registration itself: the injection gets the instance being made. (The auditor
    /// holds the session weakly, so the test builds no reference cycle of its own.)
    @Test func aSubclassInjectedPropertyThatReEntersGetsTheInstance() throws {
        class Session: @unchecked Sendable {
            init() {}
        }
        final class Auditor: @unchecked Sendable {
            weak var session: Session?
            init(session: Session) { self.session = session }
        }
        final class AuditedSession: Session, @unchecked Sendable {
            @Injected var auditor: Auditor
        }
        final class User: Sendable {
            let session: Session
            init(session: Session) { self.session = session }
        }
        let container = Container()
        container.autowire(Session.self, { () -> Session in AuditedSession() }).scope(.scoped)
        container.autowire(Auditor.self, Auditor.init(session:))
        container.autowire(User.self, User.init(session:))
        let child = try container.freeze().child { _ in }
        let user = try child.resolve(User.self)
        let audited = try #require(user.session as? AuditedSession)
        #expect(audited.auditor.session === audited)
        #expect(try child.resolve(Session.self) === audited)
    }
}
