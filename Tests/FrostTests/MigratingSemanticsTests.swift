import Foundation
import Frost
import Testing

/// What users of Dip and Swinject rely on: a default scope per container, lazy singletons next
/// to eager ones, and `resolveAll` through children answering once per key.
@Suite("Semantics users bring from other containers", .timeLimit(.minutes(1)))
struct MigratingSemanticsTests {
    final class Part: Sendable {}

    final class Pair: Sendable {
        let left: Part
        let right: Part
        init(left: Part, right: Part) {
            self.left = left
            self.right = right
        }
    }

    final class Report: Sendable {}

    protocol Plugin: Sendable {
        var name: String { get }
    }

    struct Named: Plugin {
        let name: String
    }

    // MARK: The default scope

    /// `Container(defaultScope: .graph)`: a registration that names no scope is one instance
    /// per top-level resolve, as in Swinject and Dip; one that names its scope keeps it.
    @Test(arguments: Mode.allCases)
    func registrationsThatNameNoScopeTakeTheContainersDefault(mode: Mode) throws {
        let container = Container(defaultScope: .graph)
        container.register(Part.self) { _ in Part() }
        container.register(Report.self) { _ in Report() }.scope(.transient)
        container.register(Pair.self) { r in
            Pair(left: try r.resolve(Part.self), right: try r.resolve(Part.self))
        }
        let resolver = try mode.resolver(container)

        let pair = try resolver.resolve(Pair.self)
        #expect(pair.left === pair.right)  // one Part in one resolve
        #expect(try resolver.resolve(Pair.self).left !== pair.left)  // another next time
        #expect(try resolver.resolve(Report.self) !== resolver.resolve(Report.self))
        #expect(container.defaultScope == .graph)
    }

    /// Autowired registrations take the default too; `Container()` keeps `.transient`.
    @Test(arguments: Mode.allCases)
    func autowiredRegistrationsTakeTheDefaultAndThePlainContainerStaysTransient(mode: Mode)
        throws
    {
        let graph = Container(defaultScope: .graph)
        graph.autowire(Part.self, Part.init)
        graph.autowire(Pair.self, Pair.init(left:right:))
        let pair = try mode.resolver(graph).resolve(Pair.self)
        #expect(pair.left === pair.right)

        let plain = Container()
        plain.autowire(Part.self, Part.init)
        plain.autowire(Pair.self, Pair.init(left:right:))
        let separate = try mode.resolver(plain).resolve(Pair.self)
        #expect(separate.left !== separate.right)
        #expect(plain.defaultScope == .transient)
    }

    /// A child takes its parent's default scope; the description shows it.
    @Test func aChildTakesItsParentsDefaultAndTheDescriptionShowsIt() throws {
        let container = Container(defaultScope: .graph)
        container.register(Part.self) { _ in Part() }
        let frozen = try container.freeze()
        let child = try frozen.child { c in
            c.register(Pair.self) { r in
                Pair(left: try r.resolve(Part.self), right: try r.resolve(Part.self))
            }
        }
        let pair = try child.resolve(Pair.self)
        #expect(pair.left === pair.right)
        #expect(frozen.description.contains("default scope graph"), "\(frozen.description)")
        #expect(try Container().freeze().description.contains("default scope") == false)
    }

    // MARK: Lazy singletons

    /// `bootstrap()` makes every singleton but a `.lazy()` one, which its first resolve makes,
    /// once, as any singleton.
    @Test func bootstrapLeavesALazySingletonToItsFirstResolve() async throws {
        let made = Locked<[String]>([])
        let container = Container()
        container.register(Part.self) { _ in
            made.withLock { $0.append("eager") }
            return Part()
        }.scope(.singleton)
        container.register(Report.self) { _ in
            made.withLock { $0.append("lazy") }
            return Report()
        }
        .scope(.singleton)
        .lazy()
        let frozen = try container.freeze()

        try await frozen.bootstrap()
        #expect(made.withLock { $0 } == ["eager"])
        let report = try await frozen.resolve(Report.self)
        #expect(try await frozen.resolve(Report.self) === report)
        #expect(made.withLock { $0 } == ["eager", "lazy"])
        #expect(frozen.description.contains("singleton (lazy)"), "\(frozen.description)")
    }

    /// A lazy singleton resolved by many threads at once is still made once. Its factory waits
    /// (at most twenty seconds) until every thread's resolve is in flight, so that they do race,
    /// and the test checks that they did.
    @Test func aLazySingletonIsMadeOnceUnderContention() async throws {
        let made = Locked(0)
        let started = Locked(0)
        let race = RaceWitness()
        let container = Container()
        container.register(Report.self) { _ in
            made.withLock { $0 += 1 }
            _ = race.waitForPeak(8)
            return Report()
        }
        .scope(.singleton)
        .lazy()
        let frozen = try container.freeze()
        try await frozen.bootstrap()
        #expect(made.withLock { $0 } == 0)
        let seen = Locked<Set<ObjectIdentifier>>([])
        let finished = await runOnThreads(
            within: 30,
            (0..<8).map { _ in
                {
                    started.withLock { $0 += 1 }
                    let report = try! race.during { try frozen.resolve(Report.self) }
                    seen.withLock { _ = $0.insert(ObjectIdentifier(report)) }
                }
            })
        #expect(finished)
        #expect(started.withLock { $0 } == 8)
        #expect(race.peak == 8, "the race did not happen: the resolves were never all in flight")
        #expect(made.withLock { $0 } == 1)
        #expect(seen.withLock { $0.count } == 1)
    }

    /// `.lazy()` changes nothing on a registration that is not a singleton.
    @Test func lazyOnATransientChangesNothing() async throws {
        let container = Container()
        container.register(Part.self) { _ in Part() }.lazy()
        let frozen = try container.freeze()
        try await frozen.bootstrap()
        #expect(try await frozen.resolve(Part.self) !== frozen.resolve(Part.self))
    }

    // MARK: resolveAll through children

    /// A child's resolveAll answers once per key, as resolve would: its new names add to the
    /// parent's, its registration of a key the parent has replaces the parent's.
    @Test(arguments: Mode.allCases)
    func resolveAllThroughAChildAnswersOncePerKey(mode: Mode) throws {
        let container = Container()
        container.register((any Plugin).self, name: "audit") { _ in Named(name: "audit") }
        container.register((any Plugin).self, name: "tracing") { _ in Named(name: "tracing") }
        let names: [String]
        let configure: (Container) -> Void = { c in
            c.register((any Plugin).self, name: "tracing") { _ in Named(name: "fake-tracing") }
            c.register((any Plugin).self, name: "metrics") { _ in Named(name: "metrics") }
        }
        switch mode {
        case .dictionary:
            names = try container.child(configure).resolveAll((any Plugin).self).map(\.name)
        case .frozen:
            names = try container.freeze().child(configure).resolveAll((any Plugin).self)
                .map(\.name)
        }
        #expect(names.sorted() == ["audit", "fake-tracing", "metrics"])
        #expect(names.count == 3)
    }

    /// A chain of children that each register one key again answers that key once: the
    /// nearest child's.
    @Test func aChainOfChildrenThatOverrideOneKeyAnswersItOnce() throws {
        let container = Container()
        container.register((any Plugin).self, name: "tracing") { _ in Named(name: "root") }
        container.register((any Plugin).self, name: "audit") { _ in Named(name: "audit") }
        let root = try container.freeze()
        let first = try root.child { c in
            c.register((any Plugin).self, name: "tracing") { _ in Named(name: "first") }
        }
        let second = try first.child { c in
            c.register((any Plugin).self, name: "tracing") { _ in Named(name: "second") }
        }
        #expect(
            try second.resolveAll((any Plugin).self).map(\.name).sorted() == ["audit", "second"])
        #expect(try first.resolveAll((any Plugin).self).map(\.name).sorted() == ["audit", "first"])
        #expect(try root.resolveAll((any Plugin).self).map(\.name).sorted() == ["audit", "root"])
        #expect(try second.resolve((any Plugin).self, name: "tracing").name == "second")
    }
}
