import AllocationCounter
import Dispatch

/// Keeps a value alive and observable so the optimizer cannot remove the work that made it:
/// never inlined, never optimized, so the caller must materialize every value it is given.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// One contender's run of a case: `body(n)` performs about `n` operations and returns how
/// many it performed.
struct Run {
    let contender: Contender
    /// Scales the case's iteration count for this contender (Swinject and swift-dependencies
    /// are 30-100x slower: they run fewer iterations so that a sample takes about as long).
    let scale: Double
    /// Performs about `n` operations; returns how many, and the nanoseconds they took when the
    /// run times itself (`nil`: the harness times the call).
    let body: (Int) -> (operations: Int, nanoseconds: UInt64?)

    /// A run whose `body(n)` performs exactly `n` operations.
    init(_ contender: Contender, scale: Double? = nil, body: @escaping (Int) -> Void) {
        self.init(
            contender, scale: scale,
            measuredBody: { n in
                body(n)
                return (n, nil)
            })
    }

    /// A run whose `body(n)` performs about `n` operations and returns how many (a threaded
    /// run's workers count theirs).
    static func counting(
        _ contender: Contender,
        scale: Double? = nil,
        body: @escaping (Int) -> Int
    ) -> Run {
        Run(contender, scale: scale, measuredBody: { n in (body(n), nil) })
    }

    /// A run whose `body(n)` performs exactly `n` operations and returns the nanoseconds they
    /// took by its own clock: the time a child process measured inside itself, without the
    /// cost of starting it.
    static func selfTimed(
        _ contender: Contender,
        scale: Double? = nil,
        body: @escaping (Int) -> UInt64
    ) -> Run {
        Run(contender, scale: scale, measuredBody: { n in (n, body(n)) })
    }

    private init(
        _ contender: Contender,
        scale: Double?,
        measuredBody: @escaping (Int) -> (operations: Int, nanoseconds: UInt64?)
    ) {
        self.contender = contender
        self.scale = scale ?? (contender == .swinject || contender == .dependencies ? 0.05 : 1)
        self.body = measuredBody
    }
}

/// The contenders, in table order.
enum Contender: String, CaseIterable, Sendable {
    case handWritten = "hand-written"
    case frozen
    case dictionary
    case swinject
    /// pointfreeco/swift-dependencies.
    case dependencies = "swift-dependencies"
}

/// A benchmark case: the operation each applicable contender performs.
struct BenchCase {
    let name: String
    /// What one operation is, for the table.
    let unit: String
    /// Operations per sample (scaled down by `--quick`).
    let iterations: Int
    let runs: [Run]

    /// How many times `run` repeats its operation in one sample (`scale` shrinks a `--quick` run).
    func iterations(of run: Run, scale: Double) -> Int {
        max(1, Int(Double(iterations) * scale * run.scale))
    }
}

/// Runs every contender of `benchCase` in turn for about `seconds`, unmeasured: the first case
/// of a process otherwise pays for the machine waking up (its hand-written and frozen runs
/// were up to 1.4x slower than the same operations measured later in the run).
func warmUp(_ benchCase: BenchCase, seconds: Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    while Double(DispatchTime.now().uptimeNanoseconds - start) < seconds * 1e9 {
        for run in benchCase.runs {
            _ = run.body(max(1, benchCase.iterations(of: run, scale: 1) / 10))
        }
    }
}

/// What one case measured: the median ns/op of each contender, and the median number of blocks
/// it allocated per operation (counted in this process: not for a run timed in a child
/// process, nor where allocations are not counted).
struct Measured {
    var timings: [Contender: Double]
    var allocations: [Contender: Double]
}

/// The median ns/op and allocations/op of every contender of every case of `group`, measured
/// interleaved: each round runs every contender of every case once, so drift of this shared
/// machine hits all of them alike. A group is one case, or the cases a target compares with
/// each other (threads-1 with threads-2, a singleton among 10 with one among 100,000
/// registrations).
func measure(_ group: [BenchCase], rounds: Int, scale: Double) -> [Measured] {
    for benchCase in group {  // warm-up
        for run in benchCase.runs {
            _ = run.body(max(1, benchCase.iterations(of: run, scale: scale) / 10))
        }
    }
    var samples = [[Contender: [Double]]](repeating: [:], count: group.count)
    for _ in 0..<rounds {
        for (index, benchCase) in group.enumerated() {
            for run in benchCase.runs {
                let count = benchCase.iterations(of: run, scale: scale)
                let start = DispatchTime.now().uptimeNanoseconds
                let (operations, ownTime) = run.body(count)
                let end = DispatchTime.now().uptimeNanoseconds
                let elapsed = ownTime ?? end - start
                samples[index][run.contender, default: []].append(
                    Double(elapsed) / Double(operations))
            }
        }
    }
    // Allocations in one more run of each, counted: the timed rounds ran with counting off.
    var allocations = [[Contender: Double]](repeating: [:], count: group.count)
    if frost_bench_counts_allocations() != 0 {
        for (index, benchCase) in group.enumerated() {
            for run in benchCase.runs {
                let count = benchCase.iterations(of: run, scale: scale)
                frost_bench_count_allocations(1)
                let allocated = frost_bench_allocations()
                let (operations, ownTime) = run.body(count)
                let blocks = frost_bench_allocations() - allocated
                frost_bench_count_allocations(0)
                guard ownTime == nil else { continue }  // made in a child process
                allocations[index][run.contender] = Double(blocks) / Double(operations)
            }
        }
    }
    return zip(samples, allocations).map { timings, allocations in
        Measured(
            timings: timings.mapValues { values in
                let sorted = values.sorted()
                return sorted[sorted.count / 2]
            },
            allocations: allocations)
    }
}
