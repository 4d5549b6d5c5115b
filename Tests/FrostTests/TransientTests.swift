import Frost
import Testing

/// `.transient`, the default: every resolve makes a new instance, awaited or not.
@Suite("Transients")
struct TransientTests {
    @Test(arguments: Mode.allCases)
    func transientIsNewOnEveryResolve(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(Logger.self) !== resolver.resolve(Logger.self))
    }

    @Test(arguments: Mode.allCases)
    func anAsyncTransientIsMadeOnEveryAwaitedResolve(mode: Mode) async throws {
        let made = Counter()
        let container = Container()
        container.register(AsyncPool.self) { _ async in
            await Task.yield()
            made.increment()
            return AsyncPool(id: made.value)
        }
        let resolver = try mode.resolver(container)
        let first: AsyncPool = try await resolver.resolve(AsyncPool.self)
        let second: AsyncPool = try await resolver.resolve(AsyncPool.self)
        #expect(first !== second)
        #expect(made.value == 2)
    }
}
