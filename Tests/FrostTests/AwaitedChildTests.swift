import Testing

@testable import Frost

/// A child that adds keys of its own, in a chain with an async singleton, follows plans as a
/// root does: each key it adds gets a plan when the child is frozen, and its parent's keys keep
/// the parent's plans while nothing the child adds is or reaches something async. Once what a
/// plan needs is made, its awaited resolve is the synchronous one (no walk of the graph); a
/// child that overrides, or adds something async, keeps the awaited path, which makes what is
/// needed as it goes. Either way an awaited resolve gives what a synchronous one would.
@Suite("An awaited resolve through a child that adds keys", .timeLimit(.minutes(1)))
struct AwaitedChildTests {
    final class Settings: Sendable {}

    /// A synchronous registration the child adds, that reaches the root's async pool.
    final class Report: Sendable {
        let repository: AsyncRepository
        let settings: Settings
        init(repository: AsyncRepository, settings: Settings) {
            self.repository = repository
            self.settings = settings
        }
    }

    /// Whether an awaited resolve of `T` through `space` runs as the synchronous one.
    private func isSynchronous<T>(_ type: T.Type, in space: _Space) -> Bool {
        space.resolvesSynchronously(space.find(ObjectIdentifier(T.self), name: nil))
    }

    private func application(_ made: Counter) throws -> FrozenContainer {
        let container = Container()
        container.register(AsyncPool.self) { _ async throws in
            made.increment()
            await Task.yield()
            return AsyncPool(id: 1)
        }.scope(.singleton)
        container.autowire(AsyncRepository.self, AsyncRepository.init(pool:))
        container.register(Settings.self) { _ in Settings() }.scope(.singleton)
        return try container.freeze()
    }

    @Test func aKeyTheChildAddsIsSynchronousOnceTheAsyncSingletonItReachesIsMade() async throws {
        let made = Counter()
        let app = try application(made)
        let child = try app.child { c in
            c.autowire(Report.self, Report.init(repository:settings:))
        }
        #expect(child.inheritsPlans)
        #expect(!isSynchronous(Report.self, in: child))
        #expect(!isSynchronous(AsyncRepository.self, in: child))
        #expect(isSynchronous(Settings.self, in: child))
        #expect(throws: FrostError.self) { _ = try resolveSynchronously(Report.self, from: child) }

        let report: Report = try await child.resolve(Report.self)
        #expect(report.repository.pool.id == 1)
        #expect(made.value == 1)

        // The pool is made: the plans say so, for the child's key and the parent's.
        #expect(isSynchronous(Report.self, in: child))
        #expect(isSynchronous(AsyncRepository.self, in: child))
        let again = try resolveSynchronously(Report.self, from: child)
        #expect(again.repository.pool === report.repository.pool)
        let awaited: Report = try await child.resolve(Report.self)
        #expect(awaited.repository.pool === report.repository.pool)
        #expect(made.value == 1)

        // A grandchild that registers nothing follows its parent's plans.
        let grandchild = try child.child { _ in }
        #expect(isSynchronous(Report.self, in: grandchild))
        let deeper: Report = try await grandchild.resolve(Report.self)
        #expect(deeper.repository.pool === report.repository.pool)
    }

    /// A root's registration whose optional dependency the root does not register: a child
    /// may add it.
    final class Holder: Sendable {
        let replica: Replica?
        init(replica: Replica?) { self.replica = replica }
    }

    final class Replica: Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }

    @Test func aChildThatAddsWhatARootsOpenDependencyMeetsTakesTheAwaitedPath() async throws {
        let container = Container()
        container.autowire(Holder.self, Holder.init(replica:))
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 1) }.scope(.singleton)
        let app = try container.freeze()
        #expect(app.reachesChildKeys)
        // The child's async replica is what the root's holder gets through the child: made
        // first by the awaited resolve.
        let adds = try app.child { c in
            c.register(Replica.self) { _ async in Replica(id: 2) }.scope(.singleton)
        }
        #expect(!adds.inheritsPlans)
        #expect(!isSynchronous(Holder.self, in: adds))
        let holder: Holder = try await adds.resolve(Holder.self)
        #expect(holder.replica?.id == 2)
        #expect(try resolveSynchronously(Holder.self, from: app).replica == nil)
        // Adding only what reaches nothing async keeps the parent's plans.
        let plain = try app.child { c in c.register(Settings.self) { _ in Settings() } }
        #expect(plain.inheritsPlans)
        #expect(isSynchronous(Holder.self, in: plain))
    }

    @Test func aChildThatOverridesTakesTheAwaitedPath() async throws {
        let made = Counter()
        let app = try application(made)
        #expect(!app.reachesChildKeys)
        let adds = try app.child { c in
            c.register(AsyncPool.self, name: "replica") { _ async in AsyncPool(id: 2) }
                .scope(.singleton)
        }
        #expect(adds.inheritsPlans)  // the root's registrations cannot reach what it adds
        let replica: AsyncPool = try await adds.resolve(AsyncPool.self, name: "replica")
        #expect(replica.id == 2)

        let overrides = try app.child { c in
            c.register(Settings.self) { _ in Settings() }.scope(.singleton)
        }
        #expect(!overrides.inheritsPlans)
        #expect(!isSynchronous(Settings.self, in: overrides))
        let settings: Settings = try await overrides.resolve(Settings.self)
        #expect(try settings === resolveSynchronously(Settings.self, from: overrides))
        #expect(try settings !== resolveSynchronously(Settings.self, from: app))
        let repository: AsyncRepository = try await overrides.resolve(AsyncRepository.self)
        #expect(repository.pool.id == 1)
        #expect(made.value == 1)
    }

    final class Handler: Sendable {
        let repository: AsyncRepository
        init(repository: AsyncRepository) { self.repository = repository }
    }

    /// A root's singleton resolves what it needs in the root, whatever a child between
    /// overrides: a grandchild's plan needs that singleton made, not what the child overrides.
    @Test func aParentsSingletonIsNeededAsItsOwnerSeesIt() async throws {
        let made = Counter()
        let container = Container()
        container.register(AsyncPool.self) { _ async in
            made.increment()
            return AsyncPool(id: 1)
        }.scope(.singleton)
        container.autowire(AsyncRepository.self, AsyncRepository.init(pool:)).scope(.singleton)
        let app = try container.freeze()
        let faked = try app.child { c in c.register(AsyncPool.self) { _ in AsyncPool(id: 9) } }
        let handlers = try faked.child { c in
            c.autowire(Handler.self, Handler.init(repository:))
        }
        #expect(!isSynchronous(Handler.self, in: handlers))
        let handler: Handler = try await handlers.resolve(Handler.self)
        #expect(handler.repository.pool.id == 1)  // made in the root, from the root's pool
        #expect(made.value == 1)
        #expect(isSynchronous(Handler.self, in: handlers))
        #expect(try resolveSynchronously(Handler.self, from: handlers).repository.pool.id == 1)
    }

    final class Unit: Sendable {}

    final class UnitUser: Sendable {
        let unit: Unit
        init(unit: Unit) { self.unit = unit }
    }

    final class Job: Sendable {
        let user: UnitUser
        init(user: UnitUser) { self.user = user }
    }

    /// A root whose async `Unit` is `.scoped` (each made counted), a child of it that
    /// registers a singleton on it and what `configure` adds, and a request child of that one.
    private func unitChain(
        _ units: Counter, _ configure: (Container) -> Void
    ) throws -> (scope: FrozenContainer, request: FrozenContainer) {
        let container = Container()
        container.register(Unit.self) { _ async in
            units.increment()
            return Unit()
        }.scope(.scoped)
        let scope = try container.freeze().child { c in
            c.autowire(UnitUser.self, UnitUser.init(unit:)).scope(.singleton)
            configure(c)
        }
        return (scope, try scope.child { _ in })
    }

    /// A child's singleton on a `.scoped` key is made in that child, from that child's
    /// instance: a request child below it that has made its own instance still needs the
    /// singleton made.
    @Test func aChildsSingletonOnAScopedKeyIsNeededWhereItIsMade() async throws {
        let units = Counter()
        let (scope, request) = try unitChain(units) { c in c.autowire(Job.self, Job.init(user:)) }
        let requestsUnit: Unit = try await request.resolve(Unit.self)
        #expect(!isSynchronous(Job.self, in: request))
        // The child's singleton itself, through the request: made in the child, from the
        // child's unit, which is not made yet.
        #expect(!isSynchronous(UnitUser.self, in: request))
        let user: UnitUser = try await request.resolve(UnitUser.self)
        #expect(user.unit !== requestsUnit)
        let job: Job = try await request.resolve(Job.self)
        let scopesUnit: Unit = try await scope.resolve(Unit.self)
        #expect(job.user === user)
        #expect(job.user.unit === scopesUnit)
        #expect(job.user.unit !== requestsUnit)
        #expect(units.value == 2)
        #expect(isSynchronous(Job.self, in: request))
        #expect(isSynchronous(UnitUser.self, in: request))
    }

    final class Shift: Sendable {
        let unit: Unit
        let user: UnitUser
        init(unit: Unit, user: UnitUser) {
            self.unit = unit
            self.user = user
        }
    }

    /// One resolve that needs the `.scoped` key twice, made in two children: the request's
    /// own instance, and the child's, for the child's singleton on the way. The awaited walk
    /// makes both before the synchronous resolve runs, in either order of the parameters.
    @Test func oneResolveMakesAScopedKeyInEachChildThatNeedsIt() async throws {
        let units = Counter()
        let (scope, request) = try unitChain(units) { c in
            c.autowire(Shift.self, Shift.init(unit:user:))
        }
        #expect(!isSynchronous(Shift.self, in: request))
        let shift: Shift = try await request.resolve(Shift.self)
        let requestsUnit: Unit = try await request.resolve(Unit.self)
        let scopesUnit: Unit = try await scope.resolve(Unit.self)
        #expect(shift.unit === requestsUnit)
        #expect(shift.user.unit === scopesUnit)
        #expect(requestsUnit !== scopesUnit)
        #expect(units.value == 2)
        #expect(isSynchronous(Shift.self, in: request))
    }

    /// A root with nothing async: its keys resolve synchronously through a child that adds an
    /// async one (the root's registrations cannot reach it).
    @Test func aRootWithNothingAsyncStaysSynchronousThroughAChildThatAddsSomething() async throws {
        let container = Container()
        container.register(Settings.self) { _ in Settings() }
        let app = try container.freeze()
        let child = try app.child { c in
            c.register(AsyncPool.self) { _ async in AsyncPool(id: 3) }.scope(.singleton)
        }
        #expect(child.inheritsPlans)
        #expect(isSynchronous(Settings.self, in: child))
        #expect(!isSynchronous(AsyncPool.self, in: child))
        let pool: AsyncPool = try await child.resolve(AsyncPool.self)
        #expect(pool.id == 3)
        _ = try await child.resolve(Settings.self)
    }

    /// A transient reaching a `.weak` registration that reaches the async pool: once the pool
    /// is made (by `bootstrap()`), its awaited resolve is the synchronous one.
    @Test func aWeakRegistrationBetweenDoesNotKeepTheAwaitedPath() async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 1) }.scope(.singleton)
        container.autowire(AsyncRepository.self, AsyncRepository.init(pool:)).scope(.weak)
        container.autowire(Handler.self, Handler.init(repository:))
        let app = try container.freeze()
        #expect(!isSynchronous(Handler.self, in: app))
        try await app.bootstrap()
        #expect(isSynchronous(Handler.self, in: app))
        let handler: Handler = try await app.resolve(Handler.self)
        #expect(handler.repository.pool.id == 1)
    }

    final class Left: @unchecked Sendable {
        let pool: AsyncPool
        var right: Right?
        init(pool: AsyncPool) { self.pool = pool }
    }

    final class Right: @unchecked Sendable {
        weak var left: Left?  // weak: the pair is not a retain cycle (the delegate pattern)
        init() {}
    }

    /// Two singletons that inject each other, one of them made from the async pool: whichever
    /// the plans are compiled from first, an awaited resolve of either makes the pool first.
    /// (The dictionary container numbers its slots in registration order, and compiles its
    /// plans in that order: registering `Left` first makes the walk meet `Left` again inside
    /// `Right`'s graph, where what `Right` reaches must not be remembered as nothing.)
    @Test(arguments: [false, true], [false, true])
    func aCycleOfInjectedSingletonsStillNeedsThePool(rightFirst: Bool, frozen: Bool) async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 1) }.scope(.singleton)
        func left() {
            container.autowire(Left.self, Left.init(pool:)).scope(.singleton).inject(\.right)
        }
        func right() {
            container.register(Right.self) { _ in Right() }.scope(.singleton).inject(\.left)
        }
        if rightFirst {
            right()
            left()
        } else {
            left()
            right()
        }
        let resolver: any Resolver = frozen ? try container.freeze() : container
        let space = resolver._space!.takeUnretainedValue()
        #expect(!isSynchronous(Right.self, in: space))
        #expect(!isSynchronous(Left.self, in: space))
        let right: Right = try await resolver.resolve(Right.self)
        #expect(right.left?.pool.id == 1)
        #expect(right.left?.right === right)
    }

    final class Service: Sendable {
        let pool: AsyncPool
        init(pool: AsyncPool) { self.pool = pool }
    }

    /// An async singleton with an `onCreate` hook, needed by a synchronous singleton resolved
    /// with `await` before `bootstrap()`: the walk that makes the pool first does not hold up
    /// the pool's hook (the walk's own path entries construct nothing), so the pool is made
    /// once, its hook runs once, and the service gets it.
    @Test(arguments: [false, true])
    func anAsyncSingletonsHookIsNotHeldUpByTheWalk(scoped: Bool) async throws {
        let made = Counter()
        let hooked = Counter()
        let container = Container()
        container.register(AsyncPool.self) { _ async in
            made.increment()
            return AsyncPool(id: 1)
        }
        .scope(scoped ? .scoped : .singleton)
        .onCreate { _, _ in hooked.increment() }
        container.autowire(Service.self, Service.init(pool:)).scope(scoped ? .scoped : .singleton)
        let app = try container.freeze()
        let resolver: FrozenContainer = scoped ? try app.child { _ in } : app
        let service: Service = try await resolver.resolve(Service.self)
        #expect(service.pool.id == 1)
        #expect(made.value == 1)
        #expect(hooked.value == 1)
        #expect(try resolveSynchronously(Service.self, from: resolver) === service)
    }

    final class MaybePooled: Sendable {
        let pool: AsyncPool?
        init(pool: AsyncPool?) { self.pool = pool }
    }

    /// An optional dependency whose key the chain knows cannot be answered by a key a child
    /// adds (the child could only override it): it leaves the parent's plans to the child.
    @Test func anOptionalDependencyTheChainKnowsReachesNoChildKey() async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 1) }.scope(.singleton)
        container.autowire(MaybePooled.self, MaybePooled.init(pool:))
        let app = try container.freeze()
        #expect(!app.reachesChildKeys)
        let child = try app.child { c in
            c.register(Replica.self) { _ async in Replica(id: 2) }.scope(.singleton)
        }
        #expect(child.inheritsPlans)
        try await app.bootstrap()
        let maybe: MaybePooled = try await child.resolve(MaybePooled.self)
        #expect(maybe.pool?.id == 1)
    }
}
