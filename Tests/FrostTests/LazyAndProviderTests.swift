import Frost
import Testing

/// `Lazy` (once, on first use) and `Provider` (on every call), for any registered type; of an
/// unregistered type, refused at once. Neither keeps its container alive (a singleton holding
/// one would otherwise keep its own container, and everything in it, forever): used after the
/// container is gone, it says so.
@Suite("Lazy and Provider")
struct LazyAndProviderTests {
    @Test(arguments: Mode.allCases)
    func lazyResolvesOnceOnFirstUse(mode: Mode) throws {
        let container = Container()
        let made = Counter()
        container.register(Logger.self) { _ in
            made.increment()
            return ConsoleLogger()
        }
        let resolver = try mode.resolver(container)

        let lazy = try resolver.resolve(Lazy<Logger>.self)
        #expect(made.value == 0)
        let first = lazy.value
        #expect(lazy.value === first)
        #expect(made.value == 1)
    }

    @Test(arguments: Mode.allCases)
    func providerResolvesOnEveryCall(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        container.register(Logger.self, name: "shared") { _ in ConsoleLogger() }.scope(.singleton)
        let resolver = try mode.resolver(container)

        let make = try resolver.resolve(Provider<Logger>.self)
        #expect(make() !== make())
        let shared = try resolver.resolve(Provider<Logger>.self, name: "shared")
        #expect(shared() === shared())
    }

    @Test(arguments: Mode.allCases)
    func lazyOfAnUnregisteredTypeIsRefusedAtOnce(mode: Mode) throws {
        let resolver = try mode.resolver(Container())
        let error = try #require(frostError { _ = try resolver.resolve(Lazy<Logger>.self) })
        #expect(error.code == .notRegistered)
        #expect(error.requestedKey == "FrostTests.Logger")
        let provider = try #require(frostError { _ = try resolver.resolve(Provider<Logger>.self) })
        #expect(provider.code == .notRegistered)
        #expect(provider.requestedKey == "FrostTests.Logger")
    }

    @Test func lazyGetReportsAFailingFactory() throws {
        let container = Container()
        container.register(Logger.self) { _ in throw FactoryFailure(reason: "later") }
        let frozen = try container.freeze()
        let lazy = try frozen.resolve(Lazy<Logger>.self)

        let error = try #require(frostError { _ = try lazy.get() })
        #expect(error.code == .factoryFailed)
        withExtendedLifetime(frozen) {}
    }

    // MARK: Neither keeps its container alive

    final class Holder: Sendable {
        let logger: Provider<Logger>
        init(logger: Provider<Logger>) { self.logger = logger }
    }

    @Test func aSingletonHoldingAProviderDoesNotKeepItsContainer() throws {
        weak var gone: FrozenContainer?
        var holder: Holder?
        do {
            let container = Container()
            container.register(Logger.self) { _ in ConsoleLogger() }
            container.autowire(Holder.self, Holder.init(logger:)).scope(.singleton)
            let frozen = try container.freeze()
            holder = try frozen.resolve(Holder.self)
            #expect(holder?.logger() is ConsoleLogger)
            gone = frozen
        }
        #expect(gone == nil)
        let error = try #require(frostError { _ = try holder?.logger.resolve() })
        #expect(error.code == .containerGone)
        #expect(error.description.contains("FrostTests.Logger"))
    }

    @Test func aLazyOutlivingItsContainerReportsIt() throws {
        let lazy: Lazy<Logger>
        do {
            let container = Container()
            container.register(Logger.self) { _ in ConsoleLogger() }
            lazy = try container.freeze().resolve(Lazy<Logger>.self)
        }
        #expect(frostError { _ = try lazy.get() }?.code == .containerGone)
    }
}
