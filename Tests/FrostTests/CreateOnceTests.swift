import Dispatch
import Foundation
import Frost
import Testing

/// Engine rules 1 and 2 under threads and tasks: a singleton's factory runs once however many
/// resolves ask for it at the same moment, threads or tasks, through bootstrap() too; creation
/// never blocks unrelated work (two different singletons are made at once, a factory may wait
/// for a thread that resolves something else); only a resolve of the same slot waits, and a
/// wait that would close a circle between threads is a `.cycle`. Every scenario runs on threads
/// of its own and is waited for with a bound: a deadlock is reported, never waited out.
@Suite("Create once, whoever asks at the same moment", .timeLimit(.minutes(1)))
struct CreateOnceTests {
    /// Two threads start together and resolve a singleton 100,000 times each; its factory holds
    /// the creation open until the other thread's resolve is in flight too (the race is made,
    /// not hoped for with a sleep that widens its window).
    @Test func singletonIsCreatedOnceUnderTwoThreadsOf100000Resolves() async throws {
        let container = Container()
        let made = Counter()
        let race = RaceWitness()
        container.register(Logger.self) { _ in
            made.increment()
            _ = race.waitForPeak(2)  // both resolves are in flight while it is being made
            return ConsoleLogger()
        }.scope(.singleton)
        let frozen = try container.freeze()
        let seen = SeenInstances()

        let resolving: @Sendable () -> Void = {
            _ = race.barrier(2)
            var last: (any Logger)?
            for _ in 0..<100_000 {
                guard let logger = try? race.during({ try frozen.resolve(Logger.self) }) else {
                    continue
                }
                if let last, last !== logger { seen.recordMismatch() }
                last = logger
            }
            if let last { seen.record(last) }
        }
        guard await runOnThreads(within: 50, resolving, resolving) else {
            Issue.record("deadlock: two threads resolving one singleton did not finish in 50 s")
            return
        }
        #expect(
            race.peak == 2, "the race did not happen: the resolves were never in flight at once")
        #expect(made.value == 1)
        #expect(seen.distinct == 1)
        #expect(seen.mismatches == 0)
    }

    /// Four threads start together, two resolving a singleton and two a singleton that depends
    /// on it; its factory holds the creation open until every thread's resolve is in flight.
    @Test func dependentSingletonsCreatedConcurrentlyDoNotDeadlock() async throws {
        let container = Container()
        let made = Counter()
        let race = RaceWitness()
        container.register(instance: AppConfig(port: 7))
        container.register(Database.self) { r in
            made.increment()
            _ = race.waitForPeak(4)  // every thread's first resolve is in flight meanwhile
            return Replica(try r.resolve(AppConfig.self))
        }.scope(.singleton)
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(UserService.self) { r in
            UserService(logger: try r.resolve(Logger.self), db: try r.resolve(Database.self))
        }.scope(.singleton)
        let frozen = try container.freeze()

        let bodies: [@Sendable () -> Void] = (0..<4).map { iteration in
            {
                _ = race.barrier(4)
                for _ in 0..<1_000 {
                    if iteration.isMultiple(of: 2) {
                        _ = try? race.during { try frozen.resolve(Database.self) }
                    } else {
                        _ = try? race.during { try frozen.resolve(UserService.self) }
                    }
                }
            }
        }
        guard await runOnThreads(within: 50, bodies) else {
            Issue.record("deadlock: dependent singletons created at once did not finish in 50 s")
            return
        }
        #expect(race.peak == 4, "the race did not happen: the resolves were never all in flight")
        #expect(made.value == 1)
        #expect(
            try resolveSynchronously(UserService.self, from: frozen).db
                === resolveSynchronously(Database.self, from: frozen))
    }

    /// Thirty-two tasks and a `bootstrap()` ask for one async singleton (directly, or through
    /// an autowired user of it). Its factory is held open until every one of them is suspended
    /// in its resolve, waiting for the creation in progress: they run on an executor of their
    /// own, and the test lets the factory finish only once that executor has nothing left to
    /// run (no sleep that only makes the race likely).
    @Test func manyTasksAndABootstrapRacingMakeASingletonOnce() async throws {
        let made = Counter()
        let release = DoorGate()
        let container = Container()
        container.register(AsyncPool.self) { _ async in
            made.increment()
            _ = await release.passed()
            return AsyncPool(id: 1)
        }
        .scope(.singleton)
        container.autowire(AsyncRepository.self, AsyncRepository.init(pool:))
        let frozen = try container.freeze()
        let executor = DoorExecutor()
        defer { executor.stop() }
        let entered = DoorLocked(0)
        let pools = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            group.addTask(executorPreference: executor) {
                entered.change { $0 += 1 }
                try await frozen.bootstrap()
                return ObjectIdentifier(try resolveSynchronously(AsyncPool.self, from: frozen))
            }
            for index in 0..<32 {
                group.addTask(executorPreference: executor) {
                    entered.change { $0 += 1 }
                    if index.isMultiple(of: 2) {
                        let pool: AsyncPool = try await frozen.resolve(AsyncPool.self)
                        return ObjectIdentifier(pool)
                    }
                    let repository: AsyncRepository = try await frozen.resolve(AsyncRepository.self)
                    return ObjectIdentifier(repository.pool)
                }
            }
            let settled = await executor.idle { entered.value == 33 }
            #expect(settled, "the race did not happen: the 33 never all waited for the creation")
            release.open()
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(pools.count == 1)
        #expect(made.value == 1)
    }

    // MARK: Creation never blocks unrelated work

    final class Waiting: Sendable {}

    final class Unrelated: Sendable {}

    /// Engine rule 1: a singleton's factory may wait for another thread that resolves an
    /// unrelated singleton; a third thread asking for the first while it is being made (the
    /// factory waits until that resolve is in flight) gets the one instance.
    @Test func aSingletonFactoryMayWaitForAThreadThatResolvesAnUnrelatedSingleton() async throws {
        let container = Container()
        let started = DispatchSemaphore(value: 0)
        let unrelatedResolved = DispatchSemaphore(value: 0)
        let waitingMade = Counter()
        let unrelatedMade = Counter()
        let timedOut = Counter()
        let race = RaceWitness()
        container.register(Waiting.self) { _ in
            waitingMade.increment()
            started.signal()
            started.signal()
            if unrelatedResolved.wait(timeout: .now() + 10) == .timedOut { timedOut.increment() }
            _ = race.waitForPeak(2)  // the third thread asks meanwhile
            return Waiting()
        }.scope(.singleton)
        container.register(Unrelated.self) { _ in
            unrelatedMade.increment()
            return Unrelated()
        }.scope(.singleton)
        let frozen = try container.freeze()
        let seen = ObjectsSeen()

        let finished = await runOnThreads(within: 30) {
            seen.record(try? race.during { try frozen.resolve(Waiting.self) })
        } _: {
            _ = started.wait(timeout: .now() + 10)
            seen.record(try? frozen.resolve(Unrelated.self))
            unrelatedResolved.signal()
        } _: {
            _ = started.wait(timeout: .now() + 10)
            seen.record(try? race.during { try frozen.resolve(Waiting.self) })  // while it is made
        }
        guard finished else {
            Issue.record("deadlock: a singleton's factory waited for an unrelated singleton")
            return
        }
        #expect(timedOut.value == 0, "the unrelated singleton could not be created meanwhile")
        #expect(race.peak == 2, "the race did not happen: the third thread asked too late")
        #expect(waitingMade.value == 1)
        #expect(unrelatedMade.value == 1)
        #expect(seen.missing == 0)
        #expect(seen.distinct(Waiting.self) == 1)
    }

    final class Left: Sendable {}

    final class Right: Sendable {}

    /// Engine rule 1: two threads creating two different singletons whose factories each wait
    /// until the other's has started (a rendezvous) both finish; each singleton is made once
    /// although a second thread asks for each at the same time (each factory waits until that
    /// second resolve is in flight).
    @Test func twoThreadsCreatingDifferentSingletonsDoNotWaitForEachOther() async throws {
        let container = Container()
        let leftStarted = DispatchSemaphore(value: 0)
        let rightStarted = DispatchSemaphore(value: 0)
        let leftMade = Counter()
        let rightMade = Counter()
        let missed = Counter()
        let leftRace = RaceWitness()
        let rightRace = RaceWitness()
        container.register(Left.self) { _ in
            leftMade.increment()
            leftStarted.signal()
            if rightStarted.wait(timeout: .now() + 10) == .timedOut { missed.increment() }
            _ = leftRace.waitForPeak(2)
            return Left()
        }.scope(.singleton)
        container.register(Right.self) { _ in
            rightMade.increment()
            rightStarted.signal()
            if leftStarted.wait(timeout: .now() + 10) == .timedOut { missed.increment() }
            _ = rightRace.waitForPeak(2)
            return Right()
        }.scope(.singleton)
        let frozen = try container.freeze()
        let seen = ObjectsSeen()

        let finished = await runOnThreads(within: 30) {
            seen.record(try? leftRace.during { try frozen.resolve(Left.self) })
        } _: {
            seen.record(try? rightRace.during { try frozen.resolve(Right.self) })
        } _: {
            seen.record(try? leftRace.during { try frozen.resolve(Left.self) })
        } _: {
            seen.record(try? rightRace.during { try frozen.resolve(Right.self) })
        }
        guard finished else {
            Issue.record("deadlock: two different singletons created at once")
            return
        }
        #expect(missed.value == 0, "one singleton's creation waited for the other's")
        #expect(leftRace.peak == 2, "the race did not happen: Left was asked for once at a time")
        #expect(rightRace.peak == 2, "the race did not happen: Right was asked for once at a time")
        #expect(leftMade.value == 1)
        #expect(rightMade.value == 1)
        #expect(seen.missing == 0)
        #expect(seen.distinct(Left.self) == 1)
        #expect(seen.distinct(Right.self) == 1)
    }

    final class CustomFirst: Sendable {}

    final class CustomSecond: Sendable {}

    final class WeakFirst: Sendable {}

    final class WeakSecond: Sendable {}

    /// Engine rule 1: a custom-scope factory that resolves a `.weak` registration on one thread
    /// and a `.weak` factory that resolves a custom-scope registration on another (unrelated
    /// types, so the graph is acyclic, the locks taken in opposite orders) both finish.
    @Test func customScopeAndWeakFactoriesResolvingEachOthersKindDoNotDeadlock() async throws {
        let container = Container()
        let storage = LockedScopeStorage()
        let customStarted = DispatchSemaphore(value: 0)
        let weakStarted = DispatchSemaphore(value: 0)
        let missed = Counter()
        container.register(CustomFirst.self) { r in
            customStarted.signal()
            if weakStarted.wait(timeout: .now() + 10) == .timedOut { missed.increment() }
            _ = try r.resolve(WeakSecond.self)
            return CustomFirst()
        }.scope(.custom(storage))
        container.register(WeakFirst.self) { r in
            weakStarted.signal()
            if customStarted.wait(timeout: .now() + 10) == .timedOut { missed.increment() }
            _ = try r.resolve(CustomSecond.self)
            return WeakFirst()
        }.scope(.weak)
        container.register(CustomSecond.self) { _ in CustomSecond() }.scope(.custom(storage))
        container.register(WeakSecond.self) { _ in WeakSecond() }.scope(.weak)
        let frozen = try container.freeze()
        let seen = ObjectsSeen()

        let finished = await runOnThreads(within: 30) {
            seen.record(try? frozen.resolve(CustomFirst.self))
        } _: {
            seen.record(try? frozen.resolve(WeakFirst.self))
        }
        guard finished else {
            Issue.record("deadlock: a custom scope's factory and a .weak one, crosswise")
            return
        }
        #expect(missed.value == 0, "one factory could not start while the other ran")
        #expect(seen.missing == 0)
    }

    final class Deferred: Sendable {}

    final class DeferredHelper: Sendable {}

    final class LazyReader: Sendable {}

    /// Holds a value set before the threads start (thread start orders the write first).
    final class Shared<Value>: @unchecked Sendable {
        var value: Value?
    }

    /// Engine rule 1: while one thread makes a `Lazy`'s first value (its factory creating an
    /// unrelated singleton), another creates a singleton whose factory reads the same `Lazy`
    /// (the first value's factory waits until that read is in flight): no circle, so both
    /// finish, with one value.
    @Test func aLazyBeingResolvedAndASingletonReadingItDoNotDeadlock() async throws {
        let container = Container()
        let readerStarted = DispatchSemaphore(value: 0)
        let deferredStarted = DispatchSemaphore(value: 0)
        let deferredMade = Counter()
        let missed = Counter()
        let lazy = Shared<Lazy<Deferred>>()
        let race = RaceWitness()
        container.register(Deferred.self) { r in
            deferredMade.increment()
            deferredStarted.signal()
            _ = race.waitForPeak(2)  // the singleton's factory reads the Lazy meanwhile
            _ = try r.resolve(DeferredHelper.self)
            return Deferred()
        }
        container.register(DeferredHelper.self) { _ in DeferredHelper() }.scope(.singleton)
        container.register(LazyReader.self) { _ in
            readerStarted.signal()
            if deferredStarted.wait(timeout: .now() + 10) == .timedOut { missed.increment() }
            guard let lazy = lazy.value else { throw FactoryFailure(reason: "no Lazy") }
            _ = try race.during { try lazy.get() }
            return LazyReader()
        }.scope(.singleton)
        let frozen = try container.freeze()
        lazy.value = try resolveSynchronously(Lazy<Deferred>.self, from: frozen)
        let seen = ObjectsSeen()

        let finished = await runOnThreads(within: 30) {
            seen.record(try? frozen.resolve(LazyReader.self))
        } _: {
            _ = readerStarted.wait(timeout: .now() + 10)
            seen.record(try? race.during { try lazy.value?.get() })
        }
        guard finished else {
            Issue.record("deadlock: a Lazy's first resolve and a singleton that reads it")
            return
        }
        #expect(missed.value == 0)
        #expect(race.peak == 2, "the race did not happen: the Lazy was read after its first value")
        #expect(seen.missing == 0)
        #expect(deferredMade.value == 1)
    }

    // MARK: A wait that would close a circle between threads

    final class CircleFirst: Sendable {}

    final class CircleSecond: Sendable {}

    /// Engine rule 1: thread 1 creates singleton A, whose factory waits until thread 2 creates
    /// singleton B and then resolves B; B's factory resolves A. The wait closes a circle: a
    /// `.cycle`, not a hang.
    @Test func aWaitThatWouldCloseACircleBetweenThreadsFailsWithCycle() async throws {
        let container = Container()
        let firstStarted = DispatchSemaphore(value: 0)
        // A latch: once thread 2 has started CircleSecond, every wait for it returns at once
        // (CircleFirst's factory runs again, on thread 2, after thread 1's attempt failed).
        let secondStarted = DispatchGroup()
        secondStarted.enter()
        let secondOpened = Counter()
        let blocked = Counter()
        container.register(CircleFirst.self) { r in
            firstStarted.signal()
            if secondStarted.wait(timeout: .now() + 10) == .timedOut {
                blocked.increment()
                throw FactoryFailure(reason: "thread 2 could not start creating CircleSecond")
            }
            _ = try r.resolve(CircleSecond.self)
            return CircleFirst()
        }.scope(.singleton)
        container.register(CircleSecond.self) { r in
            secondOpened.increment()
            if secondOpened.value == 1 { secondStarted.leave() }
            _ = try r.resolve(CircleFirst.self)
            return CircleSecond()
        }.scope(.singleton)
        let frozen = try container.freeze()
        let outcomes = Outcomes()

        let finished = await runOnThreads(within: 30) {
            outcomes.record { _ = try frozen.resolve(CircleFirst.self) }
        } _: {
            _ = firstStarted.wait(timeout: .now() + 10)
            outcomes.record { _ = try frozen.resolve(CircleSecond.self) }
        }
        guard finished else {
            Issue.record("deadlock: two singletons waiting for each other across threads")
            return
        }
        #expect(blocked.value == 0, "creating CircleFirst kept thread 2 from creating another")
        #expect(outcomes.successes == 0, "a singleton of a cycle was made")
        #expect(outcomes.codes.contains(.cycle), "\(outcomes.codes)")
    }
}
