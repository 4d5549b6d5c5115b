import Foundation

/// Instances taken out of their cells (by `releaseCachedInstances()`, or a dead weak
/// reference's replaced box) that another thread might still be reading: each is released only
/// once no thread's hazard pointer names the cell it was taken from (CFrost's reclamation). One
/// per container.
///
/// `@unchecked Sendable`: `kept` is only touched under `lock` (NSLock: visible to the thread
/// sanitizer); releasing happens after the lock is dropped, since a release can run a deinit.
final class RetiredInstances: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [(instance: UnsafeMutableRawPointer, cell: Cell)] = []

    /// Adds `taken` (+1 references, each with the cell it was taken from) to the instances
    /// kept so far, and releases every one of them that no thread can be reading any more.
    func retire(_ taken: [(instance: UnsafeMutableRawPointer, cell: Cell)]) {
        let free = lock.withLock {
            let (stillRead, free) = Cell.partitionByReaders(kept + taken)
            kept = stillRead
            return free
        }
        for instance in free { Unmanaged<AnyObject>.fromOpaque(instance).release() }
    }

    /// Adds one taken instance; reclaims when enough have gathered (a weak registration whose
    /// instances come and go must not grow this list for ever).
    func retire(_ instance: UnsafeMutableRawPointer, from cell: Cell) {
        let due = lock.withLock {
            kept.append((instance, cell))
            return kept.count >= 64
        }
        if due { retire([]) }
    }

    deinit {
        // The container is gone: no resolve can read its cells' instances any more.
        for (instance, _) in kept { Unmanaged<AnyObject>.fromOpaque(instance).release() }
    }
}
