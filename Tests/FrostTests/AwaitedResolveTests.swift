import Foundation
import Frost
import Testing

/// Swift concurrency (DESIGN.md, "Swift concurrency"): async and actor-isolated factories on
/// both containers, awaited resolves, `bootstrap()`. The awaited resolve is the synchronous one
/// until something must be awaited; a synchronous resolve of what only an awaited one can make
/// (an async factory, a creation an awaited resolve has in progress) fails with
/// `.asyncRequired` at once, saying what to do, and never blocks its thread.
@Suite("Awaited resolves and async factories", .timeLimit(.minutes(1)))
struct AwaitedResolveTests {

    @Test(arguments: Mode.allCases)
    func anAsyncFactoryAwaitsItsDependenciesThroughItsResolver(mode: Mode) async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 7) }.scope(.singleton)
        container.register(AsyncRepository.self) { r async throws in
            AsyncRepository(pool: try await r.resolve(AsyncPool.self))
        }
        let resolver = try mode.resolver(container)
        let repository: AsyncRepository = try await resolver.resolve(AsyncRepository.self)
        #expect(repository.pool.id == 7)
        #expect(try await resolver.resolve(AsyncPool.self) === repository.pool)
    }

    @Test func aSynchronousResolveOfAnAsyncFactoryNamesItAndSaysWhatToDo() async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 1) }.scope(.singleton)
        let frozen = try container.freeze()
        let error = #expect(throws: FrostError.self) {
            _ = try resolveSynchronously(AsyncPool.self, from: frozen)
        }
        #expect(error?.code == .asyncRequired)
        let message = error?.description ?? ""
        #expect(message.contains("Pool"))
        #expect(message.contains("try await"))
        #expect(message.contains("bootstrap()"))
        // After bootstrap() the cached singleton reads synchronously.
        try await frozen.bootstrap()
        #expect(try resolveSynchronously(AsyncPool.self, from: frozen).id == 1)
    }

    /// An awaited resolve of `Optional<X>` makes `X` as an awaited resolve of `X` does: an
    /// async singleton not made yet is awaited (it used to throw `.asyncRequired`), and an
    /// unregistered `X` is `nil`; through a child too.
    @Test(arguments: Mode.allCases)
    func anAwaitedOptionalMakesAnAsyncSingletonNotMadeYet(mode: Mode) async throws {
        let counter = Counter()
        let container = Container()
        container.register(AsyncPool.self) { _ async in
            counter.increment()
            await Task.yield()
            return AsyncPool(id: 3)
        }.scope(.singleton)
        container.register(AsyncRepository.self, name: "async") { r async throws in
            AsyncRepository(pool: try await r.resolve(AsyncPool.self))
        }
        let resolver = try mode.resolver(container)
        let pool: AsyncPool? = try await resolver.resolve(AsyncPool?.self)
        #expect(pool?.id == 3)
        let repository: AsyncRepository? = try await resolver.resolve(
            AsyncRepository?.self, name: "async")
        #expect(repository?.pool === pool)
        let unnamed: AsyncRepository? = try await resolver.resolve(AsyncRepository?.self)
        #expect(unnamed == nil)
        #expect(counter.value == 1)
        // Made now: the synchronous resolve reads it.
        #expect(try resolveSynchronously(AsyncPool?.self, from: resolver) === pool)
    }

    /// In a chain with something async, the other misses of an awaited resolve answer as
    /// before: a `Lazy` or `Provider` of a registered type, `.notRegistered` for a type nothing
    /// registers, `nil` for an `Optional` of one; after `dispose()`, `.disposed`.
    @Test func anAwaitedMissInAnAsyncChainAnswersAsBefore() async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 8) }.scope(.singleton)
        let frozen = try container.freeze()
        let lazy: Lazy<AsyncPool> = try await frozen.resolve(Lazy<AsyncPool>.self)
        let provider: Provider<AsyncPool> = try await frozen.resolve(Provider<AsyncPool>.self)
        let pool: AsyncPool = try await frozen.resolve(AsyncPool.self)
        #expect(lazy.value === pool)
        #expect(provider() === pool)
        let missing: AsyncRepository? = try await frozen.resolve(AsyncRepository?.self)
        #expect(missing == nil)
        await #expect(throws: FrostError.self) {
            let _: AsyncRepository = try await frozen.resolve(AsyncRepository.self)
        }
        await frozen.dispose()
        let error = await #expect(throws: FrostError.self) {
            let _: AsyncPool? = try await frozen.resolve(AsyncPool?.self)
        }
        #expect(error?.code == .disposed)
    }

    final class SelfAwaiting: Sendable {
        let itself: SelfAwaiting?
        init(itself: SelfAwaiting?) { self.itself = itself }
    }

    /// An async factory that awaits an `Optional` of its own type is a cycle, reported, not a
    /// wait for itself.
    @Test func anAsyncFactoryAwaitingAnOptionalOfItselfIsACycle() async throws {
        let container = Container()
        container.register(SelfAwaiting.self) { r async throws in
            SelfAwaiting(itself: try await r.resolve(SelfAwaiting?.self))
        }.scope(.singleton)
        let frozen = try container.freeze()
        let error = await #expect(throws: FrostError.self) {
            let _: SelfAwaiting = try await frozen.resolve(SelfAwaiting.self)
        }
        #expect(error?.code == .cycle)
    }

    final class MaybePooled: Sendable {
        let pool: AsyncPool?
        init(pool: AsyncPool?) { self.pool = pool }
    }

    @Test func anAutowiredOptionalParameterAwaitsAnAsyncSingletonNotMadeYet() async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 6) }.scope(.singleton)
        container.autowire(MaybePooled.self, MaybePooled.init(pool:))
        let frozen = try container.freeze()
        let pooled: MaybePooled = try await frozen.resolve(MaybePooled.self)
        #expect(pooled.pool?.id == 6)
    }

    @Test func anAwaitedOptionalThroughAChildMakesAnAsyncSingletonNotMadeYet() async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 4) }.scope(.singleton)
        let frozen = try container.freeze()
        let child = try frozen.child { $0.register(instance: 9) }
        let pool: AsyncPool? = try await child.resolve(AsyncPool?.self)
        #expect(pool?.id == 4)
        #expect(try resolveSynchronously(AsyncPool.self, from: frozen) === pool)
    }

    // MARK: A synchronous resolve meets an awaited one

    @Test func asyncSingletonThenSyncAutowired() async throws {
        let counter = Counter()
        let container = Container()
        container.register(AsyncPool.self) { _ async throws in
            counter.increment()
            await Task.yield()
            return AsyncPool(id: 1)
        }.scope(.singleton)
        container.autowire(AsyncRepository.self, AsyncRepository.init(pool:))
        let frozen = try container.freeze()
        #expect(throws: FrostError.self) {
            _ = try resolveSynchronously(AsyncRepository.self, from: frozen)
        }
        let repo: AsyncRepository = try await frozen.resolve(AsyncRepository.self)
        #expect(repo.pool.id == 1)
        let again = try resolveSynchronously(AsyncRepository.self, from: frozen)
        #expect(again.pool === repo.pool)
        #expect(counter.value == 1)
    }

    final class MeetingPool: Sendable {}

    @Test(arguments: DoorKind.allCases)
    func aSynchronousResolveThatMeetsAnAwaitedCreationFailsInsteadOfBlocking(
        kind: DoorKind
    ) async throws {
        let container = Container()
        let started = DoorGate()
        let release = DoorGate()
        let made = DoorLocked(0)
        container.register(MeetingPool.self) { _ async in
            made.change { $0 += 1 }
            started.open()
            _ = await release.passed()
            return MeetingPool()
        }
        .scope(.singleton)
        let host = try DoorHost.root(container, kind)

        let creation = Task { () async throws -> MeetingPool in
            try await host.resolveAwaited(MeetingPool.self)
        }
        #expect(await started.passed(), "the awaited creation never started")
        let outcome = DoorLocked<Result<MeetingPool, FrostError>?>(nil)
        let resolved = doorRunOnThread {
            outcome.value = Result { () throws(FrostError) in try host.resolveNow(MeetingPool.self)
            }
        }
        // A resolve that blocked on the creation is let go after 20 s, when the creation is
        // released; it then fails the checks below (it would get the instance).
        #expect(await resolved.passed(), "the synchronous resolve blocked on the creation")
        let releasedAfterTheResolve = !release.isOpen
        release.open()
        _ = await resolved.passed()

        #expect(releasedAfterTheResolve)
        #expect(outcome.value?.doorCode == .asyncRequired, "\(String(describing: outcome.value))")
        let pool = try await creation.value
        #expect(try host.resolveNow(MeetingPool.self) === pool)
        #expect(made.value == 1)
    }

    // MARK: bootstrap()

    /// A node of a layered graph of async singletons, each recording what existed when it was
    /// made.
    final class Node: Sendable {
        let name: String
        let dependencies: [Node]
        init(name: String, dependencies: [Node]) {
            self.name = name
            self.dependencies = dependencies
        }
    }

    @Test func bootstrapMakesDependenciesFirstAndEachSingletonOnce() async throws {
        let order = Locked<[String]>([])
        let made = Locked<[String: Int]>([:])
        // Three layers: c depends on b1 and b2, which both depend on a.
        let graph: [(String, [String])] = [
            ("c", ["b1", "b2"]), ("b1", ["a"]), ("b2", ["a"]), ("a", []),
        ]
        let container = Container()
        for (name, dependencies) in graph {
            container.register(Node.self, name: name) { r async throws in
                var resolved: [Node] = []
                for dependency in dependencies {
                    resolved.append(try await r.resolve(Node.self, name: dependency))
                }
                await Task.yield()
                order.withLock { $0.append(name) }
                made.withLock { $0[name, default: 0] += 1 }
                return Node(name: name, dependencies: resolved)
            }
            .scope(.singleton)
        }
        let frozen = try container.freeze()
        try await frozen.bootstrap()
        let sequence = order.withLock { $0 }
        func position(_ name: String) -> Int { sequence.firstIndex(of: name) ?? .max }
        #expect(position("a") < position("b1"))
        #expect(position("a") < position("b2"))
        #expect(position("b1") < position("c"))
        #expect(position("b2") < position("c"))
        #expect(made.withLock { $0 } == ["a": 1, "b1": 1, "b2": 1, "c": 1])
        let c = try resolveSynchronously(Node.self, name: "c", from: frozen)
        #expect(c.dependencies[0].dependencies[0] === c.dependencies[1].dependencies[0])
        // The order bootstrap made them in is the order a lifecycle starts them in.
        #expect(frozen.createdSingletons(of: Node.self).map(\.name) == sequence)
    }

    @Test func bootstrapMakesIndependentSingletonsConcurrently() async throws {
        // Each of the two waits (suspending, twenty seconds at most) until the other has
        // started: made one after the other, the first would give up waiting, and say so.
        let started = Locked(0)
        let bothStarted = DoorGate()
        let metTheOther = Counter()
        let container = Container()
        for name in ["left", "right"] {
            container.register(AsyncPool.self, name: name) { _ async throws in
                if started.withLock({
                    $0 += 1
                    return $0
                }) == 2 {
                    bothStarted.open()
                }
                if await bothStarted.passed() { metTheOther.increment() }
                return AsyncPool(id: 0)
            }
            .scope(.singleton)
        }
        try await container.freeze().bootstrap()
        #expect(started.withLock { $0 } == 2)
        #expect(metTheOther.value == 2, "bootstrap() made the two one after the other")
    }

    @Test func bootstrapFailureNamesTheTypeAndThePath() async throws {
        struct Refused: Error {}
        let container = Container()
        container.register(AsyncPool.self) { _ async throws -> AsyncPool in throw Refused() }
            .scope(.singleton)
        container.autowire(AsyncRepository.self, AsyncRepository.init(pool:)).scope(.singleton)
        let frozen = try container.freeze()
        do {
            try await frozen.bootstrap()
            Issue.record("bootstrap() succeeded although a factory threw")
        } catch {
            #expect(error.code == .factoryFailed)
            #expect(error.underlying is Refused)
            #expect(error.description.contains("Pool"))
        }
        // Resolved through the repository, the path names both.
        do {
            _ = try await frozen.resolve(AsyncRepository.self)
            Issue.record("the resolve succeeded although a factory threw")
        } catch {
            #expect(error.dependencyPath.count == 2)
            #expect(error.dependencyPath.first?.contains("Repository") == true)
            #expect(error.dependencyPath.last?.contains("Pool") == true)
        }
    }

    @Test func aCancelledBootstrapLeavesNoHalfMadeSingleton() async throws {
        let entries = Locked(0)
        let bootstrapEntered = DoorGate()
        let nextEntered = DoorGate()
        let made = Counter()
        let container = Container()
        container.register(AsyncPool.self) { _ async throws in
            let entry = entries.withLock {
                $0 += 1
                return $0
            }
            (entry == 1 ? bootstrapEntered : nextEntered).open()
            try await Task.sleep(for: .seconds(30))  // throws CancellationError when cancelled
            made.increment()
            return AsyncPool(id: 1)
        }
        .scope(.singleton)
        .onDispose { _ in Issue.record("a singleton never made was disposed") }
        let frozen = try container.freeze()
        let bootstrap = Task { try await frozen.bootstrap() }
        #expect(await bootstrapEntered.passed(), "bootstrap() never called the factory")
        bootstrap.cancel()
        let result = await bootstrap.result
        #expect(throws: FrostError.self) { try result.get() }
        #expect(made.value == 0)
        #expect(frozen.createdSingletons(of: AsyncPool.self).isEmpty)
        // Not made and not stuck: the next resolve makes it.
        let next = Task { () async throws -> Int in
            try await frozen.resolve(AsyncPool.self).id
        }
        #expect(await nextEntered.passed(), "the next resolve did not call the factory: stuck")
        next.cancel()
        _ = await next.result
        await frozen.dispose()
    }

    // MARK: Structured concurrency inside factories

    /// A factory resolves one singleton twice at once with `async let`; the singleton's factory
    /// holds its creation open until both resolves are in flight.
    @Test func aFactoryMayResolveConcurrentlyWithAsyncLet() async throws {
        let made = Counter()
        let frozenHolder = WeakFrozen()
        let race = RaceWitness()
        let container = Container()
        container.register(AsyncPool.self) { _ async in
            made.increment()
            _ = await race.peakReached(2)  // the other async let resolves it meanwhile
            await Task.yield()
            return AsyncPool(id: 3)
        }
        .scope(.singleton)
        container.register(AsyncRepository.self) { _ async throws in
            let frozen = try #require(frozenHolder.value)
            async let first: AsyncPool = race.duringAwaited {
                try await frozen.resolve(AsyncPool.self)
            }
            async let second: AsyncPool = race.duringAwaited {
                try await frozen.resolve(AsyncPool.self)
            }
            let (a, b) = try await (first, second)
            #expect(a === b)
            return AsyncRepository(pool: a)
        }
        let frozen = try container.freeze()
        frozenHolder.value = frozen
        let repository: AsyncRepository = try await frozen.resolve(AsyncRepository.self)
        #expect(race.peak == 2, "the race did not happen: the async lets resolved one at a time")
        #expect(repository.pool.id == 3)
        #expect(made.value == 1)
    }

    // MARK: Actor-isolated factories

    @MainActor final class MainBound {
        let pool: AsyncPool
        init(pool: AsyncPool) { self.pool = pool }
    }

    @globalActor actor StorageActor {
        static let shared = StorageActor()
    }

    @StorageActor final class Storage {
        var writes = 0
        init() {}
    }

    @Test func aMainActorFactoryRunsOnTheMainActor() async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ in AsyncPool(id: 5) }.scope(.singleton)
        container.register(MainBound.self) { @MainActor r in
            MainActor.preconditionIsolated()
            return MainBound(pool: try r.resolve(AsyncPool.self))
        }
        let frozen = try container.freeze()
        let bound = try await Task.detached { () async throws(FrostError) -> MainBound in
            try await frozen.resolve(MainBound.self)
        }.value
        // The factory checked its isolation (preconditionIsolated traps otherwise).
        let id = await MainActor.run { bound.pool.id }
        #expect(id == 5)
        #expect(throws: FrostError.self) {
            _ = try resolveSynchronously(MainBound.self, from: frozen)
        }
    }

    @Test func aGlobalActorFactoryRunsOnItsActor() async throws {
        let container = Container()
        container.register(Storage.self) { @StorageActor _ async in
            StorageActor.preconditionIsolated()
            return Storage()
        }
        .scope(.singleton)
        let frozen = try container.freeze()
        let storage: Storage = try await frozen.resolve(Storage.self)
        let writes = await storage.writes
        #expect(writes == 0)
    }
}
