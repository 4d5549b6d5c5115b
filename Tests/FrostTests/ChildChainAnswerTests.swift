import Frost
import Testing

/// Engine rules 7 and 8 for children: whatever a child is asked — resolve, handle,
/// description, graphviz — the answer comes from one walk of the chain (own registrations,
/// overrides, supplied values, then the parent), so every question sees the child's
/// overrides and values; and below a disposed child, what that child would have supplied
/// fails with `.disposed` while what a live ancestor above it supplies still resolves.
@Suite("A child's questions get one answer", .timeLimit(.minutes(1)))
struct ChildChainAnswerTests {
    protocol ChainClock: AnyObject, Sendable {
        var now: Int { get }
    }

    final class ChainSystemClock: ChainClock {
        var now: Int { 1 }
    }

    /// What a child registers instead of the parent's clock.
    final class ChainFakeClock: ChainClock {
        var now: Int { 42 }
    }

    /// A value each child supplies (`provided` in the root).
    final class ChainUser: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    /// A key only the child registers, `.scoped`.
    final class ChainLedger: Sendable {}

    /// The root's singleton.
    final class ChainAudit: Sendable {}

    /// The root's transient.
    final class ChainReport: Sendable {}

    // MARK: Below a disposed child

    /// A grandchild of a disposed child: the child's supplied value, its `.scoped`
    /// registration and its override fail with `.disposed`; the live root's singleton and
    /// transient still resolve through the grandchild.
    @Test(arguments: DoorKind.allCases)
    func aGrandchildOfADisposedChildRefusesWhatTheChildSuppliedAndReachesItsLiveRoot(
        kind: DoorKind
    ) throws {
        let container = Container()
        container.register((any ChainClock).self) { _ in ChainSystemClock() }
        container.provided(ChainUser.self)
        container.register(ChainAudit.self) { _ in ChainAudit() }.scope(.singleton)
        container.register(ChainReport.self) { _ in ChainReport() }
        let root = try DoorHost.root(container, kind)
        let child = try root.child { c in
            c.register(instance: ChainUser(id: "ann"))
            c.register((any ChainClock).self) { _ in ChainFakeClock() }
            c.register(ChainLedger.self) { _ in ChainLedger() }.scope(.scoped)
        }
        let grandchild = try child.child()
        #expect(try grandchild.resolveNow(ChainUser.self).id == "ann")
        #expect(try grandchild.resolveNow((any ChainClock).self).now == 42)

        child.disposeNow()
        let user = Result { () throws(FrostError) in try grandchild.resolveNow(ChainUser.self) }
        #expect(user.doorCode == .disposed, "the disposed child's supplied value")
        let ledger = Result { () throws(FrostError) in try grandchild.resolveNow(ChainLedger.self) }
        #expect(ledger.doorCode == .disposed, "the disposed child's .scoped registration")
        let clock = Result { () throws(FrostError) in
            try grandchild.resolveNow((any ChainClock).self)
        }
        #expect(clock.doorCode == .disposed, "the disposed child's override")
        let audit = Result { () throws(FrostError) in try grandchild.resolveNow(ChainAudit.self) }
        let rootAudit = try root.resolveNow(ChainAudit.self)
        #expect((try? audit.get()) === rootAudit, "the live root's singleton: \(audit)")
        let report = Result { () throws(FrostError) in try grandchild.resolveNow(ChainReport.self) }
        #expect(report.doorCode == nil, "the live root's transient: \(report)")
    }

    // MARK: Handles

    /// A child's `handle(for:)` finds a key only the child registers and the child's override
    /// of a parent key, as `resolve` does.
    @Test func aChildsHandleFindsItsOwnKeysAndItsOverrides() throws {
        let container = Container()
        container.register((any ChainClock).self) { _ in ChainSystemClock() }
        let frozen = try container.freeze()
        let child = try frozen.child { c in
            c.register(ChainLedger.self) { _ in ChainLedger() }.scope(.scoped)
            c.register((any ChainClock).self) { _ in ChainFakeClock() }
        }
        let ledger = try child.handle(for: ChainLedger.self)
        #expect(try child.resolve(ledger) === child.resolve(ChainLedger.self))

        #expect(try child.resolve((any ChainClock).self).now == 42)
        let clock = try child.handle(for: (any ChainClock).self)
        #expect(try child.resolve(clock).now == 42)
        #expect(try frozen.resolve((any ChainClock).self).now == 1)
    }

    /// A child's `handle(for:)` finds the value the child supplies for a `provided` key, as
    /// `resolve` does.
    @Test func aChildsHandleFindsTheValueItSupplies() throws {
        let container = Container()
        container.provided(ChainUser.self)
        let frozen = try container.freeze()
        let ann = ChainUser(id: "ann")
        let child = try frozen.child { $0.register(instance: ann) }

        #expect(try child.resolve(ChainUser.self) === ann)
        let user = try child.handle(for: ChainUser.self)
        #expect(try child.resolve(user) === ann)
    }

    // MARK: Diagnostics

    /// A child's `description` and `graphviz()` show the child's override of a parent key,
    /// with the override's scope.
    @Test func aChildsDescriptionAndGraphvizShowItsOverrides() throws {
        let container = Container()
        container.register(ChainReport.self) { _ in ChainReport() }
        let frozen = try container.freeze()
        let child = try frozen.child { c in
            c.register(ChainReport.self) { _ in ChainReport() }.scope(.singleton)
        }
        let name = String(reflecting: ChainReport.self)

        let description = child.description
        let described = description.split(separator: "\n").contains {
            $0.contains(name) && $0.contains("singleton")
        }
        #expect(described, "the override is missing from the description:\n\(description)")
        let dot = child.graphviz()
        let drawn = dot.split(separator: "\n").contains {
            $0.contains(name) && $0.contains("singleton")
        }
        #expect(drawn, "the override is missing from the graph:\n\(dot)")
    }
}
