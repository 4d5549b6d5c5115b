import Frost
import Testing

/// freeze() checks every dependency it can see (a child's through its parent too), reports every
/// problem at once, and runs no factory to find out: missing registrations, cycles, captive
/// dependencies (a singleton holding a transient, a `.scoped` or a provided value, across the
/// parent boundary too), async factories that a synchronous resolve would need.
@Suite("Validation at freeze")
struct ValidationTests {
    final class Five: Sendable {
        init(a: Primary, b: Replica, c: Session, d: Route, e: Greeting) {}
    }

    @Test func fiveMissingDependenciesAreReportedInOneError() throws {
        let container = Container()
        let ran = Counter()
        container.autowire(Five.self) {
            (a: Primary, b: Replica, c: Session, d: Route, e: Greeting) in
            ran.increment()
            return Five(a: a, b: b, c: c, d: d, e: e)
        }
        let error = try #require(frostError { _ = try container.freeze() })

        #expect(error.code == .invalidRegistrations)
        #expect(error.problems.count == 5)
        #expect(error.problems.allSatisfy { $0.code == .notRegistered })
        #expect(
            error.problems.allSatisfy {
                $0.dependencyPath.first == "FrostTests.ValidationTests.Five"
            })
        for missing in ["Primary", "Replica", "Session", "Route", "Greeting"] {
            #expect(error.description.contains("FrostTests.\(missing)"))
        }
        #expect(error.description.contains("parameter 3 of Five's initializer"))
        #expect(ran.value == 0)
    }

    @Test func missingInjectedPropertyAndForwardTargetAreReported() throws {
        let container = Container()
        container.register(DetailScreen.self) { _ in DetailScreen() }.inject(
            \.backup, name: "backup")
        let error = try #require(frostError { _ = try container.freeze() })

        #expect(error.problems.count == 1)
        #expect(error.problems[0].requestedKey == "FrostTests.Database#backup")
        #expect(error.description.contains(#"property \DetailScreen.backup"#))
    }

    @Test func singletonCapturingATransientIsReported() throws {
        let container = Container()
        container.register(instance: AppConfig(port: 1))
        container.autowire(Replica.self, Replica.init)  // transient
        container.autowire(Window.self) { (replica: Replica) in
            Window(application: Application(name: replica.label))
        }
        .scope(.singleton)
        let error = try #require(frostError { _ = try container.freeze() })

        #expect(error.problems.map(\.code) == [.captiveDependency])
        #expect(error.problems[0].dependencyPath == ["FrostTests.Window", "FrostTests.Replica"])
        #expect(error.description.contains("Provider<Replica>"))
    }

    @Test func singletonDependingOnAProviderOfATransientIsFine() throws {
        let container = Container()
        container.register(instance: AppConfig(port: 1))
        container.autowire(Replica.self, Replica.init)
        container.autowire(Window.self) { (replica: Provider<Replica>) in
            Window(application: Application(name: replica().label))
        }
        .scope(.singleton)
        let frozen = try container.freeze()
        #expect(try frozen.resolve(Window.self).application.name == "replica:1")
    }

    @Test func everyKindOfProblemInOneError() throws {
        let container = Container()
        container.autowire(Engine.self, EngineImpl.init(gearbox:))
        container.autowire(Gearbox.self, GearboxImpl.init(wheel:))
        container.autowire(Wheel.self, WheelImpl.init(engine:))
        container.autowire(Window.self, Window.init(application:))
        let error = try #require(frostError { _ = try container.freeze() })

        #expect(Set(error.problems.map(\.code)) == [.cycle, .notRegistered])
        #expect(error.description.contains("2 problems"))
    }

    // MARK: Captive dependencies

    final class UnitOfWork: Sendable {}

    final class CurrentUser: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    /// A provided key of a value type.
    struct RequestID: Hashable, Sendable {
        let value: String
    }

    final class ScopedHolder: Sendable {
        init(uow: UnitOfWork) {}
    }

    final class UserHolder: Sendable {
        init(user: CurrentUser) {}
    }

    final class RequestHolder: Sendable {
        init(requestID: RequestID) {}
    }

    /// Freeze reports a singleton on a `.scoped` key, a provided class and a provided struct.
    @Test func aSingletonOnAScopedOrProvidedKeyIsCaptive() throws {
        let container = Container()
        container.register(UnitOfWork.self) { _ in UnitOfWork() }.scope(.scoped)
        container.provided(CurrentUser.self)
        container.provided(RequestID.self)
        container.autowire(ScopedHolder.self, ScopedHolder.init(uow:)).scope(.singleton)
        container.autowire(UserHolder.self, UserHolder.init(user:)).scope(.singleton)
        container.autowire(RequestHolder.self, RequestHolder.init(requestID:)).scope(.singleton)
        let error = try #require(frostError { _ = try container.freeze() })

        #expect(error.code == .invalidRegistrations)
        #expect(error.problems.count == 3)
        #expect(error.problems.allSatisfy { $0.code == .captiveDependency })
        let paths = error.problems.map(\.dependencyPath)
        for (holder, dependency): (Any.Type, Any.Type) in [
            (ScopedHolder.self, UnitOfWork.self), (UserHolder.self, CurrentUser.self),
            (RequestHolder.self, RequestID.self),
        ] {
            #expect(
                paths.contains {
                    $0.first == String(reflecting: holder)
                        && $0.last == String(reflecting: dependency)
                }, "\(paths)")
        }
    }

    final class Connection: Sendable {}

    final class Pool: Sendable {
        let connection: Connection
        init(connection: Connection) { self.connection = connection }
    }

    /// A child's singleton autowired on a parent's transient is reported by the child's freeze.
    @Test func aChildSingletonOnAParentTransientIsCaptive() throws {
        let container = Container()
        container.register(Connection.self) { _ in Connection() }
        let frozen = try container.freeze()

        let error = try #require(
            frostError {
                _ = try frozen.child { c in
                    c.autowire(Pool.self, Pool.init(connection:)).scope(.singleton)
                }
            })
        #expect(error.problems.map(\.code) == [.captiveDependency])
        #expect(
            error.problems.first?.dependencyPath == [
                String(reflecting: Pool.self), String(reflecting: Connection.self),
            ])
    }

    /// A value, like swift-log's `Logger`: a singleton holding one holds a copy.
    struct LogHandle: Sendable {
        let label: String
    }

    final class Reporter: Sendable {
        let log: LogHandle
        init(log: LogHandle) { self.log = log }
    }

    final class Auditor: Sendable {
        let log: LogHandle
        init(log: LogHandle) { self.log = log }
    }

    /// A singleton (of the root or of a child) on a struct registered transient is not captive.
    @Test func aSingletonOnATransientStructIsNotCaptive() throws {
        let container = Container()
        container.register(LogHandle.self) { _ in LogHandle(label: "app") }
        container.autowire(Reporter.self, Reporter.init(log:)).scope(.singleton)
        let frozen = try container.freeze()
        #expect(try frozen.resolve(Reporter.self).log.label == "app")

        let child = try frozen.child { c in
            c.autowire(Auditor.self, Auditor.init(log:)).scope(.singleton)
        }
        #expect(try child.resolve(Auditor.self).log.label == "app")
    }

    // MARK: Children

    @Test func childMissingADependencyInBothIsReportedAtFreeze() throws {
        let parent = try Container().freeze()
        let error = try #require(
            frostError { _ = try parent.child { c in c.autowire(Replica.self, Replica.init) } })
        #expect(error.problems.first?.requestedKey == "FrostTests.AppConfig")
    }

    // MARK: Async factories

    @Test func aSynchronousRegistrationDeclaringAnAsyncTransientIsRejectedAtFreeze() throws {
        let container = Container()
        // A transient: made per resolve.
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 1) }
        container.autowire(AsyncRepository.self, AsyncRepository.init(pool:))
        let error = #expect(throws: FrostError.self) { _ = try container.freeze() }
        let problem = try #require(error?.problems.first)
        #expect(error?.problems.count == 1)
        #expect(problem.code == .asyncRequired)
        #expect(problem.dependencyPath.count == 2)
        #expect(problem.description.contains("Repository"))
        #expect(problem.description.contains("Pool"))
        #expect(problem.description.contains("async factory"))
    }

    @Test func anAsyncFactoryInALifetimeReadSynchronouslyIsRejectedAtFreeze() throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 1) }.scope(.weak)
        let error = #expect(throws: FrostError.self) { _ = try container.freeze() }
        #expect(error?.problems.map(\.code) == [.asyncRequired])
        #expect(error?.description.contains("weak") == true)
    }

    @Test func anAsyncSingletonDependencyOfASynchronousRegistrationIsAccepted() async throws {
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 1) }.scope(.singleton)
        container.autowire(AsyncRepository.self, AsyncRepository.init(pool:))
        let frozen = try container.freeze()
        let repository: AsyncRepository = try await frozen.resolve(AsyncRepository.self)
        #expect(repository.pool.id == 1)
    }
}
