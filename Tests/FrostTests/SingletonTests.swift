import Frost
import Testing

/// `.singleton`: one instance per container, made once, on the first resolve, and shared; a
/// registered instance is kept the same way, preset; a factory that fails leaves nothing
/// cached, and the next resolve tries again; `releaseCachedInstances()` drops what the
/// container made and keeps what it was given; every frozen container has its own.
@Suite("Singletons")
struct SingletonTests {
    @Test(arguments: Mode.allCases)
    func singletonIsCreatedOnceAndShared(mode: Mode) throws {
        let container = Container()
        let made = Counter()
        container.register(Logger.self) { _ in
            made.increment()
            return ConsoleLogger()
        }.scope(.singleton)
        let resolver = try mode.resolver(container)

        let first = try resolver.resolve(Logger.self)
        let second = try resolver.resolve(Logger.self)
        #expect(first === second)
        #expect(made.value == 1)
    }

    @Test(arguments: Mode.allCases)
    func registeredInstanceIsReturnedAsIs(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 8080))
        let logger = ConsoleLogger()
        container.register(instance: logger as any Logger)
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(AppConfig.self) == AppConfig(port: 8080))
        #expect(try resolver.resolve(Logger.self) === logger)
    }

    @Test func failedSingletonIsRetriedOnTheNextResolve() throws {
        let container = Container()
        let attempts = Counter()
        container.register(Logger.self) { _ in
            attempts.increment()
            if attempts.value == 1 { throw FactoryFailure(reason: "first") }
            return ConsoleLogger()
        }.scope(.singleton)
        let frozen = try container.freeze()

        #expect(frostError { _ = try frozen.resolve(Logger.self) }?.code == .factoryFailed)
        let logger = try frozen.resolve(Logger.self)
        #expect(try frozen.resolve(Logger.self) === logger)
        #expect(attempts.value == 2)
    }

    @Test func releaseCachedInstancesRecreatesSingletonsButKeepsRegisteredInstances() throws {
        let container = Container()
        let config = AppConfig(port: 1)
        let logger = FileLogger()
        container.register(instance: config)
        container.register(instance: logger as any Logger)
        container.register(Session.self) { _ in Session() }.scope(.singleton)
        let frozen = try container.freeze()

        let session = try frozen.resolve(Session.self)
        frozen.releaseCachedInstances()
        #expect(try frozen.resolve(Session.self) !== session)
        #expect(try frozen.resolve(Logger.self) === logger)
        #expect(try frozen.resolve(AppConfig.self) == config)
        frozen.releaseCachedInstances()  // releases what the first call took
        #expect(try frozen.resolve(Logger.self) === logger)
    }

    @Test func eachFrozenContainerHasItsOwnSingletons() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let beforeFreeze = try container.resolve(Logger.self)
        let first = try container.freeze()
        let second = try container.freeze()

        #expect(try first.resolve(Logger.self) !== second.resolve(Logger.self))
        #expect(try first.resolve(Logger.self) !== beforeFreeze)
    }

    /// The log of created singletons lists the singletons the container has now, in the order
    /// they were made, however often it released and made them again (the released ones'
    /// entries are dropped as the log grows); one the caller still holds after its release is
    /// no longer the container's, and not listed.
    @Test func createdSingletonsAfterManyReleasesListsTheCurrentOnesInOrder() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(Logger.self, name: "file") { _ in FileLogger() }.scope(.singleton)
        let frozen = try container.freeze()
        var held: [any Logger] = []
        var current: [any Logger] = []
        for round in 0..<1_000 {
            frozen.releaseCachedInstances()
            current = [
                try frozen.resolve(Logger.self, name: "file"), try frozen.resolve(Logger.self),
            ]
            if round % 100 == 0 { held.append(current[0]) }
        }

        let listed = frozen.createdSingletons(of: (any Logger).self)
        #expect(listed.count == 2)
        #expect(zip(listed, current).allSatisfy { $0 === $1 })
        #expect(held.count == 10)
    }

    /// A singleton the container released or disposed of is not listed among the created
    /// ones, even while a `Lazy` or a handle still holds it.
    @Test func createdSingletonsLeaveOutWhatIsHeldAfterItsRelease() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let frozen = try container.freeze()
        let first = try frozen.resolve(Logger.self)
        let lazy = try frozen.resolve(Lazy<Logger>.self)
        #expect(lazy.value === first)
        let handle = try frozen.handle(for: Logger.self)

        frozen.releaseCachedInstances()
        let second = try frozen.resolve(Logger.self)
        let listed = frozen.createdSingletons(of: (any Logger).self)
        #expect(listed.count == 1)
        #expect(listed.first === second)

        frozen.dispose()
        #expect(frozen.createdSingletons(of: (any Logger).self).isEmpty)
        #expect(lazy.value === first)
        withExtendedLifetime(handle) {}
    }

    /// `.scope(...)` changes what the next `freeze()` builds, never a frozen container built
    /// before: a transient made a singleton and a singleton made a transient, registered by a
    /// closure and autowired (a change in place before the first freeze included).
    @Test func aScopeChangedAfterFreezeLeavesTheFrozenContainerAsItWas() throws {
        let container = Container()
        container.register(instance: AppConfig(port: 8080))
        let logger = container.register(Logger.self) { _ in ConsoleLogger() }
        let replica = container.autowire(Replica.self, Replica.init).scope(.singleton)
        let before = try container.freeze()

        logger.scope(.singleton)
        replica.scope(.transient)
        let after = try container.freeze()

        #expect(try before.resolve(Logger.self) !== before.resolve(Logger.self))
        #expect(try before.resolve(Replica.self) === before.resolve(Replica.self))
        #expect(try after.resolve(Logger.self) === after.resolve(Logger.self))
        #expect(try after.resolve(Replica.self) !== after.resolve(Replica.self))
    }

    /// A scope changed once the frozen container that bound the registration is gone (the
    /// component is changed in place, already bound): the next freeze binds it and makes
    /// instances under the new scope.
    @Test func aScopeChangedAfterTheFrozenContainerWentApplies() throws {
        let container = Container()
        container.register(instance: AppConfig(port: 8080))
        let replica = container.autowire(Replica.self, Replica.init)
        do {
            let first = try container.freeze()
            #expect(try first.resolve(Replica.self) !== first.resolve(Replica.self))
        }
        replica.scope(.singleton)
        let second = try container.freeze()
        #expect(try second.resolve(Replica.self) === second.resolve(Replica.self))
        #expect(try second.resolve(Replica.self).label == "replica:8080")
    }

    /// A `Container` that has resolved keeps what it made under the scope it had; a scope
    /// changed afterwards applies to its next resolves, as a new registration would.
    @Test func aScopeChangedAfterAResolveAppliesToTheNextResolves() throws {
        let container = Container()
        let logger = container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let kept = try container.resolve(Logger.self)
        #expect(try container.resolve(Logger.self) === kept)

        logger.scope(.transient)
        let first = try container.resolve(Logger.self)
        let second = try container.resolve(Logger.self)
        #expect(first !== second)
        #expect(first !== kept && second !== kept)

        logger.scope(.singleton)
        #expect(try container.resolve(Logger.self) === container.resolve(Logger.self))
    }
}
