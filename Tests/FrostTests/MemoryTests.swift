import CFrost
import Dispatch
import Foundation
import Testing

@testable import Frost

/// Memory: a container's cached instances go with it; `releaseCachedInstances()` frees at once
/// what no thread is reading and what another thread has read only once it reads something
/// else (its hazard pointer); a freed cell, or a freed container's table, protects nothing that
/// comes to live at its address; containers built and dropped leave nothing alive.
@Suite("Memory", .serialized)
struct MemoryTests {
    /// Counts live instances: created and not yet deinitialized.
    final class Tracked: @unchecked Sendable {
        static let live = Counter()
        static let deinits = Counter()
        init() { Self.live.increment() }
        deinit { Self.deinits.increment() }
    }

    @Test func cachedInstancesAreReleasedWithTheirContainer() throws {
        let before = Tracked.deinits.value
        do {
            let container = Container()
            container.register(Tracked.self) { _ in Tracked() }.scope(.singleton)
            container.register(Tracked.self, name: "weak") { _ in Tracked() }.scope(.weak)
            let frozen = try container.freeze()
            _ = try frozen.resolve(Tracked.self)
            _ = try frozen.resolve(Tracked.self, name: "weak")
        }
        #expect(Tracked.deinits.value - before == 2)
    }

    /// A value that holds a tracked instance: kept in a box, not as itself.
    struct TrackedValue: Sendable {
        let tracked: Tracked
    }

    /// A class instance is kept as itself and any other value (a struct, an existential) in a
    /// box: every lifetime that keeps instances hands back the same one, through types,
    /// handles and `Lazy`, and a container's disposal releases every instance once.
    @Test func everyKeepingLifetimeHandsBackClassesValuesAndExistentialsAndReleasesThem() throws {
        let createdBefore = Tracked.live.value
        let deinitsBefore = Tracked.deinits.value
        do {
            let container = Container()
            let kept: [(String, Scope)] = [
                ("singleton", .singleton), ("scoped", .scoped),
                ("custom", .custom(LockedScopeStorage())),
            ]
            for (name, scope) in kept + [("graph", .graph)] {
                container.register(Tracked.self, name: name) { _ in Tracked() }.scope(scope)
                container.register(TrackedValue.self, name: name) { _ in
                    TrackedValue(tracked: Tracked())
                }.scope(scope)
                container.register((any Sendable & AnyObject).self, name: name) { _ in
                    Tracked()
                }.scope(scope)
            }
            container.register(Tracked.self, name: "weak") { _ in Tracked() }.scope(.weak)
            container.register(instance: Tracked(), name: "instance")
            container.register(instance: TrackedValue(tracked: Tracked()), name: "instance")
            let frozen = try container.freeze()
            try frozen.withChild({ _ in }) { child in
                for (name, _) in kept + [("instance", .singleton)] {
                    let object = try child.resolve(Tracked.self, name: name)
                    #expect(try child.resolve(Tracked.self, name: name) === object)
                    #expect(try child.resolve(Lazy<Tracked>.self, name: name).value === object)
                    let value = try child.resolve(TrackedValue.self, name: name)
                    #expect(
                        try child.resolve(TrackedValue.self, name: name).tracked === value.tracked)
                }
                for (name, _) in kept {
                    let existential = try child.resolve((any Sendable & AnyObject).self, name: name)
                    #expect(
                        try child.resolve((any Sendable & AnyObject).self, name: name)
                            === existential)
                }
                let handle = try child.handle(for: Tracked.self, name: "singleton")
                let held = try child.resolve(handle)
                #expect(try child.withResolved(handle) { $0 === held })
                let valueHandle = try child.handle(for: TrackedValue.self, name: "instance")
                #expect(
                    try child.withResolved(valueHandle) { $0.tracked }
                        === child.resolve(TrackedValue.self, name: "instance").tracked)
                let weak = try child.resolve(Tracked.self, name: "weak")
                #expect(try child.resolve(Tracked.self, name: "weak") === weak)
                #expect(
                    try child.resolve(Tracked.self, name: "graph")
                        !== child.resolve(Tracked.self, name: "graph"))
            }
            frozen.dispose()
        }
        #expect(Tracked.live.value - createdBefore > 0)
        #expect(Tracked.deinits.value - deinitsBefore == Tracked.live.value - createdBefore)
    }

    @Test func aReleaseFreesAtOnceWhatNoThreadIsReading() throws {
        let container = Container()
        container.register(Tracked.self) { _ in Tracked() }.scope(.singleton)
        let frozen = try container.freeze()
        let before = Tracked.deinits.value

        _ = try frozen.resolve(Tracked.self)
        _ = try frozen.resolve(Tracked.self)  // a cached read: this thread's hazard names it
        frozen.releaseCachedInstances()
        #expect(Tracked.deinits.value == before + 1)
    }

    @Test func anInstanceAnotherThreadHasReadIsFreedOnlyOnceItReadsSomethingElse() throws {
        let container = Container()
        container.register(Tracked.self) { _ in Tracked() }.scope(.singleton)
        container.register(instance: AppConfig(port: 1))  // never released
        let frozen = try container.freeze()
        _ = try frozen.resolve(Tracked.self)
        let before = Tracked.deinits.value

        // Another thread's last read protects the instance it read (its hazard pointer).
        let reader = Reader(frozen)
        try reader.run { _ = try $0.resolve(Tracked.self) }
        frozen.releaseCachedInstances()
        #expect(Tracked.deinits.value == before)  // kept: that thread may still be copying it
        try reader.run { _ = try $0.resolve(AppConfig.self) }  // it reads something else
        frozen.releaseCachedInstances()
        #expect(Tracked.deinits.value == before + 1)
        reader.stop()
    }

    @Test func freedCellsStopProtectingWhatLaterCellsAtTheirAddressHold() throws {
        // A thread's last read stays its hazard. When the cell it names is freed, the hazard
        // must be cleared: a later cell at the same address (malloc reuses addresses) would be
        // protected by it, and a release would free nothing until that thread read again.
        // (Found as a flaky release test: another test's idle thread held such a hazard.)
        let cell = UnsafeMutablePointer<frost_cell>.allocate(capacity: 1)
        cell.initialize(to: frost_cell())
        defer { cell.deallocate() }
        let instance = Unmanaged.passRetained(Tracked()).toOpaque()
        frost_cell_store_unshared(cell, instance)

        let readDone = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let shared = cell  // read by one thread, then only compared
        Thread {
            _ = frost_cell_read(shared)  // this thread's hazard now names the cell
            readDone.signal()
            _ = finish.wait(timeout: .now() + 60)  // stays alive, reading nothing else
        }.start()
        defer { finish.signal() }
        try #require(readDone.wait(timeout: .now() + 30) == .success)

        func stillProtected() -> Bool {
            var instances: [UnsafeMutableRawPointer?] = [instance]
            var cells: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(cell)]
            return frost_reclaim_partition(&instances, &cells, 1) == 1
        }
        #expect(stillProtected())  // the reader's hazard protects it
        frost_forget_hazards(cell, MemoryLayout<frost_cell>.stride)  // the cell is freed
        #expect(!stillProtected())
        Unmanaged<Tracked>.fromOpaque(instance).release()
    }

    @Test func aFrozenContainerThatGoesAwayClearsTheHazardsOnItsCells() throws {
        // The path the release test above takes through the engine: a thread reads a
        // container's singleton and goes idle; the container is freed. Its table's cells must
        // not stay named by that thread's hazard (a later table may reuse the address).
        let idle = Reader(try Container().freeze())
        defer { idle.stop() }
        var cellAddress: UnsafeMutableRawPointer?
        do {
            let container = Container()
            container.register(Tracked.self) { _ in Tracked() }.scope(.singleton)
            let frozen = try container.freeze()
            let slot = frozen.table.slot(for: RegistrationKey(Tracked.self, name: nil))
            cellAddress = frozen.table.cell(at: slot).address
            try idle.run { _ in _ = try frozen.resolve(Tracked.self) }  // its last read
            try idle.run { _ in }  // drops the job that held `frozen`; reads nothing
        }
        // `frozen` is gone, and its table with it. Only addresses are compared here.
        var instances: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(bitPattern: 0x10)]
        var cells = [cellAddress]
        #expect(frost_reclaim_partition(&instances, &cells, 1) == 0)
    }

    /// A thread that runs one closure at a time on request and stays alive in between, so that
    /// its hazard pointer outlives each closure.
    final class Reader: @unchecked Sendable {
        private let frozen: FrozenContainer
        private let start = DispatchSemaphore(value: 0)
        private let done = DispatchSemaphore(value: 0)
        private var job: ((FrozenContainer) throws -> Void)?
        private var failure: (any Error)?

        init(_ frozen: FrozenContainer) {
            self.frozen = frozen
            Thread { [self] in
                while true {
                    start.wait()
                    guard let job else { break }
                    do { try job(self.frozen) } catch { failure = error }
                    done.signal()
                }
                done.signal()
            }.start()
        }

        func run(_ job: @escaping (FrozenContainer) throws -> Void) throws {
            self.job = job
            start.signal()
            guard done.wait(timeout: .now() + 30) == .success else {
                Issue.record("the reader thread did not answer in 30 s")
                return
            }
            if let failure { throw failure }
        }

        func stop() {
            job = nil
            start.signal()
            _ = done.wait(timeout: .now() + 30)
        }
    }

    @Test(arguments: [1_000])
    func buildingAndDroppingContainersLeavesNothingAlive(count: Int) throws {
        let instancesBefore = Tracked.live.value - Tracked.deinits.value
        let tablesBefore = frost_live_tables()
        var peakTables: UInt64 = 0
        for round in 0..<count {
            let container = Container()
            for index in 0..<20 {
                container.register(Tracked.self, name: "n\(index)") { _ in Tracked() }.scope(
                    .singleton)
            }
            container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
            container.autowire(UserService.self) { (logger: any Logger) in
                UserService(logger: logger, db: Primary())
            }
            let frozen = try container.freeze()
            for index in 0..<20 { _ = try frozen.resolve(Tracked.self, name: "n\(index)") }
            _ = try frozen.resolve(UserService.self)
            if round.isMultiple(of: 3) { frozen.releaseCachedInstances() }
            peakTables = max(peakTables, frost_live_tables())
        }
        // Other suites run in parallel and hold tables of their own: compare with a margin
        // far below one table per round.
        #expect(frost_live_tables() < tablesBefore + 50)
        #expect(peakTables < tablesBefore + 50)
        #expect(Tracked.live.value - Tracked.deinits.value - instancesBefore < 50)
    }
}
