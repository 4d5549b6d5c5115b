import Dispatch
import Foundation
import Frost
import Testing

/// Handles that hold their instance: made for a `.singleton` or a registered instance, read
/// through `withResolved` without reference counting, and still right after
/// `releaseCachedInstances()`; a transient's handle makes it as a resolve by type does; a
/// handle of another container is refused.
@Suite("Handles")
struct HandleTests {
    @Test func aSingletonsHandleCreatesItAndLendsTheCachedInstance() throws {
        let container = Container()
        let made = Counter()
        container.register(Logger.self) { _ in
            made.increment()
            return ConsoleLogger()
        }.scope(.singleton)
        let frozen = try container.freeze()

        let handle = try frozen.handle(for: Logger.self)
        #expect(made.value == 1)  // created by handle(for:), so that the handle holds it
        let lent = try frozen.withResolved(handle) { $0 }
        #expect(try lent === frozen.resolve(Logger.self))
        #expect(try frozen.resolve(handle) === lent)
        #expect(made.value == 1)
    }

    @Test func registeredInstancesAndTransientsAreLentToo() throws {
        let container = Container()
        let config = AppConfig(port: 8080)
        container.register(instance: config)
        container.register(Database.self) { _ in Primary() }
        let frozen = try container.freeze()

        let configHandle = try frozen.handle(for: AppConfig.self)
        #expect(try frozen.withResolved(configHandle) { $0 } == config)
        let databaseHandle = try frozen.handle(for: Database.self)
        let first = try frozen.withResolved(databaseHandle) { $0 }
        let second = try frozen.withResolved(databaseHandle) { $0 }
        #expect(first !== second)  // transient: a new one each time
        #expect(first.label == "primary")
    }

    @Test func afterAReleaseTheOldHandleLendsTheNewInstance() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let frozen = try container.freeze()
        let handle = try frozen.handle(for: Logger.self)
        let before = try frozen.withResolved(handle) { $0 }

        frozen.releaseCachedInstances()
        let after = try frozen.withResolved(handle) { $0 }
        #expect(after !== before)  // never the released instance the handle still holds
        #expect(try after === frozen.resolve(Logger.self))
        #expect(try frozen.withResolved(handle) { $0 } === after)
        let renewed = try frozen.handle(for: Logger.self)
        #expect(try frozen.withResolved(renewed) { $0 } === after)
        #expect(renewed == handle)  // the same slot of the same container
    }

    /// A handle to an autowired transient makes it as a resolve by type does: a new instance
    /// with its dependencies each time, in a child's own table too, a failure naming the same
    /// path, and `.disposed` after `dispose()`.
    @Test func anAutowiredTransientsHandleMakesItAsAResolveByTypeDoes() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(Database.self) { _ in Primary() }.scope(.singleton)
        container.autowire(UserService.self, UserService.init(logger:db:))
        container.register(Database.self, name: "down") { _ -> any Database in
            throw FactoryFailure(reason: "down")
        }
        container.autowire(Audit.self, Audit.init(db:))
        let frozen = try container.freeze()

        let handle = try frozen.handle(for: UserService.self)
        let first = try frozen.resolve(handle)
        let second = try frozen.withResolved(handle) { $0 }
        #expect(first !== second)
        #expect(try first.logger === frozen.resolve(Logger.self))
        #expect(try second.db === frozen.resolve(Database.self))

        let child = try frozen.child { c in
            c.autowire(Audit.self, name: "child") { (service: UserService) in
                Audit(db: service.db)
            }
        }
        let childHandle = try child.handle(for: Audit.self, name: "child")
        #expect(try child.resolve(childHandle).db === frozen.resolve(Database.self))
        #expect(try child.withResolved(childHandle) { $0 } !== child.resolve(childHandle))

        child.dispose()
        #expect(frostError { _ = try child.resolve(childHandle) }?.code == .disposed)
        #expect(try frozen.resolve(handle).db === frozen.resolve(Database.self))
    }

    @Test func anAutowiredTransientsHandleFailsAsAResolveByTypeFails() throws {
        let container = Container()
        container.register(Database.self) { _ -> any Database in
            throw FactoryFailure(reason: "down")
        }
        container.autowire(Audit.self, Audit.init(db:))
        let frozen = try container.freeze()
        let handle = try frozen.handle(for: Audit.self)

        let byType = try #require(frostError { _ = try frozen.resolve(Audit.self) })
        let throughHandle = try #require(frostError { _ = try frozen.resolve(handle) })
        let lent = try #require(frostError { _ = try frozen.withResolved(handle) { $0 } })
        #expect(throughHandle.code == byType.code)
        #expect(throughHandle.dependencyPath == byType.dependencyPath)
        #expect(lent.dependencyPath == ["FrostTests.Audit", "FrostTests.Database"])
    }

    /// A handle to a closure transient makes it as a resolve by type does: a new instance
    /// each time, the `@Injected` properties of a class the registered type does not show
    /// (a subclass, a protocol's conformer), in a child's own table too, a failure naming its
    /// path, and `.disposed` after `dispose()`.
    @Test func aClosureTransientsHandleMakesItAsAResolveByTypeDoes() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(PlainWidget.self) { _ in WiredWidget() }
        container.register((any Widget).self) { _ in WiredWidget() }
        container.register(Audit.self) { _ in throw FactoryFailure(reason: "down") }
        let frozen = try container.freeze()
        let logger = try frozen.resolve(Logger.self)

        let plain = try frozen.handle(for: PlainWidget.self)
        let first = try frozen.resolve(plain)
        let second = try frozen.withResolved(plain) { $0 }
        #expect(first !== second)
        #expect((first as? WiredWidget)?.logger === logger)
        let widget = try frozen.handle(for: (any Widget).self)
        #expect(try frozen.withResolved(widget) { ($0 as? WiredWidget)?.logger } === logger)

        let child = try frozen.child { c in
            c.register(PlainWidget.self, name: "child") { _ in WiredWidget() }
        }
        let childHandle = try child.handle(for: PlainWidget.self, name: "child")
        #expect(try (child.resolve(childHandle) as? WiredWidget)?.logger === logger)

        let failing = try frozen.handle(for: Audit.self)
        let error = try #require(frostError { _ = try frozen.withResolved(failing) { $0 } })
        #expect(error.code == .factoryFailed)
        #expect(error.dependencyPath == ["FrostTests.Audit"])

        frozen.dispose()
        #expect(frostError { _ = try frozen.resolve(plain) }?.code == .disposed)
        #expect(frostError { _ = try child.resolve(childHandle) }?.code == .disposed)
    }

    /// A singleton's handle lends what it holds only while that is what the container keeps:
    /// not after `releaseCachedInstances()` (it lends the new instance, through its slot, and
    /// so does a handle made afterwards), and nothing once `dispose()` has begun, from a root
    /// or a child.
    @Test func aSingletonsHandleLendsNothingAfterDispose() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let frozen = try container.freeze()
        let handle = try frozen.handle(for: Logger.self)
        let child = try frozen.child { _ in }
        let childHandle = try child.handle(for: Logger.self)
        let first = try frozen.withResolved(handle) { $0 }
        #expect(try child.withResolved(childHandle) { $0 } === first)

        frozen.releaseCachedInstances()
        let second = try frozen.withResolved(handle) { $0 }
        #expect(second !== first)
        #expect(try child.withResolved(childHandle) { $0 } === second)
        let renewed = try frozen.handle(for: Logger.self)
        #expect(try frozen.withResolved(renewed) { $0 } === second)

        let renewedInChild = try child.handle(for: Logger.self)
        #expect(try child.withResolved(renewedInChild) { $0 } === second)

        child.dispose()
        #expect(frostError { _ = try child.withResolved(childHandle) { $0 } }?.code == .disposed)
        #expect(
            frostError { _ = try child.withResolved(renewedInChild) { $0 } }?.code == .disposed)
        #expect(try frozen.withResolved(handle) { $0 } === second)
        frozen.dispose()
        #expect(frostError { _ = try frozen.withResolved(handle) { $0 } }?.code == .disposed)
        #expect(frostError { _ = try frozen.withResolved(renewed) { $0 } }?.code == .disposed)
    }

    @Test func aSingletonThatFailsFailsWhenItsHandleIsMade() throws {
        let container = Container()
        container.register(Logger.self) { _ -> any Logger in
            throw FactoryFailure(reason: "no disk")
        }.scope(.singleton)
        let frozen = try container.freeze()

        let error = try #require(frostError { _ = try frozen.handle(for: Logger.self) })
        #expect(error.code == .factoryFailed)
        #expect(error.description.contains("no disk"))
    }

    @Test func whatTheBodyThrowsReachesTheCaller() throws {
        let container = Container()
        container.register(instance: AppConfig(port: 0))
        let frozen = try container.freeze()
        let handle = try frozen.handle(for: AppConfig.self)

        #expect(throws: FactoryFailure(reason: "port 0")) {
            try frozen.withResolved(handle) { config in
                if config.port == 0 { throw FactoryFailure(reason: "port 0") }
            }
        }
    }

    /// Four threads start together and lend the singleton 5,000 times each; thread 0 releases
    /// it every 250 rounds. They go on past the 5,000 rounds (for thirty seconds at most) until
    /// another thread's lending has run while a release did.
    @Test(.timeLimit(.minutes(1))) func lendingRacesWithReleaseSafely() async throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let frozen = try container.freeze()
        let handle = try frozen.handle(for: Logger.self)
        let failures = Counter()
        let race = RaceWitness()
        let lastChance = DispatchTime.now() + .seconds(30)

        let bodies: [@Sendable () -> Void] = (0..<4).map { thread in
            {
                _ = race.barrier(4)
                var round = 0
                while round < 5_000 || (race.overlapped == 0 && DispatchTime.now() < lastChance) {
                    do {
                        let lent = try race.during { try frozen.withResolved(handle) { $0 } }
                        lent.log("round \(round)")
                        if thread == 0, round.isMultiple(of: 250) {
                            race.releasing { frozen.releaseCachedInstances() }
                        }
                    } catch {
                        failures.increment()
                    }
                    round += 1
                }
            }
        }
        guard await runOnThreads(within: 50, bodies) else {
            Issue.record("deadlock: lending while releasing did not finish within 50 s")
            return
        }
        #expect(race.overlapped > 0, "the race did not happen: no lending ran during a release")
        #expect(failures.value == 0)
        #expect(
            try frozen.withResolved(handle) { $0 }
                === resolveSynchronously(Logger.self, from: frozen))
    }

    /// A handle made while `releaseCachedInstances()` runs on another thread holds whatever the
    /// slot kept when it was made; once the release has returned, lending through it gives what
    /// a resolve gives, never the released instance. Ten rounds: one thread makes handles
    /// without pause while another releases 20,001 cached singletons (so that the handles made
    /// between the release's start and the moment it empties the handle's slot are many).
    @Test(.timeLimit(.minutes(1))) func aHandleMadeDuringAReleaseLendsWhatAResolveGives()
        async throws
    {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        for index in 0..<20_000 {
            container.register(AppConfig.self, name: "config-\(index)") { _ in
                AppConfig(port: index)
            }.scope(.singleton)
        }
        let frozen = try container.freeze()
        let stale = Counter()
        let finished = await runOnThreads(within: 50) {
            for _ in 0..<10 {
                for index in 0..<20_000 {
                    _ = try? frozen.resolve(AppConfig.self, name: "config-\(index)")
                }
                _ = try? frozen.resolve(Logger.self)
                let made = HandleBox()
                let start = DispatchSemaphore(value: 0)
                let released = DispatchSemaphore(value: 0)
                Thread {
                    start.wait()
                    frozen.releaseCachedInstances()
                    made.stop()
                    released.signal()
                }.start()
                start.signal()
                while !made.isStopped {
                    if let handle = try? frozen.handle(for: Logger.self) { made.append(handle) }
                }
                guard released.wait(timeout: .now() + 20) == .success else { return }
                let resolved = try? frozen.resolve(Logger.self)
                for handle in made.handles {
                    let lent = try? frozen.withResolved(handle) { $0 }
                    if lent == nil || lent !== resolved { stale.increment() }
                }
            }
        }
        #expect(finished)
        #expect(stale.value == 0, "a handle lent an instance a resolve does not give")
    }

    @Test func handleResolvesTheSameAsTheType() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(Database.self, name: "primary") { _ in Primary() }
        let frozen = try container.freeze()

        let logger = try frozen.handle(for: Logger.self)
        #expect(try frozen.resolve(logger) === frozen.resolve(Logger.self))
        let primary = try frozen.handle(for: Database.self, name: "primary")
        #expect(try frozen.resolve(primary).label == "primary")
        #expect(try frozen.resolve(primary) !== frozen.resolve(primary))
        #expect(frostError { _ = try frozen.handle(for: Database.self) }?.code == .notRegistered)
    }

    @Test func handleFromAnotherContainerIsRefused() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let first = try container.freeze()
        let second = try container.freeze()
        let handle = try first.handle(for: Logger.self)

        let error = try #require(frostError { _ = try second.resolve(handle) })
        #expect(error.code == .foreignHandle)
        #expect(error.description.contains("FrostTests.Logger"))
        // The handle holds the first container's singleton: the second still refuses it.
        let lent = try #require(frostError { _ = try second.withResolved(handle) { $0 } })
        #expect(lent.code == .foreignHandle)
    }
}

/// An autowired transient with one dependency, for handles.
final class Audit: @unchecked Sendable {
    let db: any Database
    init(db: any Database) { self.db = db }
}

/// A class without `@Injected` properties, and a protocol: what a registration shows.
class PlainWidget: @unchecked Sendable {}
protocol Widget: AnyObject {}

/// A subclass with an `@Injected` property: what the factory makes.
final class WiredWidget: PlainWidget, Widget, @unchecked Sendable {
    @Injected var logger: any Logger
}

/// The handles one thread makes while another releases, and whether that release returned.
private final class HandleBox: @unchecked Sendable {
    private let lock = NSLock()
    private var made: [Handle<any Logger>] = []
    private var stopped = false

    func append(_ handle: Handle<any Logger>) { lock.withLock { made.append(handle) } }

    func stop() { lock.withLock { stopped = true } }

    var isStopped: Bool { lock.withLock { stopped } }

    var handles: [Handle<any Logger>] { lock.withLock { made } }
}
