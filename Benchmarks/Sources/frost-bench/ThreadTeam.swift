import Dispatch
import Foundation
import Synchronization

/// Threads that live as long as the benchmark and run a threaded case's operation together,
/// over the same stretch of wall time.
///
/// Two measured flaws of the first harness, `DispatchQueue.concurrentPerform` with a fixed
/// share of the work per thread, made 2-thread throughput look worse than it is:
/// - `concurrentPerform(iterations: 2)` ran both iterations one after the other on the calling
///   thread in about half of the samples of a few milliseconds (a pure arithmetic loop showed
///   1.0x or 2.0x at random);
/// - the two vCPUs of this shared machine often run at different speeds (one thread finished
///   its equal share in 24 ms, the other in 32 ms), and the faster one then idled while the
///   wall clock ran.
///
/// A team's workers are dedicated threads woken by a semaphore, and they do not get a fixed
/// share: they repeat the operation until the calling thread has done its iterations. Wall
/// time divided by every thread's operations is then the throughput of all threads at once.
final class ThreadTeam: @unchecked Sendable {
    // Safety of `@unchecked`: `job` is written by the caller of `run` only while no worker
    // reads it (before `start` is signalled, after every `done` was received); the semaphores
    // order those accesses. `stop` and `completed` are atomics.
    let size: Int
    private let start = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let stop = Atomic<Bool>(false)
    private let completed = Atomic<Int>(0)
    private var job: (@Sendable () -> Void)?

    /// Starts `size - 1` worker threads; the caller of ``run(iterations:_:)`` is the team's
    /// last member.
    ///
    /// - Parameter size: How many threads run each operation, at least 1.
    init(size: Int) {
        precondition(size >= 1, "a team has at least one thread")
        self.size = size
        for _ in 1..<size {
            // The team is kept for the whole process: its workers may retain it.
            let worker = Thread { [self] in
                while true {
                    start.wait()
                    job?()
                    done.signal()
                }
            }
            worker.start()
        }
    }

    /// Runs `chunk` on every thread of the team at once: the calling thread performs
    /// `iterations` operations, the workers keep performing them until it has.
    ///
    /// - Parameters:
    ///   - iterations: The operations the calling thread performs.
    ///   - chunk: Performs the given number of operations in a loop; the team checks whether
    ///     to stop between two chunks of about 1/100 of `iterations`.
    /// - Returns: The operations performed by all threads together.
    func run(iterations: Int, _ chunk: @escaping @Sendable (Int) -> Void) -> Int {
        let chunkSize = max(1, iterations / 100)
        stop.store(false, ordering: .relaxed)
        completed.store(0, ordering: .relaxed)
        job = { [self] in
            var count = 0
            while !stop.load(ordering: .relaxed) {
                chunk(chunkSize)
                count += chunkSize
            }
            completed.add(count, ordering: .relaxed)
        }
        for _ in 1..<size { start.signal() }
        var remaining = iterations
        while remaining > 0 {
            let count = min(chunkSize, remaining)
            chunk(count)
            remaining -= count
        }
        stop.store(true, ordering: .relaxed)
        for _ in 1..<size { done.wait() }
        job = nil
        return iterations + completed.load(ordering: .relaxed)
    }
}
