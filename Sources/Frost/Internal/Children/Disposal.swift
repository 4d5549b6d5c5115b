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

    /// Runs every remembered hook, newest first; only the first call does anything.
    func runOnce() {
        guard let newest = frost_cell_exchange(head.pointer, Self.closed), newest != Self.closed
        else { return }
        Self.walk(from: newest) { $0.run() }
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

    func run() {
        component.runDisposeHooks(on: instance)
    }
}
