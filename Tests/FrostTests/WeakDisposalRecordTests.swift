import Foundation
import Frost
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `.weak` registration with an `.onDispose` hook keeps track of its living instance for
/// `dispose()`, not a record of every instance it ever made: making and dropping a hundred
/// thousand instances leaves the heap as it was.
@Suite(
    "A weak registration keeps no record of instances that are gone", .serialized,
    .timeLimit(.minutes(1)))
struct WeakDisposalRecordTests {
    final class DoorLease: Sendable {}

    /// The bytes the process's allocator has handed out and not taken back, in every arena,
    /// as glibc's `malloc_info` reports them (`mallinfo2` is not in Swift's Glibc module):
    /// `nil` where it cannot tell. Under a sanitizer, whose allocator glibc does not see, it
    /// reports no growth.
    static func heapInUse() -> Int? {
        #if canImport(Glibc)
            typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
            guard let process = dlopen(nil, RTLD_NOW),
                let symbol = dlsym(process, "malloc_info")
            else { return nil }
            var buffer: UnsafeMutablePointer<CChar>?
            var length = 0
            guard let stream = open_memstream(&buffer, &length) else { return nil }
            let status = unsafeBitCast(symbol, to: MallocInfo.self)(0, stream)
            fclose(stream)
            defer { free(buffer) }
            guard status == 0, let buffer else { return nil }
            let report = String(cString: buffer)
            // The process's totals follow the last arena's `</heap>`.
            let totals =
                report.range(of: "</heap>", options: .backwards).map {
                    report[$0.upperBound...]
                } ?? report[...]
            /// The size in the first element that starts with `start`.
            func size(of start: String) -> Int? {
                guard let element = totals.range(of: start) else { return nil }
                let rest = totals[element.upperBound...]
                guard let attribute = rest.range(of: #"size=""#) else { return nil }
                return Int(rest[attribute.upperBound...].prefix { $0.isNumber })
            }
            guard let system = size(of: #"<system type="current""#),
                let fast = size(of: #"<total type="fast""#),
                let rest = size(of: #"<total type="rest""#)
            else { return nil }
            return system - fast - rest + (size(of: #"<total type="mmap""#) ?? 0)
        #else
            return nil
        #endif
    }

    /// Whether `heapInUse()` sees this process's allocations: four megabytes allocated in
    /// small blocks show, in one of five tries (another suite may free memory meanwhile).
    /// Under a sanitizer, whose allocator glibc does not see, they never do.
    static func heapIsVisible() -> Bool {
        for _ in 0..<5 {
            guard let before = heapInUse() else { return false }
            let blocks = (0..<16_384).map { _ in malloc(256) }
            let after = heapInUse()
            for block in blocks { free(block) }
            if let after, after - before >= 3 << 20 { return true }
        }
        return false
    }

    /// Resolves a hundred thousand `.weak` instances one after another, each dropped at once,
    /// in five rounds; the median heap growth of a round must stay far below one record per
    /// instance (a record, with what it holds, is over 100 bytes). Other suites run meanwhile
    /// and may allocate or free during one round; the median leaves such a round out.
    @Test(arguments: DoorKind.allCases)
    func makingAndDroppingWeakInstancesWithAHookDoesNotGrowTheHeap(kind: DoorKind) throws {
        let container = Container()
        let hooks = DoorLocked(0)
        container.register(DoorLease.self) { _ in DoorLease() }
            .scope(.weak)
            .onDispose { _ in hooks.change { $0 += 1 } }
        let host = try DoorHost.root(container, kind)
        let instances = 100_000

        func churn(_ count: Int) throws {
            for _ in 0..<count { _ = try host.resolveNow(DoorLease.self) }
        }
        try churn(1_000)  // first-use allocations
        var growths: [Int] = []
        if Self.heapIsVisible() {
            for _ in 0..<5 {
                guard let before = Self.heapInUse() else { break }
                try churn(instances)
                guard let after = Self.heapInUse() else { break }
                growths.append(after - before)
            }
        }
        if growths.count == 5 {
            let median = growths.sorted()[2]
            #expect(
                median < 32 * instances,
                "the heap grew by \(median / instances) bytes per dropped instance: \(growths)")
        }

        let kept = try host.resolveNow(DoorLease.self)
        host.disposeNow()
        #expect(hooks.value == 1, "only the living instance's hook runs")
        withExtendedLifetime(kept) {}
    }
}
