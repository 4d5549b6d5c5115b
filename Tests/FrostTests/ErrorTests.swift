import Frost
import Testing

/// Failures are errors that name the type and the path that needed it, on both containers:
/// what is not registered, what a factory or an initializer threw.
@Suite("Errors")
struct ErrorTests {
    @Test(arguments: Mode.allCases)
    func unregisteredTypeNamesTheType(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Unregistered.self) })
        #expect(error.code == .notRegistered)
        #expect(error.requestedKey == String(reflecting: Unregistered.self))
        #expect(error.description.contains("nothing is registered for FrostTests.Unregistered"))
    }

    @Test(arguments: Mode.allCases)
    func emptyContainerRefusesEveryType(mode: Mode) throws {
        let resolver = try mode.resolver(Container())
        #expect(frostError { _ = try resolver.resolve(Int.self) }?.code == .notRegistered)
        #expect(
            frostError { _ = try resolver.resolve(String.self, name: "x") }?.code == .notRegistered)
    }

    @Test(arguments: Mode.allCases)
    func missingDependencyNamesThePathThatNeedsIt(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        container.register(UserService.self) { r in
            UserService(logger: try r.resolve(Logger.self), db: try r.resolve(Database.self))
        }
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(UserService.self) })
        #expect(error.code == .notRegistered)
        #expect(error.requestedKey == "FrostTests.Database")
        #expect(error.dependencyPath == ["FrostTests.UserService", "FrostTests.Database"])
        #expect(error.description.contains("FrostTests.UserService -> FrostTests.Database"))
    }

    @Test(arguments: Mode.allCases)
    func errorOfANestedAutowiredInitializerNamesThePath(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 0))
        container.autowire(Socket.self, Socket.init(config:))
        container.autowire(Server.self, Server.init(socket:))
        container.autowire(Gateway.self, Gateway.init(config:server:))
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Gateway.self) })
        #expect(error.code == .factoryFailed)
        #expect(error.underlying as? FactoryFailure == FactoryFailure(reason: "port 0"))
        #expect(
            error.dependencyPath == [
                "FrostTests.Gateway", "FrostTests.Server", "FrostTests.Socket",
            ]
        )
    }

    @Test(arguments: Mode.allCases)
    func factoryErrorIsWrappedWithItsPath(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in throw FactoryFailure(reason: "disk full") }
        container.register(UserService.self) { r in
            UserService(logger: try r.resolve(Logger.self), db: Primary())
        }
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(UserService.self) })
        #expect(error.code == .factoryFailed)
        #expect(error.underlying as? FactoryFailure == FactoryFailure(reason: "disk full"))
        #expect(error.dependencyPath == ["FrostTests.UserService", "FrostTests.Logger"])
        #expect(error.description.contains("disk full"))
    }
}

/// Autowired types whose innermost initializer throws.
struct Socket {
    init(config: AppConfig) throws {
        if config.port == 0 { throw FactoryFailure(reason: "port 0") }
    }
}

struct Server {
    let socket: Socket
}

struct Gateway {
    let config: AppConfig
    let server: Server
}
