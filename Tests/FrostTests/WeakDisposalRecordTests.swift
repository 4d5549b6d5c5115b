import Testing

@testable import Frost

/// A `.weak` registration with an `.onDispose` hook keeps track of its living instance for
/// `dispose()`, not a record of every instance it ever made: making and dropping a hundred
/// thousand instances leaves a handful of records (the records of instances that died are
/// pruned as new ones come).
@Suite("A weak registration keeps no record of instances that are gone", .timeLimit(.minutes(1)))
struct WeakDisposalRecordTests {
    final class DoorLease: Sendable {}

    /// Resolves a hundred thousand `.weak` instances one after another, each dropped at once;
    /// the container's disposal then holds records of a few at most (one, the living one, and
    /// those not pruned yet), not one per instance (each is over 100 bytes: 37 MiB after
    /// 300,000 resolves, before). Counted in the container's list, not measured in the heap,
    /// which the suites running meanwhile would blur.
    @Test(arguments: DoorKind.allCases)
    func makingAndDroppingWeakInstancesWithAHookKeepsAFewRecords(kind: DoorKind) throws {
        let container = Container()
        let hooks = DoorLocked(0)
        container.register(DoorLease.self) { _ in DoorLease() }
            .scope(.weak)
            .onDispose { _ in hooks.change { $0 += 1 } }
        let host = try DoorHost.root(container, kind)
        let instances = 100_000

        for _ in 0..<instances { _ = try host.resolveNow(DoorLease.self) }
        let space = try #require(host.resolver._space).takeUnretainedValue()
        let records = space.disposalRecordCount
        #expect(records <= 130, "\(records) records for \(instances) instances made and dropped")

        let kept = try host.resolveNow(DoorLease.self)
        host.disposeNow()
        #expect(hooks.value == 1, "only the living instance's hook runs")
        withExtendedLifetime(kept) {}
    }
}
