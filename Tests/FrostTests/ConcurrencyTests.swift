import Dispatch
import Foundation
import Frost
import Testing

/// A frozen container is resolved from many threads without locks on the read path; a
/// singleton is still created once.
@Suite("Concurrency")
struct ConcurrencyTests {
    @Test func singletonIsCreatedOnceUnderTwoThreadsOf100000Resolves() throws {
        let container = Container()
        let made = Counter()
        container.register(Logger.self) { _ in
            made.increment()
            Thread.sleep(forTimeInterval: 0.01)  // widen the window for a second creation
            return ConsoleLogger()
        }.scope(.singleton)
        let frozen = try container.freeze()
        let seen = SeenInstances()

        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            var last: (any Logger)?
            for _ in 0..<100_000 {
                guard let logger = try? frozen.resolve(Logger.self) else { continue }
                if let last, last !== logger { seen.recordMismatch() }
                last = logger
            }
            if let last { seen.record(last) }
        }
        #expect(made.value == 1)
        #expect(seen.distinct == 1)
        #expect(seen.mismatches == 0)
    }

    @Test func dependentSingletonsCreatedConcurrentlyDoNotDeadlock() throws {
        let container = Container()
        let made = Counter()
        container.register(instance: AppConfig(port: 7))
        container.register(Database.self) { r in
            made.increment()
            return Replica(try r.resolve(AppConfig.self))
        }.scope(.singleton)
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(UserService.self) { r in
            UserService(logger: try r.resolve(Logger.self), db: try r.resolve(Database.self))
        }.scope(.singleton)
        let frozen = try container.freeze()

        DispatchQueue.concurrentPerform(iterations: 4) { iteration in
            for _ in 0..<1_000 {
                if iteration.isMultiple(of: 2) {
                    _ = try? frozen.resolve(Database.self)
                } else {
                    _ = try? frozen.resolve(UserService.self)
                }
            }
        }
        #expect(made.value == 1)
        #expect(try frozen.resolve(UserService.self).db === frozen.resolve(Database.self))
    }

    @Test func transientsAndMissesFromTwoThreads() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        let frozen = try container.freeze()
        let failures = Counter()

        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<10_000 {
                if (try? frozen.resolve(Logger.self)) == nil { failures.increment() }
                if (try? frozen.resolve(Unregistered.self)) != nil { failures.increment() }
            }
        }
        #expect(failures.value == 0)
    }
}
