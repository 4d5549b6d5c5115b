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

    // MARK: What they hold: the registration found when they were made

    /// Made through a child, they resolve what the child sees: its own registration of a key
    /// its parent registers too, its own `.scoped` instance, its parent's singleton as the
    /// parent caches it; made through the parent, the parent's.
    @Test(arguments: Mode.allCases)
    func throughAChildTheyResolveWhatTheChildSees(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        container.register(Database.self) { _ in Primary() }.scope(.singleton)
        container.register(Sink.self) { _ in FileLogger() }.scope(.scoped)
        let parent = try mode.family(container)
        let child = try parent.child { c in c.register(Logger.self) { _ in FileLogger() } }

        #expect(try child.resolver.resolve(Provider<Logger>.self)() is FileLogger)
        #expect(try child.resolver.resolve(Lazy<Logger>.self).value is FileLogger)
        #expect(try parent.resolver.resolve(Provider<Logger>.self)() is ConsoleLogger)
        #expect(try parent.resolver.resolve(Lazy<Logger>.self).value is ConsoleLogger)

        let primary = try parent.resolver.resolve(Database.self)
        #expect(try child.resolver.resolve(Lazy<Database>.self).value === primary)
        #expect(try child.resolver.resolve(Provider<Database>.self)() === primary)

        let sink = try child.resolver.resolve(Provider<Sink>.self)
        #expect(sink() === sink())
        #expect(try sink() === child.resolver.resolve(Sink.self))
        #expect(try child.resolver.resolve(Lazy<Sink>.self).value === sink())
        let outside = try parent.resolver.resolve(Provider<Sink>.self)
        #expect(frostError { _ = try outside.resolve() }?.code == .outsideChild)
    }

    /// `resolve(Lazy<T>.self)` and `resolve(Provider<T>.self)` spelled out take a form of their
    /// own (specialized, no lookup of the wrapper's key); reached from generic code, or with a
    /// name, the general resolve makes them. Both make the same thing, and fail the same way.
    @Test(arguments: Mode.allCases)
    func theGeneralResolveMakesWhatTheSpelledOutOneMakes(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let resolver = try mode.resolver(container)
        func general<W>(_ type: W.Type) throws -> W { try resolver.resolve(W.self) }

        let logger = try resolver.resolve(Logger.self)
        #expect(try general(Lazy<Logger>.self).value === logger)
        #expect(try general(Provider<Logger>.self)() === logger)
        #expect(try resolver.resolve(Lazy<Logger>.self, name: nil).value === logger)
        #expect(try resolver.resolve(Provider<Logger>.self, name: nil)() === logger)

        let spelled = try #require(frostError { _ = try resolver.resolve(Lazy<Database>.self) })
        let generic = try #require(frostError { _ = try general(Lazy<Database>.self) })
        #expect(spelled.code == .notRegistered)
        #expect(spelled.description == generic.description)
        let provider = try #require(
            frostError { _ = try resolver.resolve(Provider<Database>.self) })
        let generalProvider = frostError { _ = try general(Provider<Database>.self) }
        #expect(provider.description == generalProvider?.description)
    }

    /// Another container, of a `FileLogger`: its `Lazy` and `Provider` are what the tests
    /// below register in a container as wrapper types of its own (bridged). Keep it alive while
    /// they are used.
    static func legacyLoggers() throws -> FrozenContainer {
        let legacy = Container()
        legacy.register(Logger.self) { _ in FileLogger() }
        return try legacy.freeze()
    }

    /// A container may register a `Lazy` or `Provider` type itself (one from another container,
    /// bridged): then every spelling of its resolve, and every child's, gives the registered
    /// one; a container that registers none still makes its own.
    @Test(arguments: Mode.allCases)
    func aRegisteredLazyOrProviderTypeAnswersEverySpelling(mode: Mode) throws {
        let legacyFrozen = try Self.legacyLoggers()
        let bridgedProvider = try legacyFrozen.resolve(Provider<Logger>.self)
        let bridgedLazy = try legacyFrozen.resolve(Lazy<Logger>.self)
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        container.register(Provider<Logger>.self) { _ in bridgedProvider }
        container.register(instance: bridgedLazy)
        let family = try mode.family(container)
        let child = try family.child()
        func general<W>(_ type: W.Type, from resolver: any Resolver) throws -> W {
            try resolver.resolve(W.self)
        }

        for resolver in [family.resolver, child.resolver] {
            #expect(try resolver.resolve(Provider<Logger>.self)() is FileLogger)
            #expect(try general(Provider<Logger>.self, from: resolver)() is FileLogger)
            #expect(try resolver.resolve(Lazy<Logger>.self) === bridgedLazy)
            #expect(try general(Lazy<Logger>.self, from: resolver) === bridgedLazy)
            #expect(try resolver.resolve(Logger.self) is ConsoleLogger)
        }
        #expect(try legacyFrozen.resolve(Provider<Logger>.self)() is FileLogger)
    }

    /// Wherever in a chain the wrapper type is registered, the containers below it resolve the
    /// registration: a child with keys of its own under a parent that registers it, a child
    /// that registers it under a parent that does not (the parent still makes its own), and a
    /// `Container` that registers it after making one.
    @Test(arguments: Mode.allCases)
    func aWrapperRegisteredAnywhereInTheChainAnswersBelowIt(mode: Mode) throws {
        let legacyFrozen = try Self.legacyLoggers()
        let bridged = try legacyFrozen.resolve(Provider<Logger>.self)
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        let plain = try mode.family(container)
        let bridging = try plain.child { c in c.register(Provider<Logger>.self) { _ in bridged } }
        let below = try bridging.child { c in c.register(Database.self) { _ in Primary() } }

        #expect(try plain.resolver.resolve(Provider<Logger>.self)() is ConsoleLogger)
        #expect(try bridging.resolver.resolve(Provider<Logger>.self)() is FileLogger)
        #expect(try below.resolver.resolve(Provider<Logger>.self)() is FileLogger)
        #expect(try below.resolver.resolve(Database.self) is Primary)

        let growing = Container()
        growing.register(Logger.self) { _ in ConsoleLogger() }
        #expect(try growing.resolve(Provider<Logger>.self)() is ConsoleLogger)
        growing.register(Provider<Logger>.self) { _ in bridged }
        #expect(try growing.resolve(Provider<Logger>.self)() is FileLogger)
        withExtendedLifetime(legacyFrozen) {}
    }

    /// In async code the awaited form of the spelled-out resolve answers as the synchronous
    /// one; a registered wrapper made by an async factory is awaited.
    @Test func theAwaitedFormAnswersAsTheSynchronousOne() async throws {
        let legacyFrozen = try Self.legacyLoggers()
        let bridged = try await legacyFrozen.resolve(Provider<Logger>.self)
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let frozen = try container.freeze()
        let logger: any Logger = try await frozen.resolve((any Logger).self)
        #expect(try await frozen.resolve(Lazy<Logger>.self).value === logger)
        #expect(try await frozen.resolve(Provider<Logger>.self)() === logger)

        let bridging = Container()
        bridging.register(Provider<Logger>.self) { _ async in bridged }
        let bridgingFrozen = try bridging.freeze()
        #expect(try await bridgingFrozen.resolve(Provider<Logger>.self)() is FileLogger)
        withExtendedLifetime(legacyFrozen) {}
        await frozen.dispose()
        let error = await #expect(throws: FrostError.self) {
            _ = try await frozen.resolve(Lazy<Logger>.self)
        }
        #expect(error?.code == .disposed)
    }

    /// After a frozen container's `releaseCachedInstances()`, a `Provider` resolves the singleton made anew and a
    /// `Lazy` not read yet keeps the new one; a `Lazy` read before keeps the one it read.
    @Test func afterReleasingCachedInstancesTheyResolveTheNewSingleton() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(Logger.self, name: "file") { _ in FileLogger() }.scope(.singleton)
        let resolver = try container.freeze()
        let provider = try resolver.resolve(Provider<Logger>.self)
        let named = try resolver.resolve(Provider<Logger>.self, name: "file")
        let read = try resolver.resolve(Lazy<Logger>.self)
        let unread = try resolver.resolve(Lazy<Logger>.self)
        let first = provider()
        #expect(read.value === first)
        #expect(named() is FileLogger)
        let firstFile = named()

        resolver.releaseCachedInstances()
        let second = provider()
        #expect(second !== first)
        #expect(try second === resolver.resolve(Logger.self))
        #expect(named() !== firstFile)
        #expect(named() is FileLogger)
        #expect(read.value === first)
        #expect(unread.value === second)
    }

    /// After the container's `dispose()`, resolving through either throws `.disposed`, from
    /// the container and from a child.
    @Test(arguments: Mode.allCases)
    func afterDisposeTheyThrowDisposed(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(Database.self) { _ in Primary() }
        let parent = try mode.family(container)
        let child = try parent.child()
        let providers = [
            try parent.resolver.resolve(Provider<Logger>.self),
            try child.resolver.resolve(Provider<Logger>.self),
        ]
        let lazies = [
            try parent.resolver.resolve(Lazy<Database>.self),
            try child.resolver.resolve(Lazy<Database>.self),
        ]
        _ = providers[0]()

        child.dispose()
        #expect(frostError { _ = try providers[1].resolve() }?.code == .disposed)
        #expect(frostError { _ = try lazies[1].get() }?.code == .disposed)
        #expect(providers[0]() is ConsoleLogger)
        parent.dispose()
        #expect(frostError { _ = try providers[0].resolve() }?.code == .disposed)
        #expect(frostError { _ = try lazies[0].get() }?.code == .disposed)
        #expect(
            frostError { _ = try parent.resolver.resolve(Lazy<Logger>.self) }?.code == .disposed)
        #expect(
            frostError { _ = try child.resolver.resolve(Provider<Logger>.self) }?.code == .disposed)
    }
}
