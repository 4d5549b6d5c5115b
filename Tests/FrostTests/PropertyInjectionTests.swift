import Frost
import Testing

/// Property injection: key paths on registrations, property wrappers (of the class an instance
/// actually is, whatever type it is registered under), objects the container did not create;
/// `onCreate` hooks run after injection, once per instance.
@Suite("Property injection")
struct PropertyInjectionTests {
    /// A container with everything DetailScreen needs.
    static func container() -> Container {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(instance: AppConfig(port: 5))
        container.register(Database.self) { _ in Primary() }
        container.register(Database.self, name: "replica") { r in
            Replica(try r.resolve(AppConfig.self))
        }
        container.autowire(UserService.self, UserService.init(logger:db:))
        return container
    }

    @Test(arguments: Mode.allCases)
    func keyPathsAreInjectedAfterTheInitializer(mode: Mode) throws {
        let container = Self.container()
        container.register(DetailScreen.self) { _ in DetailScreen() }
            .inject(\.delegate)
            .inject(\.backup, name: "replica")
        let resolver = try mode.resolver(container)

        let screen = try resolver.resolve(DetailScreen.self)
        #expect(screen.delegate === (try resolver.resolve(Logger.self)))
        #expect(screen.backup?.label == "replica:5")
    }

    @Test(arguments: Mode.allCases)
    func wrappersOfCreatedInstancesAreFilled(mode: Mode) throws {
        let container = Self.container()
        container.register(DetailScreen.self) { _ in DetailScreen() }
        let resolver = try mode.resolver(container)

        let screen = try resolver.resolve(DetailScreen.self)
        #expect(screen.logger === (try resolver.resolve(Logger.self)))  // inherited
        #expect(screen.db.label == "replica:5")
        #expect(screen.service.db.label == "primary")
        #expect(screen.config.port == 5)
    }

    @Test func injectIntoFillsOnlyUnsetPropertiesThroughTheHierarchy() throws {
        // Reliant's scenario: an object the container did not create.
        let frozen = try Self.container().freeze()
        let screen = DetailScreen()
        let ownLogger = FileLogger()
        screen.logger = ownLogger

        try frozen.inject(into: screen)
        #expect(screen.logger === ownLogger)  // already set: left alone
        // inherited chain filled
        #expect(screen.service.logger === (try frozen.resolve(Logger.self)))
        #expect(screen.db.label == "replica:5")
        #expect(screen.delegate == nil)  // not a wrapper: never touched

        let service = screen.service
        try frozen.inject(into: screen)  // a second injection changes nothing
        #expect(screen.service === service)
    }

    @Test func lazyInjectedResolvesOnFirstAccess() throws {
        let container = Self.container()
        let made = Counter()
        container.register(AppConfig.self) { _ in
            made.increment()
            return AppConfig(port: 9)
        }.scope(.singleton)
        let frozen = try container.freeze()
        let screen = DetailScreen()

        try frozen.inject(into: screen, ignoring: ["db"])  // the replica needs AppConfig now
        #expect(made.value == 0)
        #expect(screen.config.port == 9)
        #expect(screen.config.port == 9)
        #expect(made.value == 1)
    }

    @Test func ignoredPropertiesAreLeftAlone() throws {
        let frozen = try Self.container().freeze()
        let screen = DetailScreen()
        try frozen.inject(into: screen, ignoring: ["service"])

        #expect(!screen.$service.isInjected)
        #expect(screen.db.label == "replica:5")
    }

    @Test func objectWithNothingToInjectIsAnError() throws {
        let frozen = try Self.container().freeze()
        let error = try #require(frostError { try frozen.inject(into: PlainObject()) })

        #expect(error.code == .nothingToInject)
        #expect(error.description.contains("FrostTests.PlainObject"))
        #expect(error.description.contains("no @Injected or @LazyInjected property"))
    }

    @Test func missingRegistrationForAPropertyNamesTheObject() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        let frozen = try container.freeze()

        let error = try #require(frostError { try frozen.inject(into: DetailScreen()) })
        #expect(error.code == .notRegistered)
        #expect(error.dependencyPath.first == "FrostTests.DetailScreen")
    }

    // MARK: Classes the registered type does not show

    /// The `@Injected` properties of an instance are filled when its class is
    /// registered under a protocol it conforms to.
    @Test(arguments: Mode.allCases)
    func injectedPropertiesAreFilledUnderAProtocol(mode: Mode) throws {
        let container = Container()
        container.register(Food.self) { _ in Food() }
        container.register((any HasFood).self) { _ in FedPlate() }
        let resolver = try mode.resolver(container)

        let plate = try #require(try resolver.resolve((any HasFood).self) as? FedPlate)
        #expect(plate.$food.isInjected)
    }

    /// The `@Injected` properties of an instance are filled when its class is registered under
    /// a superclass that has none.
    @Test(arguments: Mode.allCases)
    func injectedPropertiesAreFilledUnderASuperclass(mode: Mode) throws {
        let container = Container()
        container.register(Food.self) { _ in Food() }
        container.register(Plate.self) { _ in FedPlate() }
        let resolver = try mode.resolver(container)

        let plate = try #require(try resolver.resolve(Plate.self) as? FedPlate)
        #expect(plate.$food.isInjected)
    }

    /// `inject(into:)` on the resolver a factory receives gives `@LazyInjected` properties a
    /// container: reading one after the resolve returned works.
    @Test(arguments: Mode.allCases)
    func injectIntoFromAFactoryGivesLazyInjectedPropertiesAContainer(mode: Mode) throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.singleton)
        container.register(SheetOwner.self) { r in
            let sheet = Sheet()
            try r.inject(into: sheet)
            return SheetOwner(sheet: sheet)
        }
        let resolver = try mode.resolver(container)

        let owner = try resolver.resolve(SheetOwner.self)
        #expect(owner.sheet.$session.isInjected)
        let session = try resolver.resolve(Session.self)
        #expect(owner.sheet.session === session)  // the container is alive: `resolver` holds it
        withExtendedLifetime(resolver) {}
    }

    // MARK: onCreate hooks

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
}

final class Food: Sendable {}

protocol HasFood: AnyObject {}

/// A superclass without injected properties.
class Plate {
    init() {}
}

/// A subclass with one, registered under `HasFood` or `Plate`.
final class FedPlate: Plate, HasFood {
    @Injected var food: Food
}

/// An object a factory makes and injects itself.
final class Sheet {
    @LazyInjected var session: Session
    init() {}
}

/// What that factory returns.
struct SheetOwner {
    let sheet: Sheet
}
