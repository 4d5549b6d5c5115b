import Frost
import Testing

/// `withChild(_:_:)`: a child made, used and disposed in one call, on every path — the body
/// returns, throws, or its task is cancelled — with async `.onDispose` hooks awaited in the
/// async form; in both containers.
@Suite("withChild disposes the child on every path", .timeLimit(.minutes(1)))
struct WithChildTests {
    final class Visitor: Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    /// A unit of work per child, whose hook records it.
    final class Work: Sendable {
        let visitor: Visitor
        init(visitor: Visitor) { self.visitor = visitor }
    }

    struct Refused: Error {}

    /// What the hooks saw, in order.
    final class Journal: Sendable {
        private let lines = Locked<[String]>([])
        func write(_ line: String) { lines.withLock { $0.append(line) } }
        var entries: [String] { lines.withLock { $0 } }
    }

    /// The application: a provided visitor, a `.scoped` unit of work with a synchronous and an
    /// async hook.
    static func application(_ journal: Journal) -> Container {
        let container = Container()
        container.provided(Visitor.self)
        container.autowire(Work.self, Work.init(visitor:))
            .scope(.scoped)
            .onDispose { work in journal.write("closed \(work.visitor.name)") }
            .onDispose { work async in
                await Task.yield()
                journal.write("flushed \(work.visitor.name)")
            }
        return container
    }

    @Test(arguments: Mode.allCases)
    func anAwaitedWithChildReturnsWhatItsBodyReturnsAndAwaitsTheHooks(mode: Mode) async throws {
        let journal = Journal()
        let container = Self.application(journal)
        let name = try await Self.withChild(mode, container, visitor: "ann") { request in
            try await request.resolve(Work.self).visitor.name
        }
        #expect(name == "ann")
        #expect(journal.entries == ["closed ann", "flushed ann"])
    }

    @Test(arguments: Mode.allCases)
    func anAwaitedWithChildDisposesWhenItsBodyThrows(mode: Mode) async throws {
        let journal = Journal()
        let container = Self.application(journal)
        await #expect(throws: Refused.self) {
            try await Self.withChild(mode, container, visitor: "bob") { request in
                _ = try await request.resolve(Work.self)
                throw Refused()
            }
        }
        #expect(journal.entries == ["closed bob", "flushed bob"])
    }

    /// The body waits until cancelled; the child is disposed, its async hook awaited, before
    /// the task ends with the cancellation.
    @Test(arguments: Mode.allCases)
    func anAwaitedWithChildDisposesWhenItsTaskIsCancelled(mode: Mode) async throws {
        let journal = Journal()
        let container = Self.application(journal)
        let frozen = mode == .frozen ? try container.freeze() : nil
        let started = AsyncStream<Void>.makeStream()
        let task = Task {
            defer { started.continuation.finish() }  // the wait below ends however the body does
            try await Self.withChild(mode, container, frozen: frozen, visitor: "cat") { request in
                _ = try await request.resolve(Work.self)
                started.continuation.yield()
                try await Task.sleep(for: .seconds(3_600))
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        #expect(await iterator.next() != nil, "the body ended before it started waiting")
        #expect(journal.entries.isEmpty)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(journal.entries == ["closed cat", "flushed cat"])
    }

    @Test(arguments: Mode.allCases)
    func aSynchronousWithChildReturnsAndDisposes(mode: Mode) throws {
        let journal = Journal()
        let container = Container()
        container.provided(Visitor.self)
        container.autowire(Work.self, Work.init(visitor:))
            .scope(.scoped)
            .onDispose { work in journal.write("closed \(work.visitor.name)") }
        let configure: (Container) -> Void = { $0.register(instance: Visitor(name: "dan")) }
        let name: String
        switch mode {
        case .dictionary:
            name = try container.withChild(configure) { try $0.resolve(Work.self).visitor.name }
        case .frozen:
            name = try container.freeze().withChild(configure) {
                try $0.resolve(Work.self).visitor.name
            }
        }
        #expect(name == "dan")
        #expect(journal.entries == ["closed dan"])
    }

    @Test(arguments: Mode.allCases)
    func aSynchronousWithChildDisposesWhenItsBodyThrows(mode: Mode) throws {
        let journal = Journal()
        let container = Container()
        container.provided(Visitor.self)
        container.autowire(Work.self, Work.init(visitor:))
            .scope(.scoped)
            .onDispose { work in journal.write("closed \(work.visitor.name)") }
        let configure: (Container) -> Void = { $0.register(instance: Visitor(name: "eve")) }
        #expect(throws: Refused.self) {
            switch mode {
            case .dictionary:
                try container.withChild(configure) { child in
                    _ = try child.resolve(Work.self)
                    throw Refused()
                }
            case .frozen:
                try container.freeze().withChild(configure) { child in
                    _ = try child.resolve(Work.self)
                    throw Refused()
                }
            }
        }
        #expect(journal.entries == ["closed eve"])
    }

    /// A child that cannot be made (a dependency missing from it and its parent) throws
    /// before the body runs; nothing is left to dispose.
    @Test func aChildThatCannotBeMadeThrowsBeforeTheBodyRuns() async throws {
        let frozen = try Container().freeze()
        let ran = Locked(false)
        await #expect(throws: FrostError.self) {
            try await frozen.withChild({ $0.autowire(Work.self, Work.init(visitor:)) }) { _ in
                await Task.yield()
                ran.withLock { $0 = true }
            }
        }
        #expect(!ran.withLock { $0 })
    }

    /// The async form in either container: `body` resolves with the awaited resolve.
    static func withChild<R: Sendable>(
        _ mode: Mode, _ container: Container, frozen: FrozenContainer? = nil, visitor: String,
        _ body: @escaping @Sendable (any Resolver) async throws -> R
    ) async throws -> R {
        let configure: (Container) -> Void = { $0.register(instance: Visitor(name: visitor)) }
        switch mode {
        case .dictionary:
            let result = try await container.withChild(configure) { child in
                try await body(UncheckedResolver(child).resolver)
            }
            return result
        case .frozen:
            return try await (frozen ?? container.freeze()).withChild(configure) { child in
                try await body(child)
            }
        }
    }

    /// A `Container` handed to the body in the test's own task: used there only.
    struct UncheckedResolver: @unchecked Sendable {
        let resolver: any Resolver
        init(_ resolver: any Resolver) { self.resolver = resolver }
    }
}
