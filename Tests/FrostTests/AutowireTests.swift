import Testing

@testable import Frost

/// Autowiring by initializer: parameters resolved by type, any arity, bound at freeze.
@Suite("Autowiring")
struct AutowireTests {
    @Test(arguments: Mode.allCases)
    func bootstrapResolvesTheMainControllerOnce(mode: Mode) throws {
        // MVIOCContainer's scenario: register the app, its window and its main controller.
        let container = Container()
        container.register(instance: Application(name: "Frost"))
        container.autowire(Window.self, Window.init(application:)).scope(.singleton)
        container.autowire(MainController.self, MainController.init(window:logger:))
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let resolver = try mode.resolver(container)

        let controller = try resolver.resolve(MainController.self)
        #expect(controller.window.application.name == "Frost")
        #expect(controller.window === (try resolver.resolve(Window.self)))
        #expect(controller.logger === (try resolver.resolve(Logger.self)))
    }

    /// One container's registrations installed by several: the container resolving before it
    /// is frozen, a first frozen container, then, after more registrations move every key to
    /// another slot, a second and a child. Each reads the parameters of the same autowired
    /// registrations through its own slots (the first to install them binds them in place,
    /// the others bind copies), and the first frozen container is unchanged by the second.
    @Test func eachContainerReadsTheParametersOfTheSameRegistrationsThroughItsOwnSlots() throws {
        let container = Container()
        container.register(instance: AppConfig(port: 3))
        container.autowire(Replica.self, Replica.init)
        container.autowire(String.self) { (config: AppConfig, replica: Replica) in
            "\(config.port) \(replica.label)"
        }
        #expect(try container.resolve(String.self) == "3 replica:3")
        let first = try container.freeze()
        for index in 0..<50 { container.register(instance: index, name: "filler \(index)") }
        container.register(instance: AppConfig(port: 4))
        let second = try container.freeze()
        let child = try second.child { $0.register(instance: AppConfig(port: 5)) }

        #expect(try first.resolve(String.self) == "3 replica:3")
        #expect(try second.resolve(String.self) == "4 replica:4")
        #expect(try child.resolve(String.self) == "5 replica:5")
        #expect(try container.resolve(String.self) == "4 replica:4")
        #expect(try first.resolve(String.self) == "3 replica:3")
    }

    @Test(arguments: Mode.allCases)
    func initializersOfAnyArity(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 3))
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.autowire(Primary.self, Primary.init)
        container.autowire(Replica.self, Replica.init)
        container.autowire(String.self) {
            (config: AppConfig, replica: Replica, primary: Primary, logger: any Logger) in
            "\(config.port) \(replica.label) \(primary.label) \(logger is ConsoleLogger)"
        }
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(String.self) == "3 replica:3 primary true")
    }

    @Test(arguments: Mode.allCases)
    func everyArityFromZeroToEight(mode: Mode) throws {
        // One to six parameters take the fixed-arity overloads; zero, seven and eight the
        // parameter-pack form. All must resolve each parameter by its own type, in order.
        let container = Container()
        container.register(Part<A>.self) { _ in Part(1) }
        container.register(Part<B>.self) { _ in Part(2) }
        container.register(Part<C>.self) { _ in Part(3) }
        container.register(Part<D>.self) { _ in Part(4) }
        container.register(Part<E>.self) { _ in Part(5) }
        container.register(Part<F>.self) { _ in Part(6) }
        container.register(Part<G>.self) { _ in Part(7) }
        container.register(Part<H>.self) { _ in Part(8) }
        container.autowire([Int].self, name: "0") { () in [] }
        container.autowire([Int].self, name: "1") { (a: Part<A>) in [a.value] }
        container.autowire([Int].self, name: "2") { (a: Part<A>, b: Part<B>) in
            [a.value, b.value]
        }
        container.autowire([Int].self, name: "3") { (a: Part<A>, b: Part<B>, c: Part<C>) in
            [a.value, b.value, c.value]
        }
        container.autowire([Int].self, name: "4") {
            (a: Part<A>, b: Part<B>, c: Part<C>, d: Part<D>) in
            [a.value, b.value, c.value, d.value]
        }
        container.autowire([Int].self, name: "5") {
            (a: Part<A>, b: Part<B>, c: Part<C>, d: Part<D>, e: Part<E>) in
            [a.value, b.value, c.value, d.value, e.value]
        }
        container.autowire([Int].self, name: "6") {
            (a: Part<A>, b: Part<B>, c: Part<C>, d: Part<D>, e: Part<E>, f: Part<F>) in
            [a.value, b.value, c.value, d.value, e.value, f.value]
        }
        container.autowire([Int].self, name: "7") {
            (a: Part<A>, b: Part<B>, c: Part<C>, d: Part<D>, e: Part<E>, f: Part<F>, g: Part<G>)
            in
            [a.value, b.value, c.value, d.value, e.value, f.value, g.value]
        }
        container.autowire([Int].self, name: "8") {
            (
                a: Part<A>, b: Part<B>, c: Part<C>, d: Part<D>, e: Part<E>, f: Part<F>,
                g: Part<G>, h: Part<H>
            ) in
            [a.value, b.value, c.value, d.value, e.value, f.value, g.value, h.value]
        }
        let resolver = try mode.resolver(container)

        for arity in 0...8 {
            #expect(
                try resolver.resolve([Int].self, name: "\(arity)")
                    == Array(1...8).prefix(arity).map { $0 })
        }
    }

    @Test(arguments: Mode.allCases)
    func consumingInitializersAndStoredFunctionValuesAreAccepted(mode: Mode) throws {
        // `autowire` takes its initializer with `consuming` parameters: an initializer that
        // declares them so passes on what it is given; any other function value converts.
        let container = Container()
        container.register(instance: Application(name: "Frost"))
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.autowire(Window.self, Window.init(application:)).scope(.singleton)
        container.autowire(OwningController.self, OwningController.init(window:logger:))
        let stored: @Sendable (Window, any Logger) -> MainController = MainController.init
        container.autowire(MainController.self, stored)
        let seven: @Sendable (Window, Window, Window, Window, Window, Window, any Logger) -> Int =
            { first, _, _, _, _, last, logger in
                first === last && logger is ConsoleLogger ? 7 : 0
            }
        container.autowire(Int.self, seven)
        let resolver = try mode.resolver(container)

        let owning = try resolver.resolve(OwningController.self)
        #expect(owning.window === (try resolver.resolve(Window.self)))
        #expect(try resolver.resolve(MainController.self).window === owning.window)
        #expect(try resolver.resolve(Int.self) == 7)
    }

    @Test(arguments: Mode.allCases)
    func aMissingParameterOfAFixedArityInitializerIsNamed(mode: Mode) throws {
        let container = Container()
        container.register(Part<A>.self) { _ in Part(1) }
        container.autowire([Int].self) { (a: Part<A>, b: Part<B>, c: Part<C>) in
            [a.value, b.value, c.value]
        }
        let error = try #require(
            frostError { _ = try mode.resolver(container).resolve([Int].self) })

        #expect(error.description.contains("Part<FrostTests.B>"))
    }

    @Test(arguments: Mode.allCases)
    func namedAutowiring(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 7))
        container.autowire(Database.self, name: "replica") { (config: AppConfig) in Replica(config)
        }
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(Database.self, name: "replica").label == "replica:7")
    }

    @Test func autowiredGraphSharesSingletonsAndMakesTransients() throws {
        let container = Container()
        container.register(instance: AppConfig(port: 1))
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.autowire(Database.self) { (config: AppConfig) in Replica(config) }
        container.autowire(UserService.self, UserService.init(logger:db:))
        let frozen = try container.freeze()

        let first = try frozen.resolve(UserService.self)
        let second = try frozen.resolve(UserService.self)
        #expect(first !== second)
        #expect(first.logger === second.logger)
        #expect(first.db !== second.db)
    }
}

extension AutowireTests {
    @Test
    func anInitializerWithoutParametersIsMadeThroughItsBoundFrame() throws {
        // An autowired initializer without parameters is bound at freeze like one with
        // parameters, so the frozen container makes it directly (it once fell to the general
        // path, which cost a resolve 1.5 times the instructions).
        let container = Container()
        container.autowire(Part<A>.self) { () in Part(1) }
        container.autowire(Part<B>.self) { (a: Part<A>) in Part(a.value + 1) }
        let frozen = try container.freeze()

        for type in [Part<A>.self, Part<B>.self] as [Any.Type] {
            let slot = frozen.table.slot(for: RegistrationKey(type, name: nil))
            let component = frozen.table.component(at: slot)
            #expect(component.createsAtRoot)
            #expect(component.boundSlots != nil, "\(type) is not made through bound parameters")
        }
        #expect(try frozen.resolve(Part<B>.self).value == 2)
    }

    @Test
    func aFailingInitializerWithoutParametersIsNamedOnThePath() throws {
        // Made through the bound frame, it still enters the resolve's path.
        struct Broken: Error {}
        let container = Container()
        container.autowire(Part<A>.self) { () throws in throw Broken() }
        container.autowire(Part<B>.self) { (a: Part<A>) in Part(a.value + 1) }
        let frozen = try container.freeze()

        let error = try #require(frostError { _ = try frozen.resolve(Part<B>.self) })
        #expect(error.code == .factoryFailed)
        #expect(
            error.dependencyPath == [
                "FrostTests.Part<FrostTests.B>", "FrostTests.Part<FrostTests.A>",
            ])
    }
}

/// A value tagged by a type, to make many distinct registrable types.
struct Part<Tag>: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}

enum A {}
enum B {}
enum C {}
enum D {}
enum E {}
enum F {}
enum G {}
enum H {}
