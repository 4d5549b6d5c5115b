import Foundation

/// The instances a container created and caches whose registrations have `.onDispose` hooks,
/// in the order their creation completed: `dispose()` runs the hooks in reverse (a dependency
/// after its users), once.
///
/// `@unchecked Sendable`: `work` and `done` are only touched under `lock` (NSLock: visible to
/// the thread sanitizer); hooks run after it is dropped.
final class Disposal: @unchecked Sendable {
    private let lock = NSLock()
    private var work: [@Sendable () -> Void] = []
    private var done = false

    /// Remembers the hook run of an instance whose creation just completed.
    func track(_ run: @escaping @Sendable () -> Void) {
        lock.lock()
        if !done { work.append(run) }
        lock.unlock()
    }

    /// Runs every remembered hook, last created first; only the first call does anything.
    func runOnce() {
        lock.lock()
        let runs = done ? [] : work
        done = true
        work = []
        lock.unlock()
        for run in runs.reversed() { run() }
    }
}
