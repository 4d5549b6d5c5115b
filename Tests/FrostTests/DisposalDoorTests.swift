import Foundation
import Frost
import Testing

/// Engine rule 7, "dispose closes a door once", in both containers and their children: when
/// `dispose()` begins the container stops handing out what it caches, without waiting for the
/// creations in flight; an instance whose creation finishes after that point is refused
/// (`.disposed`) and its `.onDispose` hooks run at once, exactly once; every caller of
/// `dispose()`, sync or awaited, first or later, returns only after the hooks of every
/// instance that existed when disposal began have run.
///
/// Each race is staged in a fixed order with gates (the factory or the hook waits until the
/// test lets it go), checks that it happened, and asserts nothing that depends on timing.
@Suite("Disposal closes a door once", .timeLimit(.minutes(1)))
struct DisposalDoorTests {
    /// What the container makes: a singleton, or a `.scoped` instance of a child.
    final class DoorValve: Sendable {}

    final class DoorFirst: Sendable {}
    final class DoorSecond: Sendable {}
    final class DoorThird: Sendable {}

    /// Where the instance lives: a root's singleton, disposed with the root, or a `.scoped`
    /// instance registered in the root and made in a child, disposed with the child.
    enum DoorLifetime: String, CaseIterable, CustomTestStringConvertible {
        case singleton
        case scoped

        var testDescription: String { rawValue }

        var scope: Scope { self == .singleton ? .singleton : .scoped }

        /// The container that makes and disposes the instance.
        func owner(of root: DoorHost) throws -> DoorHost {
            self == .singleton ? root : try root.child()
        }
    }

    // MARK: A creation that finishes after dispose() began

    /// The factory itself calls `dispose()` on the container that will own its instance (a
    /// factory may wait on the very caller of `dispose()`): disposal begins while the
    /// creation is in flight. The instance is not served, and its hook runs once, at once.
    @Test(arguments: DoorKind.allCases, DoorLifetime.allCases)
    func anInstanceWhoseCreationOutlivesTheStartOfDisposeIsRefusedAndDisposedAtOnce(
        kind: DoorKind, lifetime: DoorLifetime
    ) throws {
        let container = Container()
        let disposeFromFactory = DoorLocked<DoorHost?>(nil)
        let disposeReturnedInFactory = DoorGate()
        let hooks = DoorLocked(0)
        container.register(DoorValve.self) { _ in
            disposeFromFactory.value?.disposeNow()
            disposeReturnedInFactory.open()
            return DoorValve()
        }
        .scope(lifetime.scope)
        .onDispose { _ in hooks.change { $0 += 1 } }
        let owner = try lifetime.owner(of: try DoorHost.root(container, kind))
        disposeFromFactory.value = owner
        defer { disposeFromFactory.value = nil }  // the container holds the factory that holds it

        let outcome = Result { () throws(FrostError) in try owner.resolveNow(DoorValve.self) }
        #expect(disposeReturnedInFactory.isOpen, "dispose() did not return inside the factory")
        #expect(outcome.doorCode == .disposed, "an instance made after dispose() began was served")
        #expect(hooks.value == 1, "its .onDispose hook did not run at once, exactly once")
        owner.disposeNow()
        #expect(hooks.value == 1)
    }

    /// One thread's factory is still running when another thread calls `dispose()`, which
    /// returns without waiting for it; the factory then finishes. The resolve gets `.disposed`
    /// and the instance's hook has run, once, by the time it does.
    @Test(arguments: DoorLifetime.allCases)
    func anInstanceFinishedOnAnotherThreadAfterDisposeBeganIsRefusedAndDisposedAtOnce(
        lifetime: DoorLifetime
    ) async throws {
        let container = Container()
        let started = DoorGate()
        let release = DoorGate()
        let disposeReturned = DoorGate()
        let finishedAfterDispose = DoorGate()
        let hooks = DoorLocked(0)
        container.register(DoorValve.self) { _ in
            started.open()
            _ = release.wait()
            if disposeReturned.isOpen { finishedAfterDispose.open() }
            return DoorValve()
        }
        .scope(lifetime.scope)
        .onDispose { _ in hooks.change { $0 += 1 } }
        let owner = try lifetime.owner(of: try DoorHost.root(container, .frozen))

        let outcome = DoorLocked<Result<DoorValve, FrostError>?>(nil)
        let resolved = doorRunOnThread {
            outcome.value = Result { () throws(FrostError) in try owner.resolveNow(DoorValve.self) }
        }
        #expect(await started.passed(), "the factory never started")
        owner.disposeNow()
        disposeReturned.open()
        release.open()
        #expect(await resolved.passed(), "the resolve never returned")

        #expect(finishedAfterDispose.isOpen, "the race did not happen: dispose() came too late")
        #expect(outcome.value?.doorCode == .disposed, "an instance made after dispose() was served")
        #expect(hooks.value == 1, "its .onDispose hook did not run at once, exactly once")
        owner.disposeNow()
        #expect(hooks.value == 1)
    }

    /// An async factory is suspended when `await dispose()` begins (and returns: it does not
    /// wait for creations in flight); the factory then finishes. The awaited resolve gets
    /// `.disposed`, and the instance's hook has run, once, by the time it does.
    @Test(arguments: DoorKind.allCases, DoorLifetime.allCases)
    func anAsyncCreationFinishedAfterDisposeBeganIsRefusedAndDisposedAtOnce(
        kind: DoorKind, lifetime: DoorLifetime
    ) async throws {
        let container = Container()
        let started = DoorGate()
        let release = DoorGate()
        let disposeReturned = DoorGate()
        let finishedAfterDispose = DoorGate()
        let hooks = DoorLocked(0)
        container.register(DoorValve.self) { _ async in
            started.open()
            _ = await release.passed()
            if disposeReturned.isOpen { finishedAfterDispose.open() }
            return DoorValve()
        }
        .scope(lifetime.scope)
        .onDispose { _ in hooks.change { $0 += 1 } }
        let owner = try lifetime.owner(of: try DoorHost.root(container, kind))

        let creation = Task { () async -> Result<DoorValve, FrostError> in
            do throws(FrostError) {
                return .success(try await owner.resolveAwaited(DoorValve.self))
            } catch {
                return .failure(error)
            }
        }
        #expect(await started.passed(), "the factory never started")
        await owner.dispose()
        disposeReturned.open()
        release.open()
        let outcome = await creation.value

        #expect(finishedAfterDispose.isOpen, "the race did not happen: dispose() came too late")
        #expect(outcome.doorCode == .disposed, "an instance made after dispose() began was served")
        #expect(hooks.value == 1, "its .onDispose hook did not run at once, exactly once")
        await owner.dispose()
        #expect(hooks.value == 1)
    }

    // MARK: Every caller waits for the first caller's hooks

    /// How `dispose()` is called twice.
    enum DoorCalls: String, CaseIterable, Sendable {
        /// `await dispose()`, then, while its hook runs, `await dispose()` again.
        case awaitedThenAwaited
        /// The synchronous `dispose()` (which leaves the async hook to a task), then `await
        /// dispose()`.
        case synchronousThenAwaited
        /// Two `await dispose()` at the same moment.
        case twoAwaitedAtOnce
    }

    /// Two calls of `dispose()` on the container that owns an instance with a slow hook.
    struct DoorDisposals: Sendable, CustomTestStringConvertible {
        let lifetime: DoorLifetime
        let calls: DoorCalls

        static let all = DoorLifetime.allCases.flatMap { lifetime in
            DoorCalls.allCases.map { DoorDisposals(lifetime: lifetime, calls: $0) }
        }

        var testDescription: String { "\(calls.rawValue), \(lifetime.rawValue)" }
    }

    /// The instance's async hook waits until the test lets it go. The second caller of
    /// `dispose()` calls while the hook runs; the test waits until that caller is suspended
    /// inside the call (or has returned), then lets the hook finish. Every caller must return
    /// after the hook has finished.
    @Test(arguments: DoorKind.allCases, DoorDisposals.all)
    func everyCallerOfDisposeReturnsOnlyAfterTheFirstCallersHooksHaveRun(
        kind: DoorKind, disposals: DoorDisposals
    ) async throws {
        let lifetime = disposals.lifetime
        let calls = disposals.calls
        let container = Container()
        let hookStarted = DoorGate()
        let release = DoorGate()
        let hookFinished = DoorGate()
        container.register(DoorValve.self) { _ in DoorValve() }
            .scope(lifetime.scope)
            .onDispose { _ async in
                hookStarted.open()
                _ = await release.passed()
                hookFinished.open()
            }
        let owner = try lifetime.owner(of: try DoorHost.root(container, kind))
        _ = try owner.resolveNow(DoorValve.self)  // exists when disposal begins

        let executor = DoorExecutor()
        defer { executor.stop() }
        let entered = DoorLocked(0)
        /// Calls `await dispose()` on the executor; answers whether the hook had finished
        /// when the call returned, and whether it was running when the call was made.
        func caller() -> Task<(returnedAfterHook: Bool, calledDuringHook: Bool), Never> {
            Task(executorPreference: executor) {
                let calledDuringHook = hookStarted.isOpen && !hookFinished.isOpen
                entered.change { $0 += 1 }
                await owner.dispose()
                return (hookFinished.isOpen, calledDuringHook)
            }
        }

        var first: Task<(returnedAfterHook: Bool, calledDuringHook: Bool), Never>?
        let later: [Task<(returnedAfterHook: Bool, calledDuringHook: Bool), Never>]
        switch calls {
        case .awaitedThenAwaited:
            first = caller()
            #expect(await hookStarted.passed(), "the first dispose() never ran the hook")
            later = [caller()]
        case .synchronousThenAwaited:
            owner.disposeNow()
            #expect(await hookStarted.passed(), "the synchronous dispose() never ran the hook")
            later = [caller()]
        case .twoAwaitedAtOnce:
            later = [caller(), caller()]
        }
        let callers = later.count + (first == nil ? 0 : 1)
        let settled = await executor.idle { entered.value == callers }
        #expect(settled, "the callers never settled")
        #expect(hookStarted.isOpen && !hookFinished.isOpen, "the race did not happen")
        release.open()

        if let first {
            #expect(await first.value.returnedAfterHook, "the first dispose() returned early")
        }
        var returnedEarly = 0
        for call in later {
            let result = await call.value
            if case .awaitedThenAwaited = calls {
                #expect(result.calledDuringHook, "the race did not happen: the hook had finished")
            }
            if !result.returnedAfterHook { returnedEarly += 1 }
        }
        #expect(returnedEarly == 0, "a dispose() returned before the first caller's hook finished")
    }

    // MARK: A synchronous dispose() and async hooks

    /// A synchronous `dispose()` runs every hook once, newest first: the synchronous ones
    /// before the first async hook run before it returns, the rest (async ones included) in a
    /// task it starts, in order. The instance with the async hook is made by an async factory,
    /// as a server's is: by `bootstrap()` where there is one (the frozen container), by an
    /// awaited resolve otherwise; the instance made after it, by `bootstrap()` too.
    @Test(arguments: DoorKind.allCases)
    func aSynchronousDisposeRunsAsyncHooksOnceEachNewestFirst(kind: DoorKind) async throws {
        let container = Container()
        let journal = DoorLocked<[String]>([])
        let lastHookRan = DoorGate()
        container.register(DoorFirst.self) { _ in DoorFirst() }
            .scope(.singleton)
            .onDispose { _ in
                journal.change { $0.append("first") }
                lastHookRan.open()
            }
        container.register(DoorSecond.self) { _ async in DoorSecond() }
            .scope(.singleton)
            .onDispose { _ async in
                await Task.yield()
                journal.change { $0.append("second") }
            }
        container.register(DoorThird.self) { _ in DoorThird() }
            .scope(.singleton)
            .onDispose { _ in journal.change { $0.append("third") } }
        let host = try DoorHost.root(container, kind)
        _ = try host.resolveNow(DoorFirst.self)
        if let frozen = host.resolver as? FrozenContainer {
            try await frozen.bootstrap()  // DoorSecond (async ones first), then DoorThird
        } else {
            _ = try await host.resolveAwaited(DoorSecond.self)
        }
        _ = try host.resolveNow(DoorThird.self)

        host.disposeNow()
        #expect(journal.value.first == "third", "a synchronous hook before the async one waited")
        #expect(await lastHookRan.passed(), "the hooks after the async one never ran")
        #expect(journal.value == ["third", "second", "first"])
        host.disposeNow()
        await host.dispose()
        #expect(journal.value == ["third", "second", "first"], "a hook ran twice")
    }
}
