import Frost
import Testing

/// Runtime arguments, in Swinject's spelling; a wrong type or count is an error, never a crash;
/// a forward or an alias of a registration that takes them takes them too.
@Suite("Runtime arguments")
struct ArgumentTests {
    static func container() -> Container {
        let container = Container()
        container.register(Greeting.self) { _, name in Greeting(to: name) }
        container.register(Route.self) { _, path, port in Route(path: path, port: port) }
        container.register(Logger.self) { _ in ConsoleLogger() }
        return container
    }

    @Test(arguments: Mode.allCases)
    func oneAndTwoArguments(mode: Mode) throws {
        let resolver = try mode.resolver(Self.container())
        #expect(try resolver.resolve(Greeting.self, argument: "Ann") == Greeting(to: "Ann"))
        #expect(try resolver.resolve(Route.self, arguments: "/", 80) == Route(path: "/", port: 80))
    }

    @Test(arguments: Mode.allCases)
    func wrongArgumentTypeIsAnError(mode: Mode) throws {
        let resolver = try mode.resolver(Self.container())
        let error = try #require(
            frostError { _ = try resolver.resolve(Greeting.self, argument: 42) })
        #expect(error.code == .argumentMismatch)
        #expect(error.description.contains("Swift.String"))
        #expect(error.description.contains("Swift.Int"))
    }

    @Test(arguments: Mode.allCases)
    func wrongArgumentCountIsAnError(mode: Mode) throws {
        let resolver = try mode.resolver(Self.container())
        #expect(
            frostError { _ = try resolver.resolve(Route.self, argument: "/") }?.code
                == .argumentMismatch)
        #expect(
            frostError { _ = try resolver.resolve(Route.self, arguments: "/", 80, 1) }?.code
                == .argumentMismatch)
    }

    @Test(arguments: Mode.allCases)
    func resolvingWithoutTheArgumentsIsAnError(mode: Mode) throws {
        let resolver = try mode.resolver(Self.container())
        let error = try #require(frostError { _ = try resolver.resolve(Greeting.self) })
        #expect(error.code == .argumentMismatch)
        #expect(error.description.contains("resolve(_:argument:)"))
    }

    @Test(arguments: Mode.allCases)
    func argumentsForARegistrationWithoutThemIsAnError(mode: Mode) throws {
        let resolver = try mode.resolver(Self.container())
        let error = try #require(
            frostError { _ = try resolver.resolve(Logger.self, argument: "x") })
        #expect(error.code == .argumentMismatch)
        #expect(error.description.contains("takes no runtime arguments"))
    }

    /// A factory with arguments resolves from the container it is resolved through (a child's
    /// registrations included); its failure names the path; its hooks run; a disposed
    /// container, or a child's disposed parent, refuses it.
    @Test(arguments: Mode.allCases)
    func aFactoryWithArgumentsResolvesThroughItsContainerAndFailsByName(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        container.register(Signed.self) { r, text in
            Signed(text: text, logger: try r.resolve(Logger.self))
        }
        container.register(Route.self) { _, path, port in
            guard port > 0 else { throw FactoryFailure(reason: "port") }
            return Route(path: path, port: port)
        }
        let hooked = Counter()
        container.register(Greeting.self) { _, name in Greeting(to: name) }
            .onCreate { _, _ in hooked.increment() }
        let parent = try mode.family(container)
        let file = FileLogger()
        let child = try parent.child { $0.register(Logger.self) { _ in file } }

        let signed = try child.resolver.resolve(Signed.self, argument: "hi")
        #expect(signed.text == "hi" && signed.logger === file)
        #expect(try parent.resolver.resolve(Signed.self, argument: "hi").logger !== file)
        #expect(try parent.resolver.resolve(Greeting.self, argument: "Ann") == Greeting(to: "Ann"))
        #expect(hooked.value == 1)
        let failed = try #require(
            frostError { _ = try parent.resolver.resolve(Route.self, arguments: "/", 0) })
        #expect(failed.code == .factoryFailed)
        #expect(failed.dependencyPath == ["FrostTests.Route"])

        parent.dispose()
        #expect(
            frostError { _ = try child.resolver.resolve(Route.self, arguments: "/", 80) }?.code
                == .disposed)
        #expect(
            frostError { _ = try parent.resolver.resolve(Route.self, arguments: "/", 80) }?.code
                == .disposed)
    }

    // MARK: Forwards and aliases take the arguments of their registration

    /// A `.implements` forward of a registration that takes a runtime argument
    /// takes the same argument.
    @Test(arguments: Mode.allCases)
    func anImplementsForwardTakesTheRuntimeArgumentsOfItsRegistration(mode: Mode) throws {
        let container = Container()
        container.register(Greeting.self) { _, name in Greeting(to: name) }
            .implements((any Salutation).self)
        let resolver = try mode.resolver(container)

        let salutation = try resolver.resolve((any Salutation).self, argument: "Ann")
        #expect(salutation.text == "Hello, Ann")
    }

    /// An alias of a registration that takes a runtime argument takes the same argument.
    @Test(arguments: Mode.allCases)
    func anAliasTakesTheRuntimeArgumentsOfItsRegistration(mode: Mode) throws {
        let container = Container()
        container.register(Greeting.self) { _, name in Greeting(to: name) }.alias("other")
        let resolver = try mode.resolver(container)

        #expect(
            try resolver.resolve(Greeting.self, name: "other", argument: "Ann")
                == Greeting(to: "Ann"))
    }
}

/// A value made from a runtime argument and a dependency.
struct Signed: Sendable {
    let text: String
    let logger: any Logger
}

/// What a `.implements` forward of `Greeting` is resolved as.
protocol Salutation: Sendable {
    var text: String { get }
}

extension Greeting: Salutation {}
