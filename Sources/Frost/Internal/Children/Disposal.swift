internal import CFrost

/// The instances a container created and caches whose registrations have `.onDispose` hooks,
/// newest first: a lock-free list headed by one of the container's cells. `dispose()` runs
/// their hooks newest first — in reverse order of completed creation, an instance's
/// dependencies after it — once.
///
/// A creation pushes its record with a compare-and-swap on the head; ``runOnce()`` swaps a
/// closed marker in and walks what it took, so a record pushed later is refused (its instance
/// was made in a container being disposed). No record is freed while the list is open, so a
/// push never meets a reused address. Records are released one by one, never through a chain
/// of `deinit`s, however long the list.
struct Disposal {
    /// A registration's `.onDispose` hooks, type-erased: run on the `Box` the engine tracked
    /// (a `WeakBox` for a `.weak` registration).
    struct Hooks: Sendable {
        /// Every hook, when none must be awaited; `nil` otherwise.
        let sync: (@Sendable (AnyObject) -> Void)?
        /// Every hook, in the order added, awaiting those that are async.
        let async: @Sendable (AnyObject) async -> Void
    }

    /// The cell whose pointer is the newest record (+1), ``closed``, or `nil`; it belongs to the
    /// container, which calls ``releaseRecords()`` before freeing it.
    let head: Cell

    /// What the head holds once the hooks ran (never released: the list's owner empties the
    /// head before freeing it).
    private static var closed: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(DisposedMarker.shared).toOpaque()
    }

    /// Remembers `instance` (a `Box`, or a `WeakBox` for a `.weak` registration) of
    /// `component`, whose creation just completed.
    func track(_ component: Component, _ instance: AnyObject) {
        let record = Unmanaged.passRetained(DisposalRecord(component, instance))
        while true {
            let newest = head.peek()
            if newest == Self.closed {
                record.release()
                return
            }
            record.takeUnretainedValue().next = newest
            if frost_cell_compare_exchange(head.pointer, newest, record.toOpaque()) != 0 { return }
        }
    }

    /// Runs every remembered hook, newest first; only the first call (of this and
    /// ``runOnceAsync()``) does anything. A synchronous caller cannot wait for an async hook:
    /// from the first one on, the hooks left run in order in a task this starts.
    func runOnce() {
        guard let newest = close() else { return }
        var current: UnsafeMutableRawPointer? = newest
        while let pointer = current {
            let record = Unmanaged<DisposalRecord>.fromOpaque(pointer)
            guard record.takeUnretainedValue().runsSynchronously else {
                let rest = Records(newest: pointer)
                Task { await Self.runAsync(from: rest.newest) }
                return
            }
            current = record.takeUnretainedValue().next
            record.takeUnretainedValue().runSync()
            record.release()
        }
    }

    /// Runs every remembered hook, newest first, awaiting the async ones; only the first call
    /// (of this and ``runOnce()``) does anything.
    func runOnceAsync() async {
        guard let newest = close() else { return }
        await Self.runAsync(from: newest)
    }

    /// Closes the list: its newest record, or `nil` when it was closed already or is empty.
    private func close() -> UnsafeMutableRawPointer? {
        guard let newest = frost_cell_exchange(head.pointer, Self.closed), newest != Self.closed
        else { return nil }
        return newest
    }

    /// Runs the hooks of the records from `newest` on, awaiting the async ones, releasing each
    /// record after its hooks.
    private static func runAsync(from newest: UnsafeMutableRawPointer) async {
        var current: UnsafeMutableRawPointer? = newest
        while let pointer = current {
            let record = Unmanaged<DisposalRecord>.fromOpaque(pointer).takeRetainedValue()
            current = record.next
            await record.runAsync()
        }
    }

    /// Records handed to the task that runs them (it releases them).
    private struct Records: @unchecked Sendable {
        // @unchecked: the list is closed; only the task reads it after this.
        let newest: UnsafeMutableRawPointer
    }

    /// Releases the records without running their hooks and empties the head: the owner is
    /// about to free the cell (no thread uses it any more).
    func releaseRecords() {
        guard let newest = head.peek() else { return }
        frost_cell_store_unshared(head.pointer, nil)
        if newest != Self.closed { Self.walk(from: newest) { _ in } }
    }

    /// Visits each record from `newest` on, releasing each after the visit.
    private static func walk(
        from newest: UnsafeMutableRawPointer, _ visit: (DisposalRecord) -> Void
    ) {
        var current: UnsafeMutableRawPointer? = newest
        while let pointer = current {
            let record = Unmanaged<DisposalRecord>.fromOpaque(pointer)
            current = record.takeUnretainedValue().next
            visit(record.takeUnretainedValue())
            record.release()
        }
    }
}

/// One instance whose `.onDispose` hooks a container's ``Disposal`` will run.
final class DisposalRecord {
    let component: Component
    /// Its `Box`, or for a `.weak` registration a `WeakBox` (whose instance may die first:
    /// then nothing runs).
    let instance: AnyObject
    /// The record pushed before this one (not retained: the list releases each record).
    var next: UnsafeMutableRawPointer?

    init(_ component: Component, _ instance: AnyObject) {
        self.component = component
        self.instance = instance
    }

    /// Whether no hook must be awaited.
    var runsSynchronously: Bool { component.disposal?.sync != nil }

    /// The hooks, when none must be awaited.
    func runSync() {
        component.disposal?.sync?(instance)
    }

    /// The hooks, awaiting the async ones.
    func runAsync() async {
        await component.disposal?.async(instance)
    }
}
