import Frost
import Testing

/// Objects that point at each other through properties set after their initializers: two
/// `.graph` registrations wired by `.inject` key paths or by `onCreate` resolve in one resolve
/// as one pair; a cycle through initializers is still a `.cycle`.
@Suite("Property-injection cycles")
struct InjectionCycleTests {

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
