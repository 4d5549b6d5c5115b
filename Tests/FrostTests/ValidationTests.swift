import Frost
import Testing

/// freeze() checks every dependency it can see, reports every problem at once, and runs no
/// factory to find out.
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
}
