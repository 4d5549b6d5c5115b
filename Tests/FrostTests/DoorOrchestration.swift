import Foundation
import Frost
import Testing

// What the tests of disposal, children and the seams between the sync and the awaited paths
// use to stage a race in a fixed order: gates that threads and tasks wait at (every wait
// bounded), an executor that tells when its tasks are all suspended, and either container
// behind one face. Named `Door…` so that no other suite's fixture is shadowed.

/// The two containers: `Container` resolves through a dictionary, `FrozenContainer` through
/// its perfect-hash table.
enum DoorKind: String, CaseIterable, CustomTestStringConvertible {
    case dictionary
    case frozen

    var testDescription: String { rawValue }
}

/// A one-way gate that threads and tasks wait at until the test opens it. Every wait is
/// bounded: a scenario that goes wrong fails its checks instead of hanging.
final class DoorGate: @unchecked Sendable {
    // @unchecked: every stored property is touched under `condition` only (NSCondition: the
    // thread sanitizer can check it).
    private let condition = NSCondition()
    private var opened = false
    private var suspended: [Int: CheckedContinuation<Bool, Never>] = [:]
    private var waiters = 0

    /// Whether the gate is open.
    var isOpen: Bool {
        condition.lock()
        defer { condition.unlock() }
        return opened
    }

    /// Opens the gate: every waiter goes on, and later ones do not stop.
    func open() {
        condition.lock()
        opened = true
        let resumed = Array(suspended.values)
        suspended = [:]
        condition.broadcast()
        condition.unlock()
        for waiter in resumed { waiter.resume(returning: true) }
    }

    /// Blocks the calling thread until the gate opens, at most `seconds`: whether it opened.
    func wait(seconds: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !opened {
            if !condition.wait(until: deadline) { return opened }
        }
        return true
    }

    /// Suspends the calling task until the gate opens, at most `seconds`: whether it opened.
    func passed(seconds: Double = 20) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            condition.lock()
            if opened {
                condition.unlock()
                continuation.resume(returning: true)
                return
            }
            waiters += 1
            let waiter = waiters
            suspended[waiter] = continuation
            condition.unlock()
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                self.condition.lock()
                let late = self.suspended.removeValue(forKey: waiter)
                self.condition.unlock()
                late?.resume(returning: false)
            }
        }
    }
}

/// A value threads and tasks share, under an NSLock (which the thread sanitizer can check).
final class DoorLocked<Value>: @unchecked Sendable {
    // @unchecked: `stored` is touched under `lock` only.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    /// The value now.
    var value: Value {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }

    /// Changes the value under the lock.
    func change<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}

/// Runs the jobs of the tasks that prefer it (`Task(executorPreference:)`) on one thread of
/// its own, and tells when it has none to run: a task of its that has started and not
/// finished is then suspended, waiting for something another thread will do. That is how a
/// test knows, without a timing window, that a second `dispose()` is waiting inside the call.
final class DoorExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `running` and `stopped` are touched under `condition` only.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var running = false
    private var stopped = false

    init() {
        let thread = Thread { [self] in serve() }
        thread.name = "DoorExecutor"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.broadcast()
        condition.unlock()
    }

    /// Lets the thread end once no job is left.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func serve() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                running = true
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
                running = false
                condition.broadcast()
            } else if stopped {
                break
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }

    /// Waits until this executor has nothing queued or running while `ready` holds (it is
    /// checked with the executor idle, so the executor's tasks cannot change what it reads),
    /// at most `seconds`: whether that happened.
    func idle(seconds: Double = 20, when ready: @escaping @Sendable () -> Bool) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread { [self] in
                continuation.resume(returning: waitUntilIdle(seconds: seconds, when: ready))
            }.start()
        }
    }

    private func waitUntilIdle(seconds: Double, when ready: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !(jobs.isEmpty && !running && ready()) {
            if !condition.wait(until: deadline) { return jobs.isEmpty && !running && ready() }
        }
        return true
    }
}

/// Runs `body` on a thread of its own; the returned gate opens when it has returned.
func doorRunOnThread(_ body: @escaping @Sendable () -> Void) -> DoorGate {
    let done = DoorGate()
    Thread {
        body()
        done.open()
    }.start()
    return done
}

/// A container of either kind, as these tests drive it from any task or thread: resolve
/// (synchronously or awaited), dispose (either way), make children of the same kind.
struct DoorHost: @unchecked Sendable {
    // @unchecked: a `Container` is used by one task or thread at a time here, each step
    // ordered after the one before by a gate; a `FrozenContainer` is Sendable.
    let resolver: any Resolver
    private let disposeNowBody: () -> Void
    private let disposeAwaitedBody: () async -> Void
    private let childBody: (@escaping (Container) -> Void) throws -> DoorHost

    /// `container` itself (dictionary) or its frozen form.
    static func root(_ container: Container, _ kind: DoorKind) throws -> DoorHost {
        switch kind {
        case .dictionary: dictionary(container)
        case .frozen: frozen(try container.freeze())
        }
    }

    private static func dictionary(_ container: Container) -> DoorHost {
        DoorHost(
            resolver: container,
            disposeNowBody: { container.dispose() },
            disposeAwaitedBody: { await container.dispose() },
            childBody: { configure in dictionary(container.child { configure($0) }) }
        )
    }

    private static func frozen(_ frozen: FrozenContainer) -> DoorHost {
        DoorHost(
            resolver: frozen,
            disposeNowBody: { frozen.dispose() },
            disposeAwaitedBody: { await frozen.dispose() },
            childBody: { configure in self.frozen(try frozen.child { configure($0) }) }
        )
    }

    /// A child of the same kind, with the registrations `configure` makes.
    func child(_ configure: @escaping (Container) -> Void = { _ in }) throws -> DoorHost {
        try childBody(configure)
    }

    /// The synchronous `resolve`, callable from async code too.
    func resolveNow<T>(_ type: T.Type, name: String? = nil) throws(FrostError) -> T {
        try resolver.resolve(T.self, name: name)
    }

    /// The awaited `resolve`.
    func resolveAwaited<T>(_ type: T.Type) async throws(FrostError) -> T {
        try await resolver.resolve(T.self)
    }

    /// The synchronous `dispose()`, callable from async code too.
    func disposeNow() {
        disposeNowBody()
    }

    /// `await dispose()`.
    func dispose() async {
        await disposeAwaitedBody()
    }
}

extension Result where Failure == FrostError {
    /// The error's code, or `nil` for a success.
    var doorCode: FrostError.Code? {
        guard case .failure(let error) = self else { return nil }
        return error.code
    }
}
