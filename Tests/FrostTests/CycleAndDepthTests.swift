import Dispatch
import Foundation
import Frost
import Testing

/// Engine rules 2, 3 and 4: a cycle is found exactly, with its members, wherever it closes
/// (closures, autowired initializers, `Lazy` and `Provider` read during the resolve that made
/// them, async factories and the tasks they await, a `Lazy` read in an async factory), at
/// freeze when freeze can see it and at resolve otherwise; a forward resolved from its own
/// instance's hook is that instance, not a cycle; a resolve is never redone whatever its depth;
/// a deep acyclic graph resolves up to the documented depth, past which it is a `.depthLimit`.
@Suite("Cycles and depth", .timeLimit(.minutes(1)))
struct CycleAndDepthTests {
    // MARK: Cycles through Lazy and Provider

    final class Front: Sendable {}
    final class Back: Sendable {}
    final class Narcissus: Sendable {}

    /// Engine rule 3: A's factory reads `Lazy<B>` at once, and B's factory resolves A: a
    /// `.cycle` naming both, not a stack overflow.
    @Test(arguments: Mode.allCases)
    func aLazyReadEagerlyDuringTheResolveThatMadeItClosesACycle(mode: Mode) throws {
        let container = Container()
        container.register(Front.self) { r in
            _ = try r.resolve(Lazy<Back>.self).get()
            return Front()
        }
        container.register(Back.self) { r in
            _ = try r.resolve(Front.self)
            return Back()
        }
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Front.self) })
        #expect(error.code == .cycle)
        #expect(error.dependencyPath.contains(String(reflecting: Front.self)))
        #expect(error.dependencyPath.contains(String(reflecting: Back.self)))
    }

    /// Engine rule 3: A's factory calls `Provider<B>` at once, and B's factory resolves A: a
    /// `.cycle` naming both, not a stack overflow.
    @Test(arguments: Mode.allCases)
    func aProviderCalledEagerlyDuringTheResolveThatMadeItClosesACycle(mode: Mode) throws {
        let container = Container()
        container.register(Front.self) { r in
            _ = try r.resolve(Provider<Back>.self).resolve()
            return Front()
        }
        container.register(Back.self) { r in
            _ = try r.resolve(Front.self)
            return Back()
        }
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Front.self) })
        #expect(error.code == .cycle)
        #expect(error.dependencyPath.contains(String(reflecting: Front.self)))
        #expect(error.dependencyPath.contains(String(reflecting: Back.self)))
    }

    /// Engine rule 3: a singleton whose factory reads a `Lazy` of its own type at once is a
    /// `.cycle`, not a stack overflow, and is not cached half-made.
    @Test(arguments: Mode.allCases)
    func aSingletonReadingALazyOfItselfEagerlyIsACycle(mode: Mode) throws {
        let container = Container()
        container.register(Narcissus.self) { r in
            _ = try r.resolve(Lazy<Narcissus>.self).get()
            return Narcissus()
        }.scope(.singleton)
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Narcissus.self) })
        #expect(error.code == .cycle)
        #expect(error.dependencyPath.contains(String(reflecting: Narcissus.self)))
        #expect(frostError { _ = try resolver.resolve(Narcissus.self) }?.code == .cycle)
    }

    // MARK: A resolve is never redone

    /// One level of a chain of closure registrations: `Link` named "i" resolves "i+1".
    final class Link: Sendable {
        let next: Link?
        init(next: Link?) { self.next = next }

        /// The number of links from this one to the end, counted without recursion.
        var length: Int {
            var count = 1
            var link = self
            while let next = link.next {
                count += 1
                link = next
            }
            return count
        }
    }

    /// Registers `Link` under the names "0" to "count - 1", each resolving the next.
    static func registerChain(of count: Int, in container: Container) {
        for level in 0..<count {
            container.register(Link.self, name: "\(level)") { r in
                Link(next: level + 1 < count ? try r.resolve(Link.self, name: "\(level + 1)") : nil)
            }
        }
    }

    final class DeepFactory: Sendable {}
    final class DeepHook: Sendable {}

    /// Engine rule 2: a singleton whose factory, or whose `onCreate` hook, resolves a chain 70
    /// levels deep runs that factory and that hook exactly once.
    @Test(arguments: Mode.allCases)
    func aSingletonOverAChainDeeperThan64RunsItsFactoryAndHookOnce(mode: Mode) throws {
        let container = Container()
        Self.registerChain(of: 70, in: container)
        let factoryRuns = Counter()
        let hookRuns = Counter()
        container.register(DeepFactory.self) { r in
            factoryRuns.increment()
            _ = try r.resolve(Link.self, name: "0")
            return DeepFactory()
        }.scope(.singleton)
            .onCreate { _, _ in hookRuns.increment() }
        let deepHookFactoryRuns = Counter()
        let deepHookRuns = Counter()
        container.register(DeepHook.self) { _ in
            deepHookFactoryRuns.increment()
            return DeepHook()
        }.scope(.singleton)
            .onCreate { r, _ in
                deepHookRuns.increment()
                _ = try r.resolve(Link.self, name: "0")
            }
        let resolver = try mode.resolver(container)

        let first = try resolver.resolve(DeepFactory.self)
        #expect(try resolver.resolve(DeepFactory.self) === first)
        #expect(factoryRuns.value == 1)
        #expect(hookRuns.value == 1)
        let hooked = try resolver.resolve(DeepHook.self)
        #expect(try resolver.resolve(DeepHook.self) === hooked)
        #expect(deepHookFactoryRuns.value == 1)
        #expect(deepHookRuns.value == 1)
    }

    /// Engine rule 2: in a chain of 70 closure registrations where each level resolves the
    /// next with `try?`, no level gets `nil`: an internal depth condition never reaches a
    /// factory.
    @Test(arguments: Mode.allCases)
    func aTryInAFactoryNeverSeesAnInternalDepthCondition(mode: Mode) throws {
        let container = Container()
        let gotNothing = Counter()
        for level in 0..<70 {
            container.register(Link.self, name: "\(level)") { r in
                guard level + 1 < 70 else { return Link(next: nil) }
                let next = try? r.resolve(Link.self, name: "\(level + 1)")
                if next == nil { gotNothing.increment() }
                return Link(next: next)
            }
        }
        let resolver = try mode.resolver(container)

        let top = try resolver.resolve(Link.self, name: "0")
        #expect(top.length == 70)
        #expect(gotNothing.value == 0)
    }

    /// The resolvers the levels of a chain received, the first one of each level.
    final class KeptResolvers: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [Int: any Resolver] = [:]

        func keep(_ resolver: any Resolver, level: Int) {
            lock.lock()
            if kept[level] == nil { kept[level] = resolver }
            lock.unlock()
        }

        var all: [(level: Int, resolver: any Resolver)] {
            lock.lock()
            defer { lock.unlock() }
            return kept.sorted { $0.key < $1.key }.map { (level: $0.key, resolver: $0.value) }
        }

        /// Drops the kept resolvers: each is the container, whose factories keep this object,
        /// a cycle the test must break for the leak checker.
        func clear() {
            lock.lock()
            kept = [:]
            lock.unlock()
        }
    }

    /// Engine rule 2: a resolver that a factory kept (here every level of a 70-deep chain)
    /// resolves normally after the resolve that gave it returned.
    @Test(arguments: Mode.allCases)
    func aResolverKeptByAFactoryResolvesNormallyAfterwards(mode: Mode) throws {
        let container = Container()
        let kept = KeptResolvers()
        for level in 0..<70 {
            container.register(Link.self, name: "\(level)") { r in
                kept.keep(r, level: level)
                return Link(
                    next: level + 1 < 70 ? try r.resolve(Link.self, name: "\(level + 1)") : nil)
            }
        }
        container.register(Session.self) { _ in Session() }
        let resolver = try mode.resolver(container)
        #expect(try resolver.resolve(Link.self, name: "0").length == 70)

        var failures: [String] = []
        for (level, stored) in kept.all {
            do {
                _ = try stored.resolve(Session.self)
            } catch {
                failures.append("level \(level): \(error.code)")
            }
        }
        #expect(kept.all.count == 70)
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        kept.clear()
    }

    // MARK: Depth

    /// What a resolve on a thread of its own ended with: written there, read here, behind a
    /// lock.
    final class DeepOutcome: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<Int, any Error>?

        func finish(_ body: () throws -> Int) {
            let result = Result(catching: body)
            lock.lock()
            self.result = result
            lock.unlock()
        }

        /// The length of the chain resolved, if the resolve succeeded.
        var length: Int? {
            lock.lock()
            defer { lock.unlock() }
            return try? result?.get()
        }

        /// The error the resolve threw, if any.
        var error: (any Error)? {
            lock.lock()
            defer { lock.unlock() }
            guard case .failure(let error) = result else { return nil }
            return error
        }
    }

    /// The stack of the thread a deep resolve runs on: 8 MiB, as the engine rule states it for
    /// a debug build; four times that under a sanitizer (`make sanitize`), whose
    /// instrumentation makes every frame larger.
    static let stackSize: Int = {
        let sanitized = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
        return (sanitized ? 32 : 8) << 20
    }()

    /// Resolves `Link` named `name` on a thread with `stackSize` bytes of stack, waiting at
    /// most a minute.
    ///
    /// - Returns: What the resolve ended with, or `nil` if it did not end in time.
    static func resolveOnBigStack(_ name: String, from resolver: any Resolver) -> DeepOutcome? {
        let outcome = DeepOutcome()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let resolver = resolver
        let thread = Thread {
            outcome.finish { try resolver.resolve(Link.self, name: name).length }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        guard done.wait(timeout: .now() + 60) == .success else { return nil }
        return outcome
    }

    /// Engine rule 4: a chain of 1,000 closure registrations (one type under 1,000 names)
    /// resolves in a debug build on a thread with 8 MiB of stack.
    @Test(arguments: Mode.allCases)
    func aChainOf1000ClosureRegistrationsResolvesOnAnEightMiBStack(mode: Mode) throws {
        let container = Container()
        Self.registerChain(of: 1_000, in: container)
        let resolver = try mode.resolver(container)

        guard let outcome = Self.resolveOnBigStack("0", from: resolver) else {
            Issue.record("deadlock: the 1,000-deep resolve did not end within a minute")
            return
        }
        #expect(outcome.error == nil, "\(outcome.error.map(String.init(describing:)) ?? "")")
        #expect(outcome.length == 1_000)
    }

    /// `.depthLimit`'s promise: a resolve that nearly uses up its thread's stack (a chain of
    /// 1,000 factories, on a thread of 256 KiB) throws `.depthLimit` naming its path, never
    /// overflows the stack; the thread's next resolve works.
    @Test(arguments: Mode.allCases)
    func aResolveThatNearlyUsesUpItsThreadsStackIsADepthLimit(mode: Mode) throws {
        let container = Container()
        Self.registerChain(of: 1_000, in: container)
        container.register(String.self) { _ in "shallow" }
        let resolver = try mode.resolver(container)

        let outcome = DeepOutcome()
        let after = DeepOutcome()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let shared = resolver
        let thread = Thread {
            // A shallow resolve first: the thread's first resolve, far from its stack's end.
            _ = try? shared.resolve(String.self)
            outcome.finish { try shared.resolve(Link.self, name: "0").length }
            after.finish { try shared.resolve(String.self).count }
            done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        guard done.wait(timeout: .now() + 60) == .success else {
            Issue.record("deadlock: the deep resolve did not end within a minute")
            return
        }
        let error = try #require(
            outcome.error as? FrostError, "\(String(describing: outcome.error))")
        #expect(error.code == .depthLimit)
        #expect(error.dependencyPath.count > 2)
        #expect(after.length == "shallow".count)
    }

    /// Engine rule 4: a chain of exactly `maximumDepth` nested factories resolves; one more
    /// level throws `.depthLimit` naming the path, never a crash.
    @Test(arguments: Mode.allCases)
    func aChainOfMaximumDepthResolvesAndOneMoreLevelIsADepthLimit(mode: Mode) throws {
        let limit = mode == .dictionary ? Container.maximumDepth : FrozenContainer.maximumDepth
        #expect(limit >= 1_000)
        let container = Container()
        Self.registerChain(of: limit + 1, in: container)  // "1" to "limit": `limit` factories
        let resolver = try mode.resolver(container)

        guard let atLimit = Self.resolveOnBigStack("1", from: resolver) else {
            Issue.record("deadlock: the resolve at the depth limit did not end within a minute")
            return
        }
        #expect(atLimit.error == nil, "\(atLimit.error.map(String.init(describing:)) ?? "")")
        #expect(atLimit.length == limit)

        guard let past = Self.resolveOnBigStack("0", from: resolver) else {
            Issue.record("deadlock: the resolve past the depth limit did not end within a minute")
            return
        }
        let error = try #require(
            past.error as? FrostError,
            "\(limit + 1) nested factories: \(String(describing: past.error))")
        #expect(error.code == .depthLimit)
        #expect(!error.dependencyPath.isEmpty)
    }

    // MARK: Cycles through factories and initializers

    @Test(arguments: Mode.allCases)
    func factoryCycleThrowsNamingEveryMember(mode: Mode) throws {
        let container = Container()
        container.register(CycleA.self) { r in CycleA(try r.resolve(CycleB.self)) }
        container.register(CycleB.self) { r in CycleB(try r.resolve(CycleC.self)) }.scope(
            .singleton)
        container.register(CycleC.self) { r in CycleC(try r.resolve(CycleA.self)) }
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(CycleB.self) })
        #expect(error.code == .cycle)
        #expect(
            error.dependencyPath == [
                "FrostTests.CycleB", "FrostTests.CycleC", "FrostTests.CycleA", "FrostTests.CycleB",
            ]
        )
        // The singleton was not cached half-made: a second resolve fails the same way.
        #expect(frostError { _ = try resolver.resolve(CycleB.self) }?.code == .cycle)
    }

    /// A cycle entered at a closure transient (which a frozen container makes at the top of
    /// a resolve without the engine) is named from it.
    @Test(arguments: Mode.allCases)
    func aCycleEnteredAtAClosureTransientIsNamedFromIt(mode: Mode) throws {
        let container = Container()
        container.register(CycleA.self) { r in CycleA(try r.resolve(CycleB.self)) }
        container.register(CycleB.self) { r in CycleB(try r.resolve(CycleC.self)) }
        container.register(CycleC.self) { r in CycleC(try r.resolve(CycleA.self)) }
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(CycleA.self) })
        #expect(error.code == .cycle)
        #expect(
            error.dependencyPath == [
                "FrostTests.CycleA", "FrostTests.CycleB", "FrostTests.CycleC", "FrostTests.CycleA",
            ]
        )
        let failing = Container()
        failing.register(CycleC.self) { _ in throw FactoryFailure(reason: "no") }
        let failed = try #require(
            frostError { _ = try mode.resolver(failing).resolve(CycleC.self) })
        #expect(failed.code == .factoryFailed)
        #expect(failed.dependencyPath == ["FrostTests.CycleC"])
    }

    @Test(arguments: Mode.allCases)
    func cycleThroughAutowiredAndClosureRegistrationsIsCaughtAtResolve(mode: Mode) throws {
        // Freeze sees CycleA -> CycleB and CycleB -> CycleC, not what CycleC's closure does:
        // the frozen container creates the autowired ones from their bound slots, and the
        // cycle must still be caught, and named, when the closure closes it.
        let container = Container()
        container.autowire(CycleA.self, CycleA.init)
        container.autowire(CycleB.self, CycleB.init)
        container.register(CycleC.self) { r in CycleC(try r.resolve(CycleA.self)) }
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(CycleA.self) })
        #expect(error.code == .cycle)
        #expect(
            error.dependencyPath == [
                "FrostTests.CycleA", "FrostTests.CycleB", "FrostTests.CycleC", "FrostTests.CycleA",
            ]
        )
    }

    @Test(arguments: Mode.allCases)
    func factoryThatResolvesItselfIsACycle(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { r in try r.resolve(Logger.self) }.scope(.singleton)
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Logger.self) })
        #expect(error.code == .cycle)
        #expect(error.dependencyPath == ["FrostTests.Logger", "FrostTests.Logger"])
    }

    @Test func threeProtocolCycleIsReportedAtFreezeNamingAllThree() throws {
        // BTKInjector's scenario.
        let container = Container()
        container.autowire(Engine.self, EngineImpl.init(gearbox:))
        container.autowire(Gearbox.self, GearboxImpl.init(wheel:))
        container.autowire(Wheel.self, WheelImpl.init(engine:))

        let error = try #require(frostError { _ = try container.freeze() })
        #expect(error.code == .invalidRegistrations)
        let cycle = try #require(error.problems.first { $0.code == .cycle })
        #expect(
            Set(cycle.dependencyPath) == [
                "FrostTests.Engine", "FrostTests.Gearbox", "FrostTests.Wheel",
            ])
        #expect(cycle.dependencyPath.count == 4)  // the first member closes the cycle
        #expect(error.description.contains("FrostTests.Engine"))
    }

    @Test(arguments: Mode.allCases)
    func theSameCycleThroughAProviderResolves(mode: Mode) throws {
        let container = Container()
        container.autowire(Engine.self, EngineImpl.init(gearbox:)).scope(.singleton)
        container.autowire(Gearbox.self, GearboxImpl.init(wheel:)).scope(.singleton)
        container.autowire(Wheel.self, ProvidedWheel.init(engine:)).scope(.singleton)
        let resolver = try mode.resolver(container)

        let engine = try resolver.resolve(Engine.self)
        let wheel =
            try #require((engine as? EngineImpl)?.gearbox as? GearboxImpl)?.wheel as? ProvidedWheel
        #expect(try #require(wheel).engine() === engine)
    }

    @Test func cycleOnlyClosuresCanCreateIsCaughtAtResolveWithTheSameMessage() throws {
        let container = Container()
        container.register(Engine.self) { r in EngineImpl(gearbox: try r.resolve(Gearbox.self)) }
        container.register(Gearbox.self) { r in GearboxImpl(wheel: try r.resolve(Wheel.self)) }
        container.register(Wheel.self) { r in WheelImpl(engine: try r.resolve(Engine.self)) }
        let frozen = try container.freeze()  // closures: nothing to see at freeze

        let error = try #require(frostError { _ = try frozen.resolve(Gearbox.self) })
        #expect(error.code == .cycle)
        #expect(
            error.dependencyPath == [
                "FrostTests.Gearbox", "FrostTests.Wheel", "FrostTests.Engine", "FrostTests.Gearbox",
            ])
        #expect(error.description.contains("dependency cycle through FrostTests.Gearbox"))
    }

    final class Chicken: Sendable {
        init(egg: Egg) {}
    }

    final class Egg: Sendable {
        init(chicken: Chicken) {}
    }

    /// A cycle through autowired initializers, though both are `.graph`, still fails: `.cycle`.
    @Test func aCycleThroughInitializersStillFailsWithCycle() throws {
        let container = Container()
        container.autowire(Chicken.self, Chicken.init(egg:)).scope(.graph)
        container.autowire(Egg.self, Egg.init(chicken:)).scope(.graph)

        let error = try #require(frostError { _ = try container.freeze() })
        #expect(error.code == .invalidRegistrations)
        #expect(!error.problems.isEmpty)
        #expect(error.problems.allSatisfy { $0.code == .cycle }, "\(error)")
        #expect(frostError { _ = try container.resolve(Chicken.self) }?.code == .cycle)
    }

    // MARK: Cycles through async factories and the tasks they await

    @Test(arguments: Mode.allCases)
    func aCycleThroughAsyncFactoriesFailsWithCycle(mode: Mode) async throws {
        let container = Container()
        container.register(AsyncPool.self) { r async throws in
            _ = try await r.resolve(AsyncRepository.self)
            return AsyncPool(id: 1)
        }
        .scope(.singleton)
        container.register(AsyncRepository.self) { r async throws in
            AsyncRepository(pool: try await r.resolve(AsyncPool.self))
        }
        let resolver = try mode.resolver(container)
        do {
            _ = try await resolver.resolve(AsyncPool.self)
            Issue.record("a cycle resolved")
        } catch {
            #expect(error.code == .cycle)
        }
    }

    /// The resolver a factory receives is not `Sendable`; a factory that starts other tasks
    /// resolves through the frozen container it captured, and the path goes on in them.
    @Test func aCycleClosedFromATaskTheFactoryAwaitsFailsWithCycle() async throws {
        let frozenHolder = WeakFrozen()
        let container = Container()
        container.register(AsyncPool.self) { _ async throws in
            let frozen = try #require(frozenHolder.value)
            // The factory waits for another task, which needs what this factory makes.
            let other = Task { () async throws(FrostError) -> AsyncRepository in
                try await frozen.resolve(AsyncRepository.self)
            }
            _ = try await other.value
            return AsyncPool(id: 1)
        }
        .scope(.singleton)
        container.register(AsyncRepository.self) { r async throws in
            AsyncRepository(pool: try await r.resolve(AsyncPool.self))
        }
        let frozen = try container.freeze()
        frozenHolder.value = frozen
        do {
            _ = try await frozen.resolve(AsyncPool.self)
            Issue.record("a cycle between tasks resolved")
        } catch {
            #expect(error.code == .cycle)
        }
    }

    // MARK: Cycles on the seams between the synchronous and the awaited paths, and hooks

    /// Made by an async factory that reads a `Lazy<SeamSpoke>` while it runs.
    final class SeamHub: Sendable {}

    /// Needs the hub: reading it from the hub's factory closes the cycle.
    final class SeamSpoke: Sendable {
        let hub: SeamHub
        init(hub: SeamHub) { self.hub = hub }
    }

    protocol SeamMotor: AnyObject, Sendable {}

    /// Registered `.implements(SeamMotor.self)`; its `.onCreate` hook resolves the forward.
    final class SeamEngine: SeamMotor {}

    /// Where the instance lives: a root's singleton, or a `.scoped` instance made in a child.
    enum SeamLifetime: String, CaseIterable, CustomTestStringConvertible {
        case singleton
        case scoped

        var testDescription: String { rawValue }

        var scope: Scope { self == .singleton ? .singleton : .scoped }

        /// The container to resolve from.
        func resolver(in root: DoorHost) throws -> DoorHost {
            self == .singleton ? root : try root.child()
        }
    }

    /// hub (async factory) → `Lazy<SeamSpoke>.get()` → spoke → hub, which this resolve is
    /// making: a `.cycle` whose path names the hub and the spoke.
    @Test(arguments: DoorKind.allCases, SeamLifetime.allCases)
    func aCycleClosedThroughALazyReadInAnAsyncFactoryIsACycle(
        kind: DoorKind, lifetime: SeamLifetime
    ) async throws {
        let container = Container()
        container.register(SeamHub.self) { r async throws in
            let spoke = try await r.resolve(Lazy<SeamSpoke>.self)
            _ = try spoke.get()
            return SeamHub()
        }
        .scope(lifetime.scope)
        container.autowire(SeamSpoke.self, SeamSpoke.init(hub:))
        let host = try lifetime.resolver(in: try DoorHost.root(container, kind))

        do {
            _ = try await host.resolveAwaited(SeamHub.self)
            Issue.record("the cycle resolved")
        } catch {
            #expect(error.code == .cycle, "\(error)")
            let path = error.dependencyPath
            #expect(path.contains(String(reflecting: SeamHub.self)), "\(path)")
            #expect(path.contains(String(reflecting: SeamSpoke.self)), "\(path)")
        }
    }

    /// `SeamEngine`, registered `.implements((any SeamMotor).self)`, whose factory resolves
    /// `any SeamMotor`: a cycle through the forward, whose path names both members — the
    /// engine and the forward it closed through — in both containers, resolved from either
    /// type.
    @Test(arguments: Mode.allCases)
    func aCycleThroughAForwardNamesTheForward(mode: Mode) throws {
        let container = Container()
        container.register(SeamEngine.self) { r in
            _ = try r.resolve((any SeamMotor).self)
            return SeamEngine()
        }
        .implements((any SeamMotor).self)
        let resolver = try mode.resolver(container)
        let engine = String(reflecting: SeamEngine.self)
        let motor = String(reflecting: (any SeamMotor).self)
        for resolve in [
            { _ = try resolver.resolve(SeamEngine.self) },
            { _ = try resolver.resolve((any SeamMotor).self) },
        ] as [() throws -> Void] {
            let error = try #require(frostError(resolve))
            #expect(error.code == .cycle)
            #expect(error.dependencyPath.contains(engine), "\(error.dependencyPath)")
            #expect(error.dependencyPath.contains(motor), "\(error.dependencyPath)")
        }
    }

    /// Resolving the forwarded type runs the instance's own `.onCreate` hook, which resolves
    /// the forwarded type again while the instance is being finished: it gets that same
    /// instance, not a false `.cycle` (the forward is on the path, the instance exists).
    @Test(arguments: DoorKind.allCases, [Scope.singleton, .graph])
    func aForwardResolvedFromTheInstancesOwnHookIsThatInstance(kind: DoorKind, scope: Scope)
        throws
    {
        let container = Container()
        let seen = DoorLocked<ObjectIdentifier?>(nil)
        container.register(SeamEngine.self) { _ in SeamEngine() }
            .scope(scope)
            .implements((any SeamMotor).self)
            .onCreate { r, _ in
                let motor = try r.resolve((any SeamMotor).self)
                seen.value = ObjectIdentifier(motor)
            }
        let host = try DoorHost.root(container, kind)

        let motor = Result { () throws(FrostError) in try host.resolveNow((any SeamMotor).self) }
        #expect(motor.doorCode == nil, "\(motor)")
        if case .success(let motor) = motor {
            #expect(seen.value == ObjectIdentifier(motor))
        }
    }
}
