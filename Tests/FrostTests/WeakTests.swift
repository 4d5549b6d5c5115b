import Testing

@testable import Frost

/// `.weak`: the container keeps the instance while someone else holds it, and makes a new one
/// once the last holder has let it go; with an `.onDispose` hook it keeps track of the living
/// instance for `dispose()`, not a record of every instance it ever made.
@Suite("Weak instances", .timeLimit(.minutes(1)))
struct WeakTests {
    @Test(arguments: Mode.allCases)
    func weakIsKeptWhileSomeoneHoldsIt(mode: Mode) throws {
        let container = Container()
        let made = Counter()
        container.register(Logger.self) { _ in
            made.increment()
            return ConsoleLogger()
        }.scope(.weak)
        let resolver = try mode.resolver(container)

        var held: (any Logger)? = try resolver.resolve(Logger.self)
        #expect(try resolver.resolve(Logger.self) === held)
        #expect(made.value == 1)
        held = nil  // the last holder lets go: the container does not keep it alive
        let next = try resolver.resolve(Logger.self)
        #expect(made.value == 2)
        #expect(try resolver.resolve(Logger.self) === next)
        #expect(made.value == 2)
    }

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
