import Frost
import Testing

/// onCreate hooks, aliases, resolveAll, child containers and diagnostics.
@Suite("Hooks, names, children, diagnostics")
struct HookAndForwardingTests {
    final class Tracked {
        @Injected var logger: any Logger
        init() {}
    }

    @Test(arguments: Mode.allCases)
    func onCreateRunsOncePerInstanceAfterInjection(mode: Mode) throws {
        let container = Container()
        let created = Counter()
        let injectedFirst = Counter()
        container.register(Logger.self) { _ in ConsoleLogger() }
        container.register(Tracked.self) { _ in Tracked() }
            .onCreate { _, tracked in
                created.increment()
                if tracked.$logger.isInjected { injectedFirst.increment() }
            }
        container.register(Tracked.self, name: "one") { _ in Tracked() }
            .scope(.singleton)
            .onCreate { _, _ in created.increment() }
        let resolver = try mode.resolver(container)

        _ = try resolver.resolve(Tracked.self)
        _ = try resolver.resolve(Tracked.self)
        #expect(created.value == 2)
        #expect(injectedFirst.value == 2)
        _ = try resolver.resolve(Tracked.self, name: "one")
        _ = try resolver.resolve(Tracked.self, name: "one")
        #expect(created.value == 3)
    }

    @Test(arguments: Mode.allCases)
    func aliasResolvesTheSameRegistration(mode: Mode) throws {
        let container = Container()
        container.register(Database.self, name: "primary") { _ in Primary() }
            .scope(.singleton)
            .alias("default")
        let resolver = try mode.resolver(container)

        #expect(
            try resolver.resolve(Database.self, name: "default")
                === resolver.resolve(Database.self, name: "primary"))
    }

    @Test func resolveAllReturnsEveryRegistrationInOrder() throws {
        let container = Container()
        container.register((any Plugin).self, name: "b") { _ in NamedPlugin(id: "b") }
        container.register((any Plugin).self) { _ in NamedPlugin(id: "unnamed") }
        container.register((any Plugin).self, name: "a") { _ in NamedPlugin(id: "a") }
        container.register(Logger.self) { _ in ConsoleLogger() }
        let frozen = try container.freeze()

        let plugins: [any Plugin] = try frozen.resolveAll((any Plugin).self)
        #expect(plugins.map(\.id) == ["b", "unnamed", "a"])
        #expect(try frozen.resolveAll(Session.self).isEmpty)
    }

    @Test func childShadowsAndFallsBackWithoutRebuildingTheParent() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(instance: AppConfig(port: 1))
        let parent = try container.freeze()
        let parentDescription = parent.description
        let parentLogger = try parent.resolve(Logger.self)

        let child = try parent.child { c in
            c.register(instance: AppConfig(port: 2))
            c.autowire(Replica.self, Replica.init)
        }
        #expect(try child.resolve(AppConfig.self).port == 2)
        #expect(try child.resolve(Replica.self).label == "replica:2")
        #expect(try child.resolve(Logger.self) === parentLogger)
        #expect(try parent.resolve(AppConfig.self).port == 1)
        #expect(child.count == 2)
        #expect(parent.description == parentDescription)
        #expect(!parent.contains(Replica.self))
    }

    @Test func childMissingADependencyInBothIsReportedAtFreeze() throws {
        let parent = try Container().freeze()
        let error = try #require(
            frostError { _ = try parent.child { c in c.autowire(Replica.self, Replica.init) } })
        #expect(error.problems.first?.requestedKey == "FrostTests.AppConfig")
    }
}
