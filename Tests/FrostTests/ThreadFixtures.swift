import Dispatch
import Foundation
import Frost
import Testing

// What the suites that resolve from many threads at once use: threads waited for with a
// bound (a deadlock is reported, never waited out), instances that know whether their deinit
// ran, and tallies of what the threads saw, behind locks the thread sanitizer can check.

/// Runs each body on a thread of its own and waits for all of them for at most `seconds`.
///
/// The wait suspends the test instead of blocking its thread: Swift Testing runs tests on the
/// cooperative pool, which has one thread per core, so a test blocked there for seconds starves
/// every async test running next to it (on a 2-core machine, two such tests stop them all).
///
/// - Returns: `false` when one was still running then (it is left behind: a deadlock).
func runOnThreads(within seconds: Int, _ bodies: [@Sendable () -> Void]) async -> Bool {
    let group = DispatchGroup()
    for body in bodies {
        group.enter()
        Thread {
            body()
            group.leave()
        }.start()
    }
    return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(
                returning: group.wait(timeout: .now() + .seconds(seconds)) == .success)
        }
    }
}

/// `runOnThreads(within:_:)` for a few bodies written as trailing closures.
func runOnThreads(
    within seconds: Int,
    _ first: @escaping @Sendable () -> Void,
    _ others: (@Sendable () -> Void)...
) async -> Bool {
    await runOnThreads(within: seconds, [first] + others)
}

/// An instance that knows whether its deinit ran: a flag in the instance, and its identity
/// in a global set of living instances (checked without touching its memory).
class Mortal: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var living = Set<ObjectIdentifier>()
    private let lock = NSLock()
    private var deinitialized = false

    init() {
        Self.lock.lock()
        Self.living.insert(ObjectIdentifier(self))
        Self.lock.unlock()
    }

    deinit {
        lock.lock()
        deinitialized = true
        lock.unlock()
        Self.lock.lock()
        Self.living.remove(ObjectIdentifier(self))
        Self.lock.unlock()
    }

    /// Whether `object` is registered as living (a freed one is not, unless its address was
    /// reused by a newer instance).
    static func isLiving(_ object: Mortal) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return living.contains(ObjectIdentifier(object))
    }

    /// Whether the deinit of this instance ran.
    var isDead: Bool {
        lock.lock()
        defer { lock.unlock() }
        return deinitialized
    }
}

/// What the threads of a use-after-free check saw.
final class MortalTally: @unchecked Sendable {
    private let lock = NSLock()
    private var deadCount = 0
    private var checkedCount = 0
    private var failures: [String] = []

    /// Counts `object`, and whether it was dead when the resolve returned it.
    func check(_ object: Mortal) {
        let dead = !Mortal.isLiving(object) || object.isDead
        lock.lock()
        checkedCount += 1
        if dead { deadCount += 1 }
        lock.unlock()
    }

    /// Records an error a resolve threw.
    func fail(_ error: any Error) {
        lock.lock()
        if failures.count < 10 { failures.append(String(describing: error)) }
        lock.unlock()
    }

    var dead: Int {
        lock.lock()
        defer { lock.unlock() }
        return deadCount
    }

    var checked: Int {
        lock.lock()
        defer { lock.unlock() }
        return checkedCount
    }

    var errors: [String] {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }
}

/// The objects threads resolved, by type, and how many resolves gave nothing.
final class ObjectsSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var identities: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    private var failures = 0

    /// Records a resolved object, or a failed resolve (`nil`).
    func record<T: AnyObject>(_ object: T?) {
        lock.lock()
        defer { lock.unlock() }
        guard let object else {
            failures += 1
            return
        }
        identities[ObjectIdentifier(T.self), default: []].insert(ObjectIdentifier(object))
    }

    /// The number of failed resolves.
    var missing: Int {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }

    /// The number of distinct instances of `type` seen.
    func distinct<T: AnyObject>(_ type: T.Type) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return identities[ObjectIdentifier(T.self)]?.count ?? 0
    }
}

/// How the resolves of several threads ended: the codes of the `FrostError`s, and successes.
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var errorCodes: [FrostError.Code] = []
    private var successCount = 0

    /// Runs `body` and records how it ended.
    func record(_ body: () throws -> Void) {
        let code: FrostError.Code?
        do {
            try body()
            code = nil
        } catch let error as FrostError {
            code = error.code
        } catch {
            code = .factoryFailed
        }
        lock.lock()
        if let code { errorCodes.append(code) } else { successCount += 1 }
        lock.unlock()
    }

    var codes: [FrostError.Code] {
        lock.lock()
        defer { lock.unlock() }
        return errorCodes
    }

    var successes: Int {
        lock.lock()
        defer { lock.unlock() }
        return successCount
    }
}

/// Collects what threads saw, behind a lock the sanitizer understands.
final class SeenInstances: @unchecked Sendable {
    private let lock = NSLock()
    private var identities = Set<ObjectIdentifier>()
    private var mismatchCount = 0

    func record(_ logger: any Logger) {
        lock.lock()
        identities.insert(ObjectIdentifier(logger))
        lock.unlock()
    }

    func recordMismatch() {
        lock.lock()
        mismatchCount += 1
        lock.unlock()
    }

    var distinct: Int {
        lock.lock()
        defer { lock.unlock() }
        return identities.count
    }

    var mismatches: Int {
        lock.lock()
        defer { lock.unlock() }
        return mismatchCount
    }
}
