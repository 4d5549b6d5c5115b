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

    @Test func everyScopeInjectionLazyAndReleaseFromFourThreads() throws {
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

        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<2_000 {
                do {
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
                    if thread == 0, round.isMultiple(of: 100) {
                        frozen.releaseCachedInstances()
                        session.removeAll()
                    }
                } catch {
                    failures.increment()
                }
            }
        }
        #expect(failures.value == 0)
        // 2,000 rounds of thread 0 release every 100: at most 21 singleton creations, and at
        // least one per release that was followed by a resolve.
        #expect(singletonsMade.value >= 1)
        #expect(singletonsMade.value <= 21)
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

    @Test func transientsAndMissesFromTwoThreads() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        let frozen = try container.freeze()
        let failures = Counter()

        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<10_000 {
                if (try? frozen.resolve(Logger.self)) == nil { failures.increment() }
                if (try? frozen.resolve(Unregistered.self)) != nil { failures.increment() }
            }
        }
        #expect(failures.value == 0)
    }
}
