import Dispatch
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

    /// An object whose `@Injected` properties are a class, a protocol existential and a struct.
    final class MixedHolder {
        @Injected var service: UserService
        @Injected var logger: any Logger
        @Injected var config: AppConfig
    }

    /// `@Injected` holds a class instance, an existential and a struct value alike: filled,
    /// set by hand, and released with the object that holds it.
    @Test func injectedHoldsClassesExistentialsAndValues() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(instance: AppConfig(port: 8080))
        container.register(UserService.self) { r in
            UserService(logger: try r.resolve(Logger.self), db: Primary())
        }.scope(.singleton)
        let frozen = try container.freeze()

        weak var released: UserService?
        do {
            let holder = MixedHolder()
            #expect(!holder.$config.isInjected)
            try frozen.inject(into: holder)
            #expect(holder.$service.isInjected && holder.$logger.isInjected)
            #expect(holder.service === (try frozen.resolve(UserService.self)))
            #expect(holder.logger === (try frozen.resolve(Logger.self)))
            #expect(holder.config == AppConfig(port: 8080))

            let replaced = UserService(logger: ConsoleLogger(), db: Primary())
            holder.service = replaced
            holder.config = AppConfig(port: 9)
            #expect(holder.service === replaced && holder.config.port == 9)
            released = replaced
        }
        #expect(released == nil)
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

    /// `inject(into:)` meets many classes (each `Nest` nesting is a class of its own): each is
    /// filled the first time, and again, from the plans it kept, the second time.
    @Test func injectIntoFillsEveryClassItMeets() throws {
        let frozen = try Self.container().freeze()
        let logger = try frozen.resolve(Logger.self)
        for _ in 0..<2 {
            let filled = try Nest<Food>.fill(depth: 40, from: frozen)
            #expect(filled.count == 41)
            #expect(filled.allSatisfy { $0 === logger })
        }
    }

    /// Threads that meet the same classes at once, each for the first time, fill them all.
    @Test(.timeLimit(.minutes(1)))
    func injectIntoFromManyThreadsAtOnce() throws {
        let frozen = try Self.container().freeze()
        let logger = try frozen.resolve(Logger.self)
        let good = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            guard let filled = try? Nest<Session>.fill(depth: 30, from: frozen),
                filled.count == 31, filled.allSatisfy({ $0 === logger })
            else { return }
            good.increment()
        }
        #expect(good.value == 8)
    }

    /// A resolver of your own (none of Frost's containers) fills `@Injected` properties,
    /// named ones by their name.
    @Test func injectIntoThroughAResolverOfYourOwn() throws {
        let resolver = ForwardingResolver(try Self.container().freeze())
        let screen = DetailScreen()
        try resolver.inject(into: screen)

        #expect(screen.db.label == "replica:5")
        #expect(screen.service.db.label == "primary")
        #expect(resolver.asked.value == 3)  // logger, service, db: by `resolve(_:name:)`
    }

    /// `.inject(\.property)` of a non-optional property and of a named one, on a registration
    /// of the parent resolved through a child: the properties resolve in the child, which
    /// registers its own logger and database.
    @Test(arguments: Mode.allCases)
    func keyPathsOfAParentsRegistrationResolveInTheChild(mode: Mode) throws {
        let container = Self.container()
        container.register(Console.self) { _ in Console() }
            .inject(\.logger)
            .inject(\.backup, name: "replica")
        let parent = try mode.family(container)
        let child = try parent.child { c in
            c.register(Logger.self) { _ in FileLogger() }.scope(.singleton)
            c.register(Database.self, name: "replica") { _ in Replica(AppConfig(port: 7)) }
        }

        let console = try child.resolver.resolve(Console.self)
        #expect(console.logger is FileLogger)
        #expect(console.backup.label == "replica:7")
        let fromParent = try parent.resolver.resolve(Console.self)
        #expect(fromParent.logger is ConsoleLogger)
        #expect(fromParent.backup.label == "replica:5")
    }

    /// A transient with key paths made as another transient's parameter (through the
    /// parameter's frame) has them injected, each time.
    @Test(arguments: Mode.allCases)
    func keyPathsOfAParameterAreInjected(mode: Mode) throws {
        let container = Self.container()
        container.register(DetailScreen.self) { _ in DetailScreen() }
            .inject(\.delegate)
            .inject(\.backup, name: "replica")
        container.autowire(ScreenHolder.self, ScreenHolder.init(screen:))
        let resolver = try mode.resolver(container)

        let first = try resolver.resolve(ScreenHolder.self)
        let second = try resolver.resolve(ScreenHolder.self)
        #expect(first.screen !== second.screen)
        for holder in [first, second] {
            #expect(holder.screen.delegate === (try resolver.resolve(Logger.self)))
            #expect(holder.screen.backup?.label == "replica:5")
        }
    }

    /// A key path whose type nothing registers fails the resolve (a `Container` does not
    /// validate), naming the registration; once registered, it is injected.
    @Test func aKeyPathOfAnUnregisteredTypeFailsTheResolve() throws {
        let container = Container()
        container.register(Pane.self) { _ in Pane() }.inject(\.delegate)

        let error = try #require(frostError { _ = try container.resolve(Pane.self) })
        #expect(error.code == .notRegistered)
        #expect(error.dependencyPath.first == "FrostTests.Pane")

        container.register(Logger.self) { _ in FileLogger() }
        #expect(try container.resolve(Pane.self).delegate is FileLogger)
    }

    /// A property with an observer is written through its setter on every instance: the
    /// observer runs once per injection, from the first instance on.
    @Test(arguments: Mode.allCases)
    func keyPathsToObservedPropertiesRunTheirObservers(mode: Mode) throws {
        let container = Self.container()
        let observed = Counter()
        container.register(Observed.self) { _ in Observed(observed) }.inject(\.delegate)
        let resolver = try mode.resolver(container)

        for made in 1...3 {
            let instance = try resolver.resolve(Observed.self)
            #expect(instance.delegate != nil)
            #expect(observed.value == made)
        }
    }

    /// A registration of a base class whose factory makes subclass instances too, one of
    /// which overrides the property with an observer: each instance is written as its class
    /// says, whichever class the first instance was.
    @Test(arguments: Mode.allCases, [false, true])
    func keyPathsToOverriddenPropertiesUseTheOverride(mode: Mode, overridingFirst: Bool) throws {
        let container = Self.container()
        let observed = Counter()
        let made = Counter()
        container.register(Pane.self) { _ in
            made.increment()
            return made.value % 2 == (overridingFirst ? 1 : 0) ? ObservedPane(observed) : Pane()
        }
        .inject(\.delegate)
        let resolver = try mode.resolver(container)

        var overriding = 0
        for _ in 0..<4 {
            let pane = try resolver.resolve(Pane.self)
            #expect(pane.delegate != nil)
            if pane is ObservedPane { overriding += 1 }
            #expect(observed.value == overriding)
        }
        #expect(overriding == 2)
    }

    /// Threads that make the first instances at once all get their property written. (A
    /// frozen container: a `Container` is for one thread.)
    @Test(.timeLimit(.minutes(1)))
    func keyPathsAreWrittenFromManyThreadsAtOnce() throws {
        let container = Self.container()
        container.register(DetailScreen.self) { _ in DetailScreen() }
            .inject(\.delegate)
            .inject(\.backup, name: "replica")
        let frozen = try container.freeze()
        let good = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                guard let screen = try? frozen.resolve(DetailScreen.self),
                    screen.delegate != nil, screen.backup?.label == "replica:5"
                else { return }
            }
            good.increment()
        }
        #expect(good.value == 8)
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

/// A class per nesting (`Nest<Food>`, `Nest<Nest<Food>>`, ...), each with an `@Injected`
/// property: many classes for `inject(into:)` to meet.
final class Nest<Tag> {
    @Injected var logger: any Logger
    init() {}

    /// Fills a `Nest<Tag>` and the `depth` nestings around it; their loggers.
    static func fill(depth: Int, from resolver: any Resolver) throws -> [any Logger] {
        let nest = Nest<Tag>()
        try resolver.inject(into: nest)
        guard depth > 0 else { return [nest.logger] }
        return [nest.logger] + (try Nest<Nest<Tag>>.fill(depth: depth - 1, from: resolver))
    }
}

/// A resolver that is none of Frost's containers: it forwards `resolve(_:name:)` and counts.
struct ForwardingResolver: Resolver {
    let base: FrozenContainer
    let asked = Counter()

    init(_ base: FrozenContainer) { self.base = base }

    func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        asked.increment()
        return try base.resolve(T.self, name: name)
    }
}

/// Property injection of non-optional properties, the second by name.
final class Console {
    var logger: any Logger = ConsoleLogger()
    var backup: any Database = Primary()
    init() {}
}

/// A property with an observer, target of `.inject(\.delegate)`.
final class Observed {
    let observed: Counter
    var delegate: (any Logger)? {
        didSet { observed.increment() }
    }
    init(_ observed: Counter) { self.observed = observed }
}

/// A class whose subclass overrides its property with an observer.
class Pane {
    var delegate: (any Logger)?
    init() {}
}

final class ObservedPane: Pane {
    let observed: Counter
    override var delegate: (any Logger)? {
        didSet { observed.increment() }
    }
    init(_ observed: Counter) {
        self.observed = observed
        super.init()
    }
}

/// A transient that takes a `DetailScreen` made for it.
final class ScreenHolder {
    let screen: DetailScreen
    init(screen: DetailScreen) { self.screen = screen }
}
