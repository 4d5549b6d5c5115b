import Frost
import Testing

/// Scopes: transient, singleton, weak, graph, custom, and releasing cached instances.
@Suite("Scopes")
struct ScopeTests {
    @Test(arguments: Mode.allCases)
    func weakIsKeptWhileSomeoneHoldsIt(mode: Mode) throws {
        let container = Container()
        let made = Counter()
        container.register(Logger.self) { _ in
            made.increment()
            return ConsoleLogger()
        }.scope(.weak)
        let resolver = try mode.resolver(container)

        var held: (any Logger)? = try resolver.resolve(Logger.self)
        #expect(try resolver.resolve(Logger.self) === held)
        #expect(made.value == 1)
        held = nil  // the last holder lets go: the container does not keep it alive
        let next = try resolver.resolve(Logger.self)
        #expect(made.value == 2)
        #expect(try resolver.resolve(Logger.self) === next)
        #expect(made.value == 2)
    }

    final class Parts: Sendable {
        let first: Session
        let second: Session
        init(first: Session, second: Session) {
            self.first = first
            self.second = second
        }
    }

    @Test(arguments: Mode.allCases)
    func graphIsSharedWithinOneResolveOnly(mode: Mode) throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.graph)
        container.autowire(Parts.self, Parts.init(first:second:))
        let resolver = try mode.resolver(container)

        let parts = try resolver.resolve(Parts.self)
        #expect(parts.first === parts.second)
        #expect(try resolver.resolve(Parts.self).first !== parts.first)
    }

    final class Screen: Sendable {
        let parts: Parts
        let session: Session
        init(parts: Parts, session: Session) {
            self.parts = parts
            self.session = session
        }
    }

    @Test(arguments: Mode.allCases)
    func graphIsSharedThroughNestedAutowiredObjects(mode: Mode) throws {
        // Screen and Parts are autowired transients: the frozen container creates them from
        // their bound slots, and the .graph instance must still be one per top-level resolve.
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.graph)
        container.autowire(Parts.self, Parts.init(first:second:))
        container.autowire(Screen.self, Screen.init(parts:session:))
        let resolver = try mode.resolver(container)

        let screen = try resolver.resolve(Screen.self)
        #expect(screen.parts.first === screen.session)
        #expect(screen.parts.second === screen.session)
        #expect(try resolver.resolve(Screen.self).session !== screen.session)
    }

    @Test(arguments: Mode.allCases)
    func customScopeKeepsUntilItsStorageForgets(mode: Mode) throws {
        let session = LockedScopeStorage()
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.custom(session))
        let resolver = try mode.resolver(container)

        let first = try resolver.resolve(Session.self)
        #expect(try resolver.resolve(Session.self) === first)
        #expect(session.count == 1)
        session.removeAll()
        #expect(try resolver.resolve(Session.self) !== first)
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

    @Test func scopesDescribeThemselves() {
        #expect(Scope.transient.description == "transient")
        #expect(Scope.singleton.description == "singleton")
        #expect(Scope.weak.description == "weak")
        #expect(Scope.graph.description == "graph")
        #expect(Scope.custom(LockedScopeStorage()).description == "custom(LockedScopeStorage)")
    }
}
