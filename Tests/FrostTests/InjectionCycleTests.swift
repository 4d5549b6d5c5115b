import Frost
import Testing

/// Objects that point at each other through properties set after their initializers: two
/// `.graph` registrations wired by `.inject` key paths or by `onCreate` resolve in one resolve
/// as one pair; a cycle through initializers is still a `.cycle`.
@Suite("Property-injection cycles")
struct InjectionCycleTests {
    final class Parent {
        var child: Child?
        init() {}
    }

    final class Child {
        var parent: Parent?
        init() {}
    }

    /// Breaks the pair's reference cycle, so that the test leaks nothing.
    static func unlink(_ parent: Parent?, _ child: Child?) {
        parent?.child?.parent = nil
        parent?.child = nil
        child?.parent?.child = nil
        child?.parent = nil
    }

    /// Checks a resolved pair from either side: each points at the other.
    static func expectPairs(_ resolver: any Resolver) throws {
        let parent = try resolver.resolve(Parent.self)
        defer { unlink(parent, nil) }
        let child = try #require(parent.child)
        #expect(child.parent === parent)

        let other = try resolver.resolve(Child.self)
        defer { unlink(nil, other) }
        let otherParent = try #require(other.parent)
        #expect(otherParent.child === other)
        #expect(other !== child)
        #expect(otherParent !== parent)
    }

    /// `.graph` objects injected into each other by `.inject` key paths point at each other.
    @Test(arguments: Mode.allCases)
    func graphObjectsInjectedByKeyPathsPointAtEachOther(mode: Mode) throws {
        let container = Container()
        container.register(Parent.self) { _ in Parent() }.scope(.graph).inject(\.child)
        container.register(Child.self) { _ in Child() }.scope(.graph).inject(\.parent)
        let resolver = try mode.resolver(container)  // frozen: freeze() finds no cycle

        try Self.expectPairs(resolver)
    }

    /// `.graph` objects wired to each other by their `onCreate` hooks point at each other.
    @Test(arguments: Mode.allCases)
    func graphObjectsWiredByOnCreatePointAtEachOther(mode: Mode) throws {
        let container = Container()
        container.register(Parent.self) { _ in Parent() }
            .scope(.graph)
            .onCreate { r, parent in parent.child = try r.resolve(Child.self) }
        container.register(Child.self) { _ in Child() }
            .scope(.graph)
            .onCreate { r, child in child.parent = try r.resolve(Parent.self) }
        let resolver = try mode.resolver(container)

        try Self.expectPairs(resolver)
    }

    final class Chicken: Sendable {
        init(egg: Egg) {}
    }

    final class Egg: Sendable {
        init(chicken: Chicken) {}
    }

    /// A cycle through autowired initializers, though both are `.graph`, still fails: `.cycle`.
    @Test func aCycleThroughInitializersStillFailsWithCycle() throws {
        let container = Container()
        container.autowire(Chicken.self, Chicken.init(egg:)).scope(.graph)
        container.autowire(Egg.self, Egg.init(chicken:)).scope(.graph)

        let error = try #require(frostError { _ = try container.freeze() })
        #expect(error.code == .invalidRegistrations)
        #expect(!error.problems.isEmpty)
        #expect(error.problems.allSatisfy { $0.code == .cycle }, "\(error)")
        #expect(frostError { _ = try container.resolve(Chicken.self) }?.code == .cycle)
    }
}
