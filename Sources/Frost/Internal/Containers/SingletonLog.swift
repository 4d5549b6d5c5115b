import Foundation

/// The singletons a frozen container made, in the order their creation completed (a singleton
/// after those it resolved): what a lifecycle integration starts in that order and stops in
/// reverse (``FrozenContainer/createdSingletons(of:)``).
///
/// It holds the instances weakly: a singleton released by `releaseCachedInstances()` or
/// `dispose()` is not kept alive by its entry.
///
/// `@unchecked Sendable`: `entries` is only touched under `lock` (NSLock: visible to the
/// thread sanitizer); singletons are made rarely.
final class SingletonLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(component: Component, box: WeakBox)] = []

    /// Records a singleton whose creation just completed, with its box.
    func record(_ component: Component, _ box: AnyObject) {
        let entry = (component, WeakBox(box))
        lock.withLock { entries.append(entry) }
    }

    /// The values of the singletons still alive, oldest first.
    var values: [Any] {
        let entries = lock.withLock { self.entries }
        return entries.compactMap { entry in
            entry.box.object.map { entry.component.value(ofBox: $0) }
        }
    }
}
