import Frost
import Testing

/// `.scoped`: one instance per child container, made in the child on its first resolve there
/// and disposed with the child, awaited or not; resolved from a container that is not a
/// child, `.outsideChild`. Autowired with every parameter bound, it is made in the child
/// through the bound parameters, like a transient: once per child, however many threads ask
/// at once, with its hooks and the `@Injected` properties of the class it actually is.
@Suite("Scoped instances")
struct ScopedTests {
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

    /// The parent of the children: its unit of work's initializer holds each creation open
    /// until four resolves of the round's race are in flight.
    static func parent(_ round: DoorLocked<RaceWitness>) throws -> FrozenContainer {
        let container = Container()
        container.autowire(UnitOfWork.self) { () in
            _ = round.value.waitForPeak(4)
            return UnitOfWork()
        }
        .scope(.scoped)
        .onDispose { $0.disposed = true }
        container.autowire(Repository.self, Repository.init(uow:))
        container.autowire(Handler.self, Handler.init(first:second:))
        return try container.freeze()
    }

    /// Twenty children, each asked by four threads at once: its unit of work is made while all
    /// four resolves are in flight.
    @Test(.timeLimit(.minutes(1))) func oneInstancePerChildEvenWhenManyThreadsAskAtOnce()
        async throws
    {
        let round = DoorLocked(RaceWitness())
        let parent = try Self.parent(round)
        for _ in 0..<20 {
            let race = RaceWitness()
            round.value = race
            let child = try parent.child { _ in }
            let seen = Locked<[ObjectIdentifier]>([])
            let finished = await runOnThreads(
                within: 30,
                (0..<4).map { _ in
                    {
                        let handler = try! race.during { try child.resolve(Handler.self) }
                        #expect(handler.first.uow === handler.second.uow)
                        seen.withLock { $0.append(ObjectIdentifier(handler.first.uow)) }
                    }
                })
            #expect(finished)
            #expect(race.peak == 4, "the race did not happen: the four asked one after another")
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

    @Test func anAsyncScopedRegistrationIsOneInstancePerChildAndDisposedWithIt() async throws {
        let disposed = Locked<[Int]>([])
        let made = Counter()
        let container = Container()
        container.register(AsyncPool.self) { _ async in
            made.increment()
            await Task.yield()
            return AsyncPool(id: made.value)
        }
        .scope(.scoped)
        .onDispose { pool async in
            await Task.yield()
            disposed.withLock { $0.append(pool.id) }
        }
        let frozen = try container.freeze()
        let first = try frozen.child { _ in }
        let second = try frozen.child { _ in }
        let a: AsyncPool = try await first.resolve(AsyncPool.self)
        #expect(try await first.resolve(AsyncPool.self) === a)
        let b: AsyncPool = try await second.resolve(AsyncPool.self)
        #expect(a !== b)
        await first.dispose()
        #expect(disposed.withLock { $0 } == [a.id])
        await second.dispose()
        #expect(disposed.withLock { $0 } == [a.id, b.id])
    }
}
