import Frost
import Testing

/// `FrozenContainer.current`: the child `withChild` runs its body with is the task's current
/// container while the body runs — seen by code the body calls without handing it the child,
/// and by the tasks it starts — and `nil` outside any child.
@Suite(.timeLimit(.minutes(1)))
struct CurrentContainerTests {
    struct Visitor: Sendable, Equatable {
        let name: String
    }

    static func application() throws -> FrozenContainer {
        let container = Container()
        container.provided(Visitor.self)
        return try container.freeze()
    }

    /// Code deep in a handler: it is handed nothing.
    static func currentVisitor() async throws -> String {
        guard let request = FrozenContainer.current else { return "nobody" }
        return try await request.resolve(Visitor.self).name
    }

    /// The same, in synchronous code.
    static func currentVisitorSynchronously() throws -> String {
        guard let request = FrozenContainer.current else { return "nobody" }
        return try request.resolve(Visitor.self).name
    }

    @Test func outsideAnyChildThereIsNoCurrentContainer() async throws {
        #expect(FrozenContainer.current == nil)
        #expect(try await Self.currentVisitor() == "nobody")
    }

    @Test func theAwaitedWithChildMakesItsChildCurrentWhileItsBodyRuns() async throws {
        let app = try Self.application()
        let seen = try await app.withChild({ $0.register(instance: Visitor(name: "ann")) }) {
            request in
            #expect(FrozenContainer.current === request)
            return try await Self.currentVisitor()
        }
        #expect(seen == "ann")
        #expect(FrozenContainer.current == nil)
    }

    @Test func theSynchronousWithChildMakesItsChildCurrentWhileItsBodyRuns() throws {
        let app = try Self.application()
        let seen = try app.withChild({ $0.register(instance: Visitor(name: "bob")) }) { request in
            #expect(FrozenContainer.current === request)
            return try Self.currentVisitorSynchronously()
        }
        #expect(seen == "bob")
        #expect(FrozenContainer.current == nil)
    }

    @Test func anInnerChildIsCurrentUntilItsBodyReturns() async throws {
        let app = try Self.application()
        let seen = try await app.withChild({ $0.register(instance: Visitor(name: "outer")) }) {
            outer in
            let inner = try await outer.withChild({ $0.register(instance: Visitor(name: "inner")) })
            { _ in try await Self.currentVisitor() }
            return [inner, try await Self.currentVisitor()]
        }
        #expect(seen == ["inner", "outer"])
    }

    @Test func theTasksTheBodyStartsSeeItsChild() async throws {
        let app = try Self.application()
        let seen = try await app.withChild({ $0.register(instance: Visitor(name: "cid")) }) { _ in
            async let first = Self.currentVisitor()
            let rest = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 { group.addTask { try await Self.currentVisitor() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            return [try await first] + rest
        }
        #expect(seen == Array(repeating: "cid", count: 5))
    }

    /// Concurrent requests each see their own child, never another's.
    @Test func concurrentChildrenAreEachTheirOwnTasksCurrent() async throws {
        let app = try Self.application()
        let names = (0..<32).map { "visitor-\($0)" }
        let seen = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for name in names {
                group.addTask {
                    try await app.withChild({ $0.register(instance: Visitor(name: name)) }) { _ in
                        await Task.yield()
                        return (name, try await Self.currentVisitor())
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen.count == names.count)
        #expect(seen.allSatisfy { $0.0 == $0.1 })
    }

    /// A dictionary `Container` is for one thread: its `withChild` does not make its child
    /// current, and the frozen child around it stays current.
    @Test func aDictionaryContainersWithChildLeavesTheCurrentContainerAsItIs() async throws {
        let app = try Self.application()
        let dictionary = Container()
        dictionary.provided(Visitor.self)
        let seen = try await app.withChild({ $0.register(instance: Visitor(name: "frozen")) }) {
            _ in
            try await dictionary.withChild({ $0.register(instance: Visitor(name: "dict")) }) { _ in
                try await Self.currentVisitor()
            }
        }
        #expect(seen == "frozen")
    }
}
