import Foundation
import Synchronization

/// Disposal closes a door once (DESIGN.md, engine rule 7).
///
/// The instances a container made and keeps whose registrations have `.onDispose` hooks are
/// pushed, as their creation completes, on a lock-free list headed by ``_Space/disposalHead``
/// (newest first: a dependency after its users). `dispose()`:
/// 1. marks the container disposed (``_Space/disposalPhase``): from then on it hands out
///    nothing it keeps, and an instance whose creation finishes afterwards is not served (the
///    resolve gets `.disposed`) — ``admit(_:of:in:)``, called as each creation publishes;
/// 2. closes the list (swaps ``Disposal/closed`` in) and runs the hooks of what it took,
///    newest first; a record pushed later is refused, and its creation runs its hooks at once;
/// 3. lets go of the instances it keeps, then marks the disposal done and wakes every other
///    caller of `dispose()`, sync or awaited, which waited for it.
///
/// It never waits for creations in flight (a factory may be waiting on the very caller of
/// `dispose()`). Records are released one by one, never through a chain of `deinit`s. The
/// records of `.weak` instances that died are pruned as new ones come, so a registration whose
/// instances come and go keeps a record per living instance only.
extension _Space {
    /// Instances taken out of this container's cells, kept until no thread reads them.
    final var retired: RetiredInstances { retiredStorage.get(RetiredInstances.init) }

    // MARK: The door

    /// Takes `box` over — just published in `cell` by a creation of `component` — for
    /// `dispose()`: remembered when its registration has hooks. When this container's
    /// disposal began meanwhile, the box is not served: it is taken back out of its cell, its
    /// hooks run now (when the disposal could not take it), and this returns `false` (the
    /// resolve throws ``disposedError(_:)``). `component` is not retained: its container keeps
    /// it.
    final func admit(_ box: AnyObject, of component: Unmanaged<Component>, in cell: Cell) -> Bool {
        let (hooks, weak) = component._withUnsafeGuaranteedRef {
            ($0.disposal.map(Unmanaged.passUnretained), $0.lifetime.keepsWeakly)
        }
        if let hooks, !track(box, hooks: hooks, weak: weak) {
            takeBack(box, from: cell)
            Disposal.runNow(hooks.takeUnretainedValue(), on: box)
            return false
        }
        guard isDisposed else { return true }
        takeBack(box, from: cell)
        return false
    }

    /// The error of a resolve whose instance of `component` was not admitted.
    final func disposedError(_ component: Component) -> FrostError {
        FrostError(.disposed, key: component.key, path: ResolveContext.current.path(to: component))
    }

    /// Takes `box` back out of `cell`, if it is still there, for no later resolve to read.
    private final func takeBack(_ box: AnyObject, from cell: Cell) {
        if cell.take(ifHolding: Unmanaged.passUnretained(box).toOpaque()) {
            retired.retire(Unmanaged.passUnretained(box).toOpaque(), from: cell)
        }
    }

    /// Pushes a record of `instance`; `false`, pushing nothing, once the list is closed.
    private final func track(
        _ instance: AnyObject, hooks: Unmanaged<Disposal.Hooks>, weak: Bool
    ) -> Bool {
        let record = Unmanaged.passRetained(
            DisposalRecord(hooks: hooks, instance: instance, isWeak: weak))
        while true {
            let newest = disposalHead.load(ordering: .sequentiallyConsistent)
            if newest == Disposal.closed {
                record.release()
                return false
            }
            record.takeUnretainedValue().next = UnsafeMutableRawPointer(bitPattern: newest)
            let desired = UInt(bitPattern: record.toOpaque())
            if disposalHead.compareExchange(
                expected: newest, desired: desired, ordering: .sequentiallyConsistent
            ).exchanged {
                break
            }
        }
        if weak {
            let count = weakRecords.add(1, ordering: .relaxed).newValue
            if count > 64, count > 2 * weakRecordsAlive.load(ordering: .relaxed) {
                pruneDeadRecords()
            }
        }
        return true
    }

    /// Unlinks the records of `.weak` instances that died (never the newest record: pushes
    /// swap only the head). Serialized with itself and with the disposal's walk.
    private final func pruneDeadRecords() {
        let dead = pruning.get(NSLock.init).withLock { () -> [Unmanaged<DisposalRecord>] in
            let head = disposalHead.load(ordering: .sequentiallyConsistent)
            guard head != 0, head != Disposal.closed else { return [] }
            var dead: [Unmanaged<DisposalRecord>] = []
            var alive = 0
            var previous = Unmanaged<DisposalRecord>.fromOpaque(
                UnsafeRawPointer(bitPattern: head)!)
            while let pointer = previous.takeUnretainedValue().next {
                let record = Unmanaged<DisposalRecord>.fromOpaque(pointer)
                if record.takeUnretainedValue().isDead {
                    previous.takeUnretainedValue().next = record.takeUnretainedValue().next
                    dead.append(record)
                } else {
                    if record.takeUnretainedValue().isWeak { alive += 1 }
                    previous = record
                }
            }
            weakRecords.store(alive + 1, ordering: .relaxed)
            weakRecordsAlive.store(alive + 1, ordering: .relaxed)
            return dead
        }
        // Unlinked: no one reaches them any more. Released after the lock.
        for record in dead { record.release() }
    }

    // MARK: Disposing

    /// The synchronous `dispose()`: see the type's comment. A synchronous caller cannot await
    /// a hook: from the first async hook on, the hooks left run, in order, in a task; the
    /// caller waits for that task unless it runs in a task itself (blocking a task's thread
    /// could starve the very task it waits for), in which case the disposal ends when the task
    /// does. A later caller waits until the disposal is done — unless it is one of this
    /// container's own hooks, which would wait for itself.
    final func runDisposal() {
        guard begin() else {
            if Disposal.running != ObjectIdentifier(self), !isDisposingThread {
                Disposal.wait(for: self)
            }
            return
        }
        disposingThread.store(Self.currentThread, ordering: .relaxed)
        var current = closeList()
        while let pointer = current {
            let record = Unmanaged<DisposalRecord>.fromOpaque(pointer)
            let ran = record._withUnsafeGuaranteedRef { $0.runSynchronously() }
            guard ran else {
                disposingThread.store(0, ordering: .relaxed)
                finishInTask(from: pointer)
                return
            }
            current = record._withUnsafeGuaranteedRef { $0.next }
            record.release()
        }
        disposingThread.store(0, ordering: .relaxed)
        end()
    }

    /// Runs the hooks from the record at `pointer` on in a task, then ends the disposal; the
    /// caller waits for it when it does not run in a task itself.
    private final func finishInTask(from pointer: UnsafeMutableRawPointer) {
        let start = UInt(bitPattern: pointer)
        let task = Task {
            await self.runHooksAwaiting(from: start)
            self.end()
        }
        guard withUnsafeCurrentTask(body: { $0 == nil }) else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            await task.value
            done.signal()
        }
        done.wait()
    }

    /// The awaited `dispose()`: see the type's comment; every hook is awaited, and a later
    /// caller suspends until the disposal is done. Synchronous hooks run on the caller's
    /// executor without suspending; only an async hook makes it suspend.
    nonisolated(nonsending)
        final func runDisposalAwaiting() async
    {
        guard begin() else {
            if Disposal.running != ObjectIdentifier(self) { await Disposal.waitAwaiting(for: self) }
            return
        }
        var current = closeList()
        while let pointer = current {
            let record = Unmanaged<DisposalRecord>.fromOpaque(pointer)
            let ran = record._withUnsafeGuaranteedRef { $0.runSynchronously() }
            guard ran else {
                await runHooksAwaiting(from: UInt(bitPattern: pointer))
                break
            }
            current = record._withUnsafeGuaranteedRef { $0.next }
            record.release()
        }
        end()
    }

    /// Runs the hooks of the records from the one at address `newest` on, newest first,
    /// awaiting the async ones, as this container's own hooks (a `dispose()` they call returns
    /// at once), releasing each record after its hooks.
    private final func runHooksAwaiting(from newest: UInt) async {
        await Disposal.$running.withValue(ObjectIdentifier(self)) {
            var current = UnsafeMutableRawPointer(bitPattern: newest)
            while let pointer = current {
                let record = Unmanaged<DisposalRecord>.fromOpaque(pointer).takeRetainedValue()
                current = record.next
                if !record.runSynchronously() {
                    await record.unretainedHooks.takeUnretainedValue().async(record.instance)
                }
            }
        }
    }

    /// Marks the disposal begun; `false` when another caller began it.
    private final func begin() -> Bool {
        let began = disposalPhase.compareExchange(
            expected: Phase.open, desired: Phase.disposing, ordering: .sequentiallyConsistent
        ).exchanged
        // A root's handle no longer lends what it holds without a check: it resolves, and
        // gets `.disposed`.
        if began { cacheEpoch.add(1, ordering: .sequentiallyConsistent) }
        return began
    }

    /// Closes the list: its newest record (the list is the caller's now), or `nil` when it is
    /// empty. Waits for a prune in progress.
    private final func closeList() -> UnsafeMutableRawPointer? {
        let newest = disposalHead.exchange(Disposal.closed, ordering: .sequentiallyConsistent)
        // A prune in progress ends before the list is walked.
        pruning.ifMade?.withLock {}
        return UnsafeMutableRawPointer(bitPattern: newest)
    }

    /// Lets go of the instances this container keeps, marks the disposal done, and wakes the
    /// callers waiting for it.
    private final func end() {
        releaseAfterDisposal()
        let before = disposalPhase.exchange(Phase.done, ordering: .sequentiallyConsistent)
        if before == Phase.disposingAndWaited { Disposal.wake(self) }
    }

    /// Marks the disposal waited for (under ``Disposal``'s lock); `false` when it is done.
    final func markWaited() -> Bool {
        let (exchanged, original) = disposalPhase.compareExchange(
            expected: Phase.disposing, desired: Phase.disposingAndWaited,
            ordering: .sequentiallyConsistent)
        return exchanged || original == Phase.disposingAndWaited
    }

    /// Whether the calling thread is running this container's synchronous hooks.
    private final var isDisposingThread: Bool {
        disposingThread.load(ordering: .relaxed) == Self.currentThread
    }

    /// The calling thread, as a number.
    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// How many records the disposal list holds (0 once it is closed): for tests.
    final var disposalRecordCount: Int {
        pruning.get(NSLock.init).withLock {
            let head = disposalHead.load(ordering: .sequentiallyConsistent)
            guard head != 0, head != Disposal.closed else { return 0 }
            var count = 0
            var current = UnsafeMutableRawPointer(bitPattern: head)
            while let pointer = current {
                count += 1
                current = Unmanaged<DisposalRecord>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
                    $0.next
                }
            }
            return count
        }
    }

    /// Releases the records without running their hooks: the container is going away.
    final func releaseDisposalRecords() {
        let newest = disposalHead.exchange(0, ordering: .relaxed)
        guard newest != 0, newest != Disposal.closed else { return }
        var current = UnsafeMutableRawPointer(bitPattern: newest)
        while let pointer = current {
            let record = Unmanaged<DisposalRecord>.fromOpaque(pointer)
            current = record.takeUnretainedValue().next
            record.release()
        }
    }

    // MARK: Releasing

    /// Drops what `dispose()` lets go of at once: every kept instance, registered ones too (the
    /// fast path then finds nothing, and the slow one refuses). A child's per-child values go
    /// with the child (no resolve can be reading them then): `dispose()` costs a child no more
    /// than its hooks.
    final func releaseAfterDisposal() {
        guard !isChild || !components.isEmpty || overrides != nil else { return }
        releaseCachedInstances(includingRegistered: true, perChild: !isChild)
    }

    /// Drops the cached instances (and the registered ones, when `includingRegistered`), and
    /// a child's per-child ones if `perChild`; empties custom storages.
    final func releaseCachedInstances(includingRegistered: Bool, perChild: Bool) {
        // Before any cell is emptied, and again once all are (below): a root's handle made
        // before this release, or while it runs, stops lending what it holds.
        cacheEpoch.add(1, ordering: .sequentiallyConsistent)
        defer { cacheEpoch.add(1, ordering: .sequentiallyConsistent) }
        var taken: [(instance: UnsafeMutableRawPointer, cell: Cell)] = []
        var storages: [ObjectIdentifier: any ScopeStorage] = [:]
        func take(_ component: Component, _ cell: Cell, _ weakCell: Cell?) {
            if let storage = component.scope.storage {
                storages[ObjectIdentifier(storage)] = storage
                return
            }
            // A registered instance is the application's: let go of only when disposing.
            let released =
                component.instance != nil
                ? (includingRegistered ? cell : nil)
                : component.lifetime.releasedCell(cell, weakCell: weakCell)
            if let released, let instance = released.take() {
                taken.append((instance, released))
            }
        }
        for slot in 0..<UInt32(lookup.capacity) {
            guard let index = lookup.inputIndex(of: slot) else { continue }
            take(
                components[index], ownCell(at: slot), weakCells?.advanced(by: Int(slot)))
        }
        for (index, component) in (overrides?.components ?? []).enumerated() {
            let cells = cells.override(index)
            take(component, cells.cell, cells.weakCell)
        }
        if isChild, perChild {
            // `.scoped` instances; provided values are the application's (dropped when
            // disposing).
            let provided = includingRegistered ? [] : providedIndices
            for index in 0..<cells.perChildCount where !provided.contains(index) {
                let cell = cells.perChild(index)
                if let instance = cell.take() { taken.append((instance, cell)) }
            }
        }
        // Also tries again what an earlier call had to keep.
        if !taken.isEmpty {
            retired.retire(taken)
        } else {
            retiredStorage.ifMade?.retire([])
        }
        // The application's code: no lock is held.
        for storage in storages.values { storage.removeAll() }
    }
}
