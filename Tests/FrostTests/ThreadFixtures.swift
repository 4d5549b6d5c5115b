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

/// The witness of a race: it tells whether the parties of a race were in flight at the same
/// moment, so that a race test checks that its race happened instead of passing without one.
///
/// Each party marks the span of its racing call with `during` (`duringAwaited`); the witness keeps the most that
/// were in flight at once (`peak`). A factory or a hook can hold its work open until enough
/// parties are in flight (`waitForPeak`, bounded: a race that does not come fails the test's
/// checks, it never hangs it). Threads can start together at a `barrier`. A release of cached
/// instances marked with `releasing` is counted against the calls in flight: `overlapped` is
/// the number of calls during which a release ran.
final class RaceWitness: @unchecked Sendable {
    // @unchecked: every stored property is touched under `condition` only (NSCondition: the
    // thread sanitizer can check it).
    private let condition = NSCondition()
    private var arrived = 0
    private var current = 0
    private var highest = 0
    private var releasesStarted = 0
    private var releasesFinished = 0
    private var overlaps = 0
    private var waiters = 0
    private var suspended: [Int: (count: Int, continuation: CheckedContinuation<Bool, Never>)] =
        [:]

    /// The most calls that were in flight at one moment.
    var peak: Int {
        condition.lock()
        defer { condition.unlock() }
        return highest
    }

    /// The number of calls during which a release ran (it began before the call ended and
    /// ended after the call began).
    var overlapped: Int {
        condition.lock()
        defer { condition.unlock() }
        return overlaps
    }

    /// The number of releases that ran.
    var releases: Int {
        condition.lock()
        defer { condition.unlock() }
        return releasesFinished
    }

    /// Blocks until `parties` threads have arrived here, at most `seconds`: whether they all
    /// did. Threads that pass it start their race together.
    func barrier(_ parties: Int, seconds: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        while arrived < parties {
            if !condition.wait(until: deadline) { return arrived >= parties }
        }
        return true
    }

    /// Runs `body` as a call in flight.
    func during<R>(_ body: () throws -> R) rethrows -> R {
        let releasedBefore = enter()
        defer { leave(releasedBefore) }
        return try body()
    }

    /// Runs the async `body` as a call in flight.
    func duringAwaited<R>(_ body: () async throws -> R) async rethrows -> R {
        let releasedBefore = enter()
        defer { leave(releasedBefore) }
        return try await body()
    }

    /// Runs `release` (a `releaseCachedInstances()`) as a release in flight.
    func releasing(_ release: () -> Void) {
        condition.lock()
        releasesStarted += 1
        condition.unlock()
        release()
        condition.lock()
        releasesFinished += 1
        condition.unlock()
    }

    /// Whether a loop that races calls against releases goes on: until `deadline`, and past it
    /// while no call has overlapped a release yet, until `lastChance`.
    func goesOn(until deadline: DispatchTime, orWithoutOverlapUntil lastChance: DispatchTime)
        -> Bool
    {
        let now = DispatchTime.now()
        return now < deadline || (overlapped == 0 && now < lastChance)
    }

    /// Blocks until `count` calls have been in flight at one moment, at most `seconds`:
    /// whether they were.
    func waitForPeak(_ count: Int, seconds: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while highest < count {
            if !condition.wait(until: deadline) { return highest >= count }
        }
        return true
    }

    /// Suspends until `count` calls have been in flight at one moment, at most `seconds`:
    /// whether they were.
    func peakReached(_ count: Int, seconds: Double = 20) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            condition.lock()
            if highest >= count {
                condition.unlock()
                continuation.resume(returning: true)
                return
            }
            waiters += 1
            let waiter = waiters
            suspended[waiter] = (count, continuation)
            condition.unlock()
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                self.condition.lock()
                let late = self.suspended.removeValue(forKey: waiter)
                self.condition.unlock()
                late?.continuation.resume(returning: false)
            }
        }
    }

    /// Counts a call in; answers the releases finished before it began.
    private func enter() -> Int {
        condition.lock()
        current += 1
        highest = max(highest, current)
        let releasedBefore = releasesFinished
        let reached = suspended.filter { $0.value.count <= highest }
        for key in reached.keys { suspended[key] = nil }
        condition.broadcast()
        condition.unlock()
        for waiter in reached.values { waiter.continuation.resume(returning: true) }
        return releasedBefore
    }

    /// Counts a call out, and whether a release ran during it.
    private func leave(_ releasedBefore: Int) {
        condition.lock()
        current -= 1
        if releasesStarted > releasedBefore { overlaps += 1 }
        condition.unlock()
    }
}
