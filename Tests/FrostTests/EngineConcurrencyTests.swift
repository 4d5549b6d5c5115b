import Dispatch
import Foundation
import Frost
import Testing

/// Engine rules 1, 2 and 5 under threads: creation never blocks unrelated work, a singleton is
/// made once, a wait that would close a circle between threads is a `.cycle`, and nothing
/// `releaseCachedInstances()` freed is ever returned. Every scenario runs on its own threads
/// and is waited for with a timeout: a deadlock is reported, never waited out.
@Suite("Engine rules: threads")
struct EngineConcurrencyTests {
    // MARK: Use after free

    /// A singleton whose deinit the test can see, resolved while another thread releases it.
    final class Released: Mortal, @unchecked Sendable {}

    /// Resolves through a type, `resolve(handle)` and `withResolved(handle)`, and checks that
    /// every instance returned is alive right after the resolve.
    static func resolveAndCheck<T: Mortal>(
        _ type: T.Type, _ handle: Handle<T>, in frozen: FrozenContainer, _ tally: MortalTally
    ) {
        do {
            tally.check(try frozen.resolve(T.self))
            tally.check(try frozen.resolve(handle))
            try frozen.withResolved(handle) { tally.check($0) }
        } catch {
            tally.fail(error)
        }
    }

    /// Engine rule 5: eight threads resolving a singleton (by type, `resolve(handle)`,
    /// `withResolved`) while a ninth loops `releaseCachedInstances()` never get a dead instance.
    @Test func noResolveReturnsASingletonWhoseDeinitRanWhileReleasesRun() async throws {
        let container = Container()
        container.register(Released.self) { _ in Released() }.scope(.singleton)
        let frozen = try container.freeze()
        let handle = try frozen.handle(for: Released.self)
        let tally = MortalTally()
        let deadline = DispatchTime.now() + .seconds(3)

        var bodies: [@Sendable () -> Void] = (0..<8).map { _ in
            {
                while DispatchTime.now() < deadline {
                    Self.resolveAndCheck(Released.self, handle, in: frozen, tally)
                }
            }
        }
        bodies.append {
            while DispatchTime.now() < deadline { frozen.releaseCachedInstances() }
        }
        guard await runOnThreads(within: 60, bodies) else {
            Issue.record("deadlock: resolving while releasing did not finish within 60 s")
            return
        }
        #expect(tally.dead == 0, "instances returned after their deinit ran")
        #expect(tally.errors.isEmpty, "\(tally.errors.prefix(3))")
        #expect(tally.checked > 0)
    }

    // MARK: Creation never blocks unrelated work

    final class Waiting: Sendable {}
    final class Unrelated: Sendable {}

    /// Engine rule 1: a singleton's factory may wait for another thread that resolves an
    /// unrelated singleton; a third thread asking for the first gets the one instance.
    @Test func aSingletonFactoryMayWaitForAThreadThatResolvesAnUnrelatedSingleton() async throws {
        let container = Container()
        let started = DispatchSemaphore(value: 0)
        let unrelatedResolved = DispatchSemaphore(value: 0)
        let waitingMade = Counter()
        let unrelatedMade = Counter()
        let timedOut = Counter()
        container.register(Waiting.self) { _ in
            waitingMade.increment()
            started.signal()
            started.signal()
            if unrelatedResolved.wait(timeout: .now() + 10) == .timedOut { timedOut.increment() }
            return Waiting()
        }.scope(.singleton)
        container.register(Unrelated.self) { _ in
            unrelatedMade.increment()
            return Unrelated()
        }.scope(.singleton)
        let frozen = try container.freeze()
        let seen = ObjectsSeen()

        let finished = await runOnThreads(within: 30) {
            seen.record(try? frozen.resolve(Waiting.self))
        } _: {
            _ = started.wait(timeout: .now() + 10)
            seen.record(try? frozen.resolve(Unrelated.self))
            unrelatedResolved.signal()
        } _: {
            _ = started.wait(timeout: .now() + 10)
            seen.record(try? frozen.resolve(Waiting.self))  // asks while it is being made
        }
        guard finished else {
            Issue.record("deadlock: a singleton's factory waited for an unrelated singleton")
            return
        }
        #expect(timedOut.value == 0, "the unrelated singleton could not be created meanwhile")
        #expect(waitingMade.value == 1)
        #expect(unrelatedMade.value == 1)
        #expect(seen.missing == 0)
        #expect(seen.distinct(Waiting.self) == 1)
    }

    final class Left: Sendable {}
    final class Right: Sendable {}

    /// Engine rule 1: two threads creating two different singletons whose factories each wait
    /// until the other's has started (a rendezvous) both finish; each singleton is made once
    /// although a second thread asks for each at the same time.
    @Test func twoThreadsCreatingDifferentSingletonsDoNotWaitForEachOther() async throws {
        let container = Container()
        let leftStarted = DispatchSemaphore(value: 0)
        let rightStarted = DispatchSemaphore(value: 0)
        let leftMade = Counter()
        let rightMade = Counter()
        let missed = Counter()
        container.register(Left.self) { _ in
            leftMade.increment()
            leftStarted.signal()
            if rightStarted.wait(timeout: .now() + 10) == .timedOut { missed.increment() }
            return Left()
        }.scope(.singleton)
        container.register(Right.self) { _ in
            rightMade.increment()
            rightStarted.signal()
            if leftStarted.wait(timeout: .now() + 10) == .timedOut { missed.increment() }
            return Right()
        }.scope(.singleton)
        let frozen = try container.freeze()
        let seen = ObjectsSeen()

        let finished = await runOnThreads(within: 30) {
            seen.record(try? frozen.resolve(Left.self))
        } _: {
            seen.record(try? frozen.resolve(Right.self))
        } _: {
            seen.record(try? frozen.resolve(Left.self))
        } _: {
            seen.record(try? frozen.resolve(Right.self))
        }
        guard finished else {
            Issue.record("deadlock: two different singletons created at once")
            return
        }
        #expect(missed.value == 0, "one singleton's creation waited for the other's")
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

    /// Engine rule 1: while thread 1 makes a `Lazy`'s first value (its factory creating an
    /// unrelated singleton), thread 2 creates a singleton whose factory reads the same `Lazy`:
    /// no circle, so both finish, with one value.
    @Test func aLazyBeingResolvedAndASingletonReadingItDoNotDeadlock() async throws {
        let container = Container()
        let readerStarted = DispatchSemaphore(value: 0)
        let deferredStarted = DispatchSemaphore(value: 0)
        let deferredMade = Counter()
        let missed = Counter()
        let lazy = Shared<Lazy<Deferred>>()
        container.register(Deferred.self) { r in
            deferredMade.increment()
            deferredStarted.signal()
            _ = try r.resolve(DeferredHelper.self)
            return Deferred()
        }
        container.register(DeferredHelper.self) { _ in DeferredHelper() }.scope(.singleton)
        container.register(LazyReader.self) { _ in
            readerStarted.signal()
            if deferredStarted.wait(timeout: .now() + 10) == .timedOut { missed.increment() }
            guard let lazy = lazy.value else { throw FactoryFailure(reason: "no Lazy") }
            _ = try lazy.get()
            return LazyReader()
        }.scope(.singleton)
        let frozen = try container.freeze()
        lazy.value = try resolveSynchronously(Lazy<Deferred>.self, from: frozen)
        let seen = ObjectsSeen()

        let finished = await runOnThreads(within: 30) {
            seen.record(try? frozen.resolve(LazyReader.self))
        } _: {
            _ = readerStarted.wait(timeout: .now() + 10)
            seen.record(try? lazy.value?.get())
        }
        guard finished else {
            Issue.record("deadlock: a Lazy's first resolve and a singleton that reads it")
            return
        }
        #expect(missed.value == 0)
        #expect(seen.missing == 0)
        #expect(deferredMade.value == 1)
    }

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

    // MARK: Stress

    final class StressTransient: Mortal, @unchecked Sendable {}
    final class StressSingleton: Mortal, @unchecked Sendable {}
    final class StressWeak: Mortal, @unchecked Sendable {}
    final class StressGraph: Mortal, @unchecked Sendable {}
    final class StressCustom: Mortal, @unchecked Sendable {}
    final class StressInstance: Mortal, @unchecked Sendable {}

    /// Engine rules 1, 2 and 5: eight threads resolve every scope by type, by handle and with
    /// `withResolved` for three seconds while another releases cached instances: no dead
    /// instance, no error, no crash.
    @Test func everyScopeFromEightThreadsThroughTypesAndHandlesWhileReleasing() async throws {
        let container = Container()
        let storage = LockedScopeStorage()
        container.register(StressTransient.self) { _ in StressTransient() }
        container.register(StressSingleton.self) { _ in StressSingleton() }.scope(.singleton)
        container.register(StressWeak.self) { _ in StressWeak() }.scope(.weak)
        container.register(StressGraph.self) { _ in StressGraph() }.scope(.graph)
        container.register(StressCustom.self) { _ in StressCustom() }.scope(.custom(storage))
        container.register(instance: StressInstance())
        let frozen = try container.freeze()
        let transient = try frozen.handle(for: StressTransient.self)
        let singleton = try frozen.handle(for: StressSingleton.self)
        let weak = try frozen.handle(for: StressWeak.self)
        let graph = try frozen.handle(for: StressGraph.self)
        let custom = try frozen.handle(for: StressCustom.self)
        let instance = try frozen.handle(for: StressInstance.self)
        let tally = MortalTally()
        let deadline = DispatchTime.now() + .seconds(3)

        var bodies: [@Sendable () -> Void] = (0..<8).map { _ in
            {
                while DispatchTime.now() < deadline {
                    Self.resolveAndCheck(StressTransient.self, transient, in: frozen, tally)
                    Self.resolveAndCheck(StressSingleton.self, singleton, in: frozen, tally)
                    Self.resolveAndCheck(StressWeak.self, weak, in: frozen, tally)
                    Self.resolveAndCheck(StressGraph.self, graph, in: frozen, tally)
                    Self.resolveAndCheck(StressCustom.self, custom, in: frozen, tally)
                    Self.resolveAndCheck(StressInstance.self, instance, in: frozen, tally)
                }
            }
        }
        bodies.append {
            var round = 0
            while DispatchTime.now() < deadline {
                frozen.releaseCachedInstances()
                round += 1
                if round.isMultiple(of: 16) { storage.removeAll() }
            }
        }
        guard await runOnThreads(within: 60, bodies) else {
            Issue.record("deadlock: the stress run did not finish within 60 s")
            return
        }
        #expect(tally.dead == 0, "instances returned after their deinit ran")
        #expect(tally.errors.isEmpty, "\(tally.errors.prefix(3))")
        #expect(tally.checked > 0)
    }
}
