import Frost
import Testing

/// `.graph`: one instance per top-level resolve, shared by everything that resolve makes
/// (through autowired objects, awaited factories and a child's registrations alike), and a new
/// one for the next; objects that point at each other through properties set after their
/// initializers (`.inject` key paths, `onCreate`) resolve as one set.
@Suite("Graph instances")
struct GraphTests {
    final class Parts: Sendable {
        let first: Session
        let second: Session
        init(first: Session, second: Session) {
            self.first = first
            self.second = second
        }
    }

    @Test(arguments: Mode.allCases)
    func graphIsSharedWithinOneResolveOnly(mode: Mode) throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.graph)
        container.autowire(Parts.self, Parts.init(first:second:))
        let resolver = try mode.resolver(container)

        let parts = try resolver.resolve(Parts.self)
        #expect(parts.first === parts.second)
        #expect(try resolver.resolve(Parts.self).first !== parts.first)
    }

    final class Screen: Sendable {
        let parts: Parts
        let session: Session
        init(parts: Parts, session: Session) {
            self.parts = parts
            self.session = session
        }
    }

    @Test(arguments: Mode.allCases)
    func graphIsSharedThroughNestedAutowiredObjects(mode: Mode) throws {
        // Screen and Parts are autowired transients: the frozen container creates them from
        // their bound slots, and the .graph instance must still be one per top-level resolve.
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.graph)
        container.autowire(Parts.self, Parts.init(first:second:))
        container.autowire(Screen.self, Screen.init(parts:session:))
        let resolver = try mode.resolver(container)

        let screen = try resolver.resolve(Screen.self)
        #expect(screen.parts.first === screen.session)
        #expect(screen.parts.second === screen.session)
        #expect(try resolver.resolve(Screen.self).session !== screen.session)
    }

    final class Part: Sendable {
        init() {}
    }

    /// Two `Part`s resolved in one top-level resolve.
    final class Assembly: Sendable {
        let left: Part
        let right: Part
        init(left: Part, right: Part) {
            self.left = left
            self.right = right
        }
    }

    @Test(arguments: Mode.allCases)
    func anAsyncGraphRegistrationIsOneInstancePerTopLevelResolve(mode: Mode) async throws {
        let container = Container()
        container.register(Part.self) { _ async in Part() }.scope(.graph)
        container.register(Assembly.self) { r async throws in
            Assembly(left: try await r.resolve(Part.self), right: try await r.resolve(Part.self))
        }
        let resolver = try mode.resolver(container)
        let first: Assembly = try await resolver.resolve(Assembly.self)
        let second: Assembly = try await resolver.resolve(Assembly.self)
        #expect(first.left === first.right)
        #expect(first.left !== second.left)
    }

    // MARK: One graph across the boundary of a child

    final class Token: Sendable {}

    final class Pair: Sendable {
        let first: Token
        let second: Token
        init(first: Token, second: Token) {
            self.first = first
            self.second = second
        }
    }

    final class Envelope: Sendable {
        let pair: Pair
        let token: Token
        init(pair: Pair, token: Token) {
            self.pair = pair
            self.token = token
        }
    }

    /// A parent's `.graph` registration reached twice in one resolve through a child is one.
    @Test(arguments: Mode.allCases)
    func oneGraphPerTopLevelResolveAcrossTheBoundary(mode: Mode) throws {
        let container = Container()
        container.register(Token.self) { _ in Token() }.scope(.graph)
        container.autowire(Pair.self, Pair.init(first:second:))
        let parent = try mode.family(container)
        let child = try parent.child { c in
            c.autowire(Envelope.self, Envelope.init(pair:token:))
            c.register(Envelope.self, name: "closure") { r in
                Envelope(pair: try r.resolve(Pair.self), token: try r.resolve(Token.self))
            }
        }

        let pair = try child.resolver.resolve(Pair.self)
        #expect(pair.first === pair.second)
        for name in [nil, "closure"] {
            let envelope = try child.resolver.resolve(Envelope.self, name: name)
            #expect(envelope.pair.first === envelope.token, "\(name ?? "autowired")")
            #expect(envelope.pair.second === envelope.token, "\(name ?? "autowired")")
            let next = try child.resolver.resolve(Envelope.self, name: name)
            #expect(next.token !== envelope.token, "\(name ?? "autowired")")
        }
    }

    // MARK: Objects that point at each other

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
}
