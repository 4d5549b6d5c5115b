import Foundation

/// The singletons a frozen container made, in the order their creation completed (a singleton
/// after those it resolved): what a lifecycle integration starts in that order and stops in
/// reverse (``FrozenContainer/createdSingletons(of:)``).
///
/// It lists the singletons the container has now: an entry names the cell its singleton was
/// published in and the box published, and counts only while that cell still holds that box.
/// A singleton released by `releaseCachedInstances()` or `dispose()` is not listed, whoever
/// still holds it (the application, a `Lazy`, a handle), and nothing here keeps one alive or
/// forms a weak reference to it. The entries of released singletons are dropped as the log
/// grows: a container released and bootstrapped again and again keeps a log of about the size
/// of what it has.
///
/// `@unchecked Sendable`: `entries` is only touched under `lock` (NSLock: visible to the
/// thread sanitizer); singletons are made rarely. No instance is read or released under the
/// lock.
final class SingletonLog: @unchecked Sendable {
    private struct Entry {
        let component: Component
        /// Where the singleton was published (its container keeps the cell, as it keeps this
        /// log).
        let cell: Cell
        /// The box published: compared with what the cell holds, never read through.
        let box: UnsafeMutableRawPointer
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    /// How many entries may be kept before those of released singletons are dropped.
    private var pruneAt = 64

    /// Records a singleton whose creation just completed: `box`, published in `cell`.
    func record(_ component: Component, _ box: AnyObject, in cell: Cell) {
        let entry = Entry(
            component: component, cell: cell, box: Unmanaged.passUnretained(box).toOpaque())
        lock.withLock {
            if entries.count >= pruneAt {
                entries.removeAll { $0.cell.peek() != $0.box }
                pruneAt = max(64, 2 * entries.count)
            }
            entries.append(entry)
        }
    }

    /// The values of the singletons the container has now, oldest first.
    var values: [Any] {
        let entries = lock.withLock { self.entries }
        // A cell's newest entry only: a box freed and another published at the same address
        // must not list the new singleton at the old one's place.
        var newest: [UnsafeMutableRawPointer: Int] = [:]
        for (index, entry) in entries.enumerated() { newest[entry.cell.address] = index }
        var values: [Any] = []
        for (index, entry) in entries.enumerated() where newest[entry.cell.address] == index {
            // A protected read: the box stays alive until the value is copied out of it.
            guard let box = entry.cell.read(), box == entry.box else { continue }
            values.append(
                entry.component.value(
                    ofBox: Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue()))
        }
        return values
    }
}
