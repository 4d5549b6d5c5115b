import Foundation
import Synchronization

/// What a container's `dispose()` runs, and how its callers wait (see `_Space+Disposal.swift`
/// for the door it closes).
enum Disposal {
    /// A registration's `.onDispose` hooks, type-erased: run on the `Box` the engine tracked
    /// (a `WeakBox` for a `.weak` registration). One object, which records refer to without
    /// retaining (the registration keeps it alive as long as its container).
    final class Hooks: Sendable {
        /// Every hook, when none must be awaited; `nil` otherwise.
        let sync: (@Sendable (AnyObject) -> Void)?
        /// Every hook, in the order added, awaiting those that are async.
        let async: @Sendable (AnyObject) async -> Void

        init(
            sync: (@Sendable (AnyObject) -> Void)?,
            async: @escaping @Sendable (AnyObject) async -> Void
        ) {
            self.sync = sync
            self.async = async
        }

        /// Runs the hooks that need no await; `false`, running nothing, when one must be
        /// awaited.
        func runSynchronously(on instance: AnyObject) -> Bool {
            guard sync != nil else { return false }
            sync!(instance)
            return true
        }
    }

    /// What a container's list head holds once its disposal began (never a record's address).
    static let closed: UInt = 1

    /// The container whose hooks the current task runs, if any: a `dispose()` of that
    /// container from one of its own hooks returns at once instead of waiting for itself.
    @TaskLocal static var running: ObjectIdentifier?

    /// Runs the hooks of an instance made after its container's disposal began, now: the
    /// synchronous ones here, the rest in a task started here.
    static func runNow(_ hooks: Hooks, on instance: AnyObject) {
        if hooks.runSynchronously(on: instance) { return }
        let sendable = UncheckedObject(instance)
        Task { await hooks.async(sendable.object) }
    }

    /// An instance handed to the task that runs its hooks.
    struct UncheckedObject: @unchecked Sendable {
        // @unchecked: the instance is what the hooks receive, as on any other path.
        let object: AnyObject

        init(_ object: AnyObject) { self.object = object }
    }

    // MARK: Waiting for another caller's disposal

    // The condition guards `suspended`; NSCondition, which the thread sanitizer understands.
    private static let condition = NSCondition()
    nonisolated(unsafe) private static var suspended:
        [ObjectIdentifier: [CheckedContinuation<Void, Never>]] = [:]

    /// Blocks until `space`'s disposal is done.
    static func wait(for space: _Space) {
        condition.withLock {
            guard space.markWaited() else { return }
            while !space.isDisposalDone { condition.wait() }
        }
    }

    /// Suspends until `space`'s disposal is done.
    nonisolated(nonsending)
        static func waitAwaiting(for space: _Space) async
    {
        await withCheckedContinuation { continuation in
            let done = condition.withLock {
                guard space.markWaited() else { return true }
                suspended[ObjectIdentifier(space), default: []].append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Wakes whoever waits for `space`'s disposal, which is done.
    static func wake(_ space: _Space) {
        let resumed = condition.withLock {
            defer { condition.broadcast() }
            return suspended.removeValue(forKey: ObjectIdentifier(space)) ?? []
        }
        for continuation in resumed { continuation.resume() }
    }
}

/// One instance whose `.onDispose` hooks a container's disposal will run.
final class DisposalRecord {
    /// The registration's hooks, not retained (kept alive by the registration, which its
    /// container keeps while the record exists).
    let unretainedHooks: Unmanaged<Disposal.Hooks>
    /// Its `Box`, or for a `.weak` registration a `WeakBox` (whose instance may die first:
    /// then nothing runs, and the record may be pruned).
    let instance: AnyObject
    /// Whether `instance` is a `WeakBox`.
    let isWeak: Bool
    /// The record pushed before this one (not retained: the list releases each record).
    var next: UnsafeMutableRawPointer?

    init(hooks: Unmanaged<Disposal.Hooks>, instance: AnyObject, isWeak: Bool) {
        unretainedHooks = hooks
        self.instance = instance
        self.isWeak = isWeak
    }

    /// Runs the hooks that need no await on its instance; `false`, running nothing, when one
    /// must be awaited.
    func runSynchronously() -> Bool {
        unretainedHooks._withUnsafeGuaranteedRef { $0.runSynchronously(on: instance) }
    }

    /// Whether its instance is gone (a dead weak reference).
    var isDead: Bool {
        isWeak && unsafeDowncast(instance, to: WeakBox.self).object == nil
    }
}
