import Foundation

/// The singletons a frozen container made, in the order their creation completed (a singleton
/// after those it resolved): what a lifecycle integration starts in that order and stops in
/// reverse (``FrozenContainer/createdSingletons(of:)``).
///
/// It holds the instances weakly: a singleton released by `releaseCachedInstances()` or
/// `dispose()` is not kept alive by its entry, and the entries of dead ones are dropped as the
/// log grows (a container released and bootstrapped again and again keeps a log of about the
/// size of what is alive).
///
/// `@unchecked Sendable`: `entries` is only touched under `lock` (NSLock: visible to the
/// thread sanitizer); singletons are made rarely.
final class SingletonLog: @unchecked Sendable {
    private struct Entry {
        let component: Component
        /// The singleton's box (a weak reference of its own: no object around it).
        weak var box: AnyObject?
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    /// How many entries may be kept before the dead ones are dropped.
    private var pruneAt = 64

    /// Records a singleton whose creation just completed, with its box.
    func record(_ component: Component, _ box: AnyObject) {
        lock.withLock {
            if entries.count >= pruneAt {
                entries.removeAll { $0.box == nil }
                pruneAt = max(64, 2 * entries.count)
            }
            entries.append(Entry(component: component, box: box))
        }
    }

    /// The values of the singletons still alive, oldest first.
    var values: [Any] {
        let entries = lock.withLock { self.entries }
        return entries.compactMap { entry in
            entry.box.map { entry.component.value(ofBox: $0) }
        }
    }
}
