import Dispatch
import Foundation
import Frost
import Testing

/// Engine rule 5 under load: threads resolve through every path (every scope, types, handles,
/// `withResolved`, injection, `Lazy`, `Provider`, misses) while another releases the cached
/// instances; no resolve ever gets an instance whose deinit ran, none fails, nothing crashes.
@Suite("Stress: every path at once while cached instances are released", .timeLimit(.minutes(1)))
struct StressTests {
    final class Screen {
        @Injected var logger: any Logger
        @LazyInjected var session: Session
        init() {}
    }

    /// Four threads start together and run 2,000 rounds through every path; thread 0 releases
    /// the cached instances every 100 rounds. They go on past the 2,000 rounds (for thirty
    /// seconds at most) until a round of another thread has run while a release did.
    @Test func everyScopeInjectionLazyAndReleaseFromFourThreads() async throws {
        let container = Container()
        let singletonsMade = Counter()
        let session = LockedScopeStorage()
        container.register(Logger.self) { _ in
            singletonsMade.increment()
            return ConsoleLogger()
        }.scope(.singleton)
        container.register(Session.self) { _ in Session() }.scope(.weak)
        container.register(FileLogger.self) { _ in FileLogger() }.scope(.graph)
        container.register(Sink.self) { _ in FileLogger() }.scope(.custom(session))
        container.register(Primary.self) { _ in Primary() }
        let frozen = try container.freeze()
        let failures = Counter()
        let race = RaceWitness()
        let lastChance = DispatchTime.now() + .seconds(30)

        let bodies: [@Sendable () -> Void] = (0..<4).map { thread in
            {
                _ = race.barrier(4)
                var round = 0
                while round < 2_000 || (race.overlapped == 0 && DispatchTime.now() < lastChance) {
                    do {
                        try race.during {
                            _ = try frozen.resolve(Logger.self)
                            let weak = try frozen.resolve(Session.self)
                            withExtendedLifetime(weak) {}  // a living instance, never a dead one
                            _ = try frozen.resolve(FileLogger.self)
                            _ = try frozen.resolve(Sink.self)
                            _ = try frozen.resolve(Primary.self)
                            _ = try frozen.resolve(Lazy<Session>.self).value
                            _ = try frozen.resolve(Provider<Logger>.self)()
                            let screen = Screen()
                            try frozen.inject(into: screen)
                            _ = screen.logger
                            _ = screen.session
                        }
                        if thread == 0, round.isMultiple(of: 100) {
                            race.releasing {
                                frozen.releaseCachedInstances()
                                session.removeAll()
                            }
                        }
                    } catch {
                        failures.increment()
                    }
                    round += 1
                }
            }
        }
        guard await runOnThreads(within: 50, bodies) else {
            Issue.record("deadlock: the four threads did not finish within 50 s")
            return
        }
        #expect(race.overlapped > 0, "the race did not happen: no round ran during a release")
        #expect(failures.value == 0)
        // Thread 0 releases every 100 rounds (20 times in 2,000 rounds, a few more when it
        // waits for the race): at most one singleton creation per release, and the first; at
        // least one per release that was followed by a resolve.
        #expect(singletonsMade.value >= 1)
        #expect(singletonsMade.value <= race.releases + 1)
    }

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
    /// They go on for three seconds, and past them (twenty more at most) until a resolve has
    /// run while a release did.
    @Test func noResolveReturnsASingletonWhoseDeinitRanWhileReleasesRun() async throws {
        let container = Container()
        container.register(Released.self) { _ in Released() }.scope(.singleton)
        let frozen = try container.freeze()
        let handle = try frozen.handle(for: Released.self)
        let tally = MortalTally()
        let race = RaceWitness()
        let deadline = DispatchTime.now() + .seconds(3)
        let lastChance = deadline + .seconds(20)

        var bodies: [@Sendable () -> Void] = (0..<8).map { _ in
            {
                _ = race.barrier(9)
                while race.goesOn(until: deadline, orWithoutOverlapUntil: lastChance) {
                    race.during { Self.resolveAndCheck(Released.self, handle, in: frozen, tally) }
                }
            }
        }
        bodies.append {
            _ = race.barrier(9)
            while race.goesOn(until: deadline, orWithoutOverlapUntil: lastChance) {
                race.releasing { frozen.releaseCachedInstances() }
            }
        }
        guard await runOnThreads(within: 50, bodies) else {
            Issue.record("deadlock: resolving while releasing did not finish within 50 s")
            return
        }
        #expect(race.overlapped > 0, "the race did not happen: no resolve ran during a release")
        #expect(tally.dead == 0, "instances returned after their deinit ran")
        #expect(tally.errors.isEmpty, "\(tally.errors.prefix(3))")
        #expect(tally.checked > 0)
    }

    /// The log of created singletons under load: four threads make three singletons and list
    /// the created ones (each listed instance alive) while a fifth releases them; the log drops
    /// the released ones' entries as it grows. For two seconds, and past them (twenty more at
    /// most) until a round has run while a release did.
    @Test func createdSingletonsListsLiveInstancesWhileReleasesRun() async throws {
        let container = Container()
        let names = ["a", "b", "c"]
        for name in names {
            container.register(Released.self, name: name) { _ in Released() }.scope(.singleton)
        }
        let frozen = try container.freeze()
        let tally = MortalTally()
        let race = RaceWitness()
        let deadline = DispatchTime.now() + .seconds(2)
        let lastChance = deadline + .seconds(20)

        var bodies: [@Sendable () -> Void] = (0..<4).map { _ in
            {
                _ = race.barrier(5)
                while race.goesOn(until: deadline, orWithoutOverlapUntil: lastChance) {
                    race.during {
                        do {
                            for name in names {
                                tally.check(try frozen.resolve(Released.self, name: name))
                            }
                        } catch {
                            tally.fail(error)
                        }
                        for listed in frozen.createdSingletons(of: Released.self) {
                            tally.check(listed)
                        }
                    }
                }
            }
        }
        bodies.append {
            _ = race.barrier(5)
            while race.goesOn(until: deadline, orWithoutOverlapUntil: lastChance) {
                race.releasing { frozen.releaseCachedInstances() }
            }
        }
        guard await runOnThreads(within: 50, bodies) else {
            Issue.record("deadlock: listing while releasing did not finish within 50 s")
            return
        }
        #expect(race.overlapped > 0, "the race did not happen: no round ran during a release")
        #expect(tally.dead == 0, "instances listed or returned after their deinit ran")
        #expect(tally.errors.isEmpty, "\(tally.errors.prefix(3))")
        #expect(frozen.createdSingletons(of: Released.self).count <= names.count)
    }

    final class StressTransient: Mortal, @unchecked Sendable {}

    final class StressSingleton: Mortal, @unchecked Sendable {}

    final class StressWeak: Mortal, @unchecked Sendable {}

    final class StressGraph: Mortal, @unchecked Sendable {}

    final class StressCustom: Mortal, @unchecked Sendable {}

    final class StressInstance: Mortal, @unchecked Sendable {}

    /// Engine rules 1, 2 and 5: eight threads resolve every scope by type, by handle and with
    /// `withResolved` for three seconds (and past them, twenty more at most, until a resolve
    /// has run while a release did) while another releases cached instances: no dead
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
        let race = RaceWitness()
        let deadline = DispatchTime.now() + .seconds(3)
        let lastChance = deadline + .seconds(20)

        var bodies: [@Sendable () -> Void] = (0..<8).map { _ in
            {
                _ = race.barrier(9)
                while race.goesOn(until: deadline, orWithoutOverlapUntil: lastChance) {
                    race.during {
                        Self.resolveAndCheck(StressTransient.self, transient, in: frozen, tally)
                        Self.resolveAndCheck(StressSingleton.self, singleton, in: frozen, tally)
                        Self.resolveAndCheck(StressWeak.self, weak, in: frozen, tally)
                        Self.resolveAndCheck(StressGraph.self, graph, in: frozen, tally)
                        Self.resolveAndCheck(StressCustom.self, custom, in: frozen, tally)
                        Self.resolveAndCheck(StressInstance.self, instance, in: frozen, tally)
                    }
                }
            }
        }
        bodies.append {
            _ = race.barrier(9)
            var round = 0
            while race.goesOn(until: deadline, orWithoutOverlapUntil: lastChance) {
                race.releasing { frozen.releaseCachedInstances() }
                round += 1
                if round.isMultiple(of: 16) { storage.removeAll() }
            }
        }
        guard await runOnThreads(within: 50, bodies) else {
            Issue.record("deadlock: the stress run did not finish within 50 s")
            return
        }
        #expect(race.overlapped > 0, "the race did not happen: no resolve ran during a release")
        #expect(tally.dead == 0, "instances returned after their deinit ran")
        #expect(tally.errors.isEmpty, "\(tally.errors.prefix(3))")
        #expect(tally.checked > 0)
    }

    /// Two threads start together and resolve a transient and a miss 10,000 times each; the
    /// transient's factory holds the first resolve until the other thread's is in flight too.
    @Test func transientsAndMissesFromTwoThreads() async throws {
        let container = Container()
        let race = RaceWitness()
        container.register(Logger.self) { _ in
            _ = race.waitForPeak(2)  // at once for every resolve after the first race
            return ConsoleLogger()
        }
        let frozen = try container.freeze()
        let failures = Counter()

        let resolving: @Sendable () -> Void = {
            _ = race.barrier(2)
            for _ in 0..<10_000 {
                if (try? race.during({ try frozen.resolve(Logger.self) })) == nil {
                    failures.increment()
                }
                if (try? frozen.resolve(Unregistered.self)) != nil { failures.increment() }
            }
        }
        guard await runOnThreads(within: 50, resolving, resolving) else {
            Issue.record("deadlock: two threads resolving did not finish within 50 s")
            return
        }
        #expect(
            race.peak == 2, "the race did not happen: the resolves were never in flight at once")
        #expect(failures.value == 0)
    }
}
