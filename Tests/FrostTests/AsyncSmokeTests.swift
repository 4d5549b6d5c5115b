import Frost
import Testing

@Suite("Async smoke")
struct AsyncSmokeTests {
    final class Pool: Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }
    final class Repo: Sendable {
        let pool: Pool
        init(pool: Pool) { self.pool = pool }
    }

    @Test func asyncSingletonThenSyncAutowired() async throws {
        let counter = Counter()
        let container = Container()
        container.register(Pool.self) { _ async throws in
            counter.increment()
            await Task.yield()
            return Pool(id: 1)
        }.scope(.singleton)
        container.autowire(Repo.self, Repo.init(pool:))
        let frozen = try container.freeze()
        #expect(throws: FrostError.self) { _ = try resolveSynchronously(Repo.self, from: frozen) }
        let repo: Repo = try await frozen.resolve(Repo.self)
        #expect(repo.pool.id == 1)
        let again = try resolveSynchronously(Repo.self, from: frozen)
        #expect(again.pool === repo.pool)
        #expect(counter.value == 1)
    }
}
