import Frost
import Testing

/// What both containers promise: the dictionary container and the frozen one resolve alike.
@Suite("Resolution, dictionary and frozen")
struct ResolutionTests {

    @Test(arguments: Mode.allCases)
    func factoriesResolveTheirDependencies(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 5432))
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(Database.self, name: "replica") { r in
            Replica(try r.resolve(AppConfig.self))
        }
        container.register(UserService.self) { r in
            UserService(
                logger: try r.resolve(Logger.self),
                db: try r.resolve(Database.self, name: "replica"))
        }
        let resolver = try mode.resolver(container)

        let service = try resolver.resolve(UserService.self)
        #expect(service.db.label == "replica:5432")
        #expect(service.logger === (try resolver.resolve(Logger.self)))
    }

    @Test(arguments: Mode.allCases)
    func namesSelectAmongRegistrationsOfOneType(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 1))
        container.register(Database.self) { _ in Primary() }
        container.register(Database.self, name: "replica") { r in
            Replica(try r.resolve(AppConfig.self))
        }
        container.register(Database.self, name: "") { _ in Primary() }
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(Database.self).label == "primary")
        #expect(try resolver.resolve(Database.self, name: "replica").label == "replica:1")
        #expect(try resolver.resolve(Database.self, name: "").label == "primary")
    }

    @Test(arguments: Mode.allCases)
    func laterRegistrationReplacesEarlierOne(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        container.register(Logger.self) { _ in FileLogger() }.scope(.singleton)
        #expect(container.count == 1)
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(Logger.self) is FileLogger)
    }

    @Test(arguments: Mode.allCases)
    func implementsForwardsEveryTypeToOneSingleton(mode: Mode) throws {
        let container = Container()
        container.register(FileLogger.self) { _ in FileLogger() }
            .scope(.singleton)
            .implements(Logger.self, Sink.self)
        let resolver = try mode.resolver(container)

        let file = try resolver.resolve(FileLogger.self)
        #expect(try resolver.resolve(Logger.self) === file)
        #expect(try resolver.resolve(Sink.self) === file)
    }

    @Test(arguments: Mode.allCases)
    func implementsFollowsAScopeSetAfterIt(mode: Mode) throws {
        let container = Container()
        container.register(FileLogger.self) { _ in FileLogger() }
            .implements(Logger.self)
            .scope(.singleton)
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(Logger.self) === resolver.resolve(Logger.self))
    }

    @Test(arguments: Mode.allCases)
    func implementsOfATypeTheInstanceIsNotThrowsTypeMismatch(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 1)).implements(Logger.self)
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Logger.self) })
        #expect(error.code == .typeMismatch)
        #expect(error.description.contains("AppConfig"))
        #expect(error.description.contains("Logger"))
    }
}
