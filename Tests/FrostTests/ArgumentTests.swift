import Frost
import Testing

/// Runtime arguments, in Swinject's spelling; a wrong type or count is an error, never a crash.
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
}
