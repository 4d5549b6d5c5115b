#if Macros
    import Foundation
    import Frost
    import FrostMacros
    import Testing

    /// `container.autowire(T.self)` of `@Injectable` types, through a `Container`, a
    /// `FrozenContainer` and a child of one: what `autowire(T.self, T.init(…))` does.
    @Suite("@Injectable types, autowired", .timeLimit(.minutes(1)))
    struct InjectableBehaviourTests {
        /// The graph most tests resolve.
        static func container() -> Container {
            let container = Container()
            container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
            container.register(instance: Database(label: "primary"))
            container.register(Database.self, name: "replica") { _ in Database(label: "replica") }
                .scope(.singleton)
            container.register(Cache.self) { _ in Cache() }.scope(.singleton)
            container.register(Token.self) { _ in Token() }
            container.autowire(UserService.self)
            return container
        }

        @Test(arguments: Mode.allCases)
        func parametersAreResolvedByType(mode: Mode) throws {
            let resolver = try mode.resolver(Self.container())
            let service = try resolver.resolve(UserService.self)
            #expect(service.db.label == "primary")
            #expect(service.logger === (try resolver.resolve(Logger.self)))
        }

        static let scopes: [Scope] = [.transient, .singleton, .weak, .graph]

        @Test(arguments: Mode.allCases, Self.scopes)
        func everyScopeKeepsAsItsLifetimeSays(mode: Mode, scope: Scope) throws {
            let container = Self.container()
            container.autowire(Top.self).scope(scope)
            container.autowire(Needy.self).scope(.singleton)  // no lifetime captures a singleton
            container.register(instance: Unregistered())
            let resolver = try mode.resolver(container)
            let first = try resolver.resolve(Top.self)
            let second = try resolver.resolve(Top.self)
            switch scope {
            case .singleton, .weak: #expect(first === second)
            default: #expect(first !== second)
            }
        }

        @Test(arguments: [Mode.frozen, .child])
        func aScopedInstanceIsOnePerChild(mode: Mode) throws {
            let container = Self.container()
            container.autowire(Top.self).scope(.scoped)
            container.autowire(Needy.self)
            container.register(instance: Unregistered())
            let frozen = try container.freeze()
            let one = try frozen.child { _ in }
            let other = try frozen.child { _ in }
            #expect(try one.resolve(Top.self) === (try one.resolve(Top.self)))
            #expect(try one.resolve(Top.self) !== (try other.resolve(Top.self)))
        }

        @Test(arguments: Mode.allCases)
        func aGraphInstanceIsSharedWithinOneResolve(mode: Mode) throws {
            let container = Self.container()
            container.autowire(Client.self).scope(.graph)
            container.autowire(Server.self).scope(.graph)
            let resolver = try mode.resolver(container)
            let client = try resolver.resolve(Client.self)
            #expect(client.server.client === client)
            client.server.unpair()
        }

        @Test(arguments: Mode.allCases)
        func aNamedParameterResolvesItsRegistrationAndWrappersResolveLater(mode: Mode) throws {
            let container = Self.container()
            container.autowire(ReportJob.self)
            let resolver = try mode.resolver(container)
            let job = try resolver.resolve(ReportJob.self)
            #expect(job.db.label == "replica")
            #expect(job.cache.value === (try resolver.resolve(Cache.self)))
            #expect(job.tokens() !== job.tokens(), "a Provider resolves on every call")
            #expect(job.audit == nil, "an Optional parameter nothing registers is nil")
            #expect(job.service.db.label == "primary")
        }

        @Test(arguments: Mode.allCases)
        func anOptionalNamedParameterIsResolvedUnderItsName(mode: Mode) throws {
            let container = Self.container()
            container.register(Auditor.self, name: "audit") { _ in Auditor() }
            container.autowire(ReportJob.self)
            container.autowire(Failover.self)
            let resolver = try mode.resolver(container)
            #expect(try resolver.resolve(ReportJob.self).audit != nil)
            let failover = try resolver.resolve(Failover.self)
            #expect(failover.backup.value.label == "replica")
            #expect(failover.spare?.label == "replica")
        }

        @Test(arguments: Mode.allCases)
        func theMembersInjectorFillsInjectedProperties(mode: Mode) throws {
            let container = Self.container()
            container.autowire(Screen.self)
            container.autowire(Panel.self)
            let resolver = try mode.resolver(container)
            let screen = try resolver.resolve(Screen.self)
            #expect(!screen.preview, "the @Inject initializer")
            #expect(screen.service.db.label == "primary")
            #expect(screen.db.label == "replica")
            #expect(screen.logger === (try resolver.resolve(Logger.self)))
            let panel = try resolver.resolve(Panel.self)
            #expect(panel.logger === (try resolver.resolve(Logger.self)))
            #expect(panel.service.db.label == "primary")
        }

        @Test(arguments: Mode.allCases)
        func aSubclassOfAnInjectableClassGetsItsOwnPropertiesToo(mode: Mode) throws {
            let container = Self.container()
            container.autowire(DetailScreen.self)
            let resolver = try mode.resolver(container)
            let screen = try resolver.resolve(DetailScreen.self)
            #expect(screen.service.db.label == "primary")
            #expect(screen.logger === (try resolver.resolve(Logger.self)))
        }

        @Test(arguments: Mode.allCases)
        func registrationsChainAsAfterAutowire(mode: Mode) throws {
            let container = Self.container()
            let created = Locked(0)
            container.autowire(UserService.self, name: "audited")
                .scope(.singleton)
                .implements(AnyObject.self)
                .onCreate { _, _ in created.withLock { $0 += 1 } }
            let resolver = try mode.resolver(container)
            let service = try resolver.resolve(UserService.self, name: "audited")
            #expect(service === (try resolver.resolve(UserService.self, name: "audited")))
            #expect(service === (try resolver.resolve(AnyObject.self, name: "audited")))
            #expect(service !== (try resolver.resolve(UserService.self)))
            #expect(created.withLock { $0 } == 1)
        }

        @Test func freezeReportsAMissingDependencyWithItsPath() throws {
            let container = Self.container()
            container.autowire(Top.self)
            container.autowire(Needy.self)
            let error = try #require(frostError { _ = try container.freeze() })
            #expect(error.code == .invalidRegistrations)
            #expect(error.problems.count == 1)
            let problem = try #require(error.problems.first)
            #expect(problem.code == .notRegistered)
            #expect(problem.dependencyPath.contains(String(reflecting: Needy.self)))
            #expect(problem.requestedKey == String(reflecting: Unregistered.self))
            #expect(error.description.contains("parameter 1 of Needy's initializer"))
        }

        @Test func freezeReportsAMissingNamedParameterAndMember() throws {
            let container = Container()
            container.register(Logger.self) { _ in ConsoleLogger() }
            container.register(instance: Database(label: "primary"))
            container.autowire(UserService.self)
            container.autowire(Screen.self)
            container.autowire(Failover.self)
            let error = try #require(frostError { _ = try container.freeze() })
            let keys = error.problems.map(\.requestedKey)
            // Screen's `@Injected(name: "replica") var db` and Failover's `Lazy` parameter bound
            // to "replica"; its Optional one is nil when missing, never a problem.
            #expect(
                keys == Array(repeating: String(reflecting: Database.self) + "#replica", count: 2))
            #expect(error.description.contains("property db"))
            #expect(error.description.contains("parameter 1 of Failover's initializer"))
        }

        @Test(arguments: Mode.allCases)
        func theDelegatePatternWiresBothWays(mode: Mode) throws {
            for scope in [Scope.graph, .singleton] {
                let container = Self.container()
                container.autowire(Client.self).scope(scope)
                container.autowire(Server.self).scope(scope)
                let resolver = try mode.resolver(container)
                let client = try resolver.resolve(Client.self)
                #expect(client.server.client === client, "\(scope)")
                let server = try resolver.resolve(Server.self)
                #expect(server.client?.server === server, "\(scope)")
                client.server.unpair()
                server.unpair()
            }
        }
    }

    /// Catches a `FrostError` from `body`, which must throw one.
    func frostError(_ body: () throws -> Void) -> FrostError? {
        do {
            try body()
            return nil
        } catch let error as FrostError {
            return error
        } catch {
            return nil
        }
    }

    /// A value behind a lock, for hooks to count in.
    final class Locked<Value>: @unchecked Sendable {
        // @unchecked: `value` is only touched under `lock`.
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func withLock<R>(_ body: (inout Value) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }
#endif
