import Dispatch
import Foundation
import Frost

/// A singleton of the `bootstrap-100` graph: made by an async factory that yields once
/// (standing in for a connection it opens) after its dependencies exist.
final class ServiceNode: Sendable {
    let dependencies: [ServiceNode]

    init(dependencies: [ServiceNode]) {
        self.dependencies = dependencies
    }

    /// The asynchronous part of making one: what an opening connection would await.
    static func open(dependencies: [ServiceNode]) async -> ServiceNode {
        await Task.yield()
        return ServiceNode(dependencies: dependencies)
    }
}

/// The `bootstrap-100` graph: 5 levels of 20 services; each service above the first level
/// depends on two of the level below (its own index and the next).
enum ServiceGraph {
    static let levels = 5
    static let width = 20

    static func name(level: Int, index: Int) -> String { "service-\(level)-\(index)" }

    /// The names a service depends on.
    static func dependencies(level: Int, index: Int) -> [String] {
        guard level > 0 else { return [] }
        return [
            name(level: level - 1, index: index),
            name(level: level - 1, index: (index + 1) % width),
        ]
    }

    /// Registers the 100 services as async singletons, each resolving its dependencies with
    /// `await` (what `bootstrap()` orders).
    static func register(in container: Frost.Container) {
        for level in 0..<levels {
            for index in 0..<width {
                let dependencies = Self.dependencies(level: level, index: index)
                container.register(ServiceNode.self, name: name(level: level, index: index)) {
                    r async throws in
                    // One array of the final size, as the hand-written start-up's literal.
                    var made: [ServiceNode] = []
                    made.reserveCapacity(dependencies.count)
                    for dependency in dependencies {
                        made.append(try await r.resolve(ServiceNode.self, name: dependency))
                    }
                    return await ServiceNode.open(dependencies: made)
                }
                .scope(.singleton)
            }
        }
    }

    /// The hand-written start-up: each level in turn, each service awaited in order, its
    /// dependencies passed in.
    static func bootstrapByHand() async -> [ServiceNode] {
        var below: [ServiceNode] = []
        for level in 0..<levels {
            var current: [ServiceNode] = []
            current.reserveCapacity(width)
            for index in 0..<width {
                let dependencies =
                    level == 0 ? [] : [below[index], below[(index + 1) % width]]
                current.append(await ServiceNode.open(dependencies: dependencies))
            }
            below = current
        }
        return below
    }
}

/// Runs `body` in a task and blocks the calling thread (the benchmark's, never a cooperative
/// one) until it ends.
func runAsync(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}

/// Runs `body` on the main actor, from the benchmark's thread, the main thread: its run loop
/// serves the main queue (as an app's does) until `body` has ended.
func runOnMainActor(_ body: @escaping @MainActor @Sendable () async -> Void) {
    precondition(Thread.isMainThread, "the benchmark runs on the main thread")
    let done = DispatchSemaphore(value: 0)
    Task { @MainActor in
        await body()
        done.signal()
    }
    while done.wait(timeout: .now()) == .timedOut {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
    }
}

extension Cases {
    /// `bootstrap-100`: every singleton of a 100-service async graph made by `bootstrap()`,
    /// then dropped (`releaseCachedInstances()`) for the next operation; against the same
    /// services opened by hand in dependency order.
    static func bootstrapCase() throws -> BenchCase {
        let container = Frost.Container()
        ServiceGraph.register(in: container)
        let frozen = try container.freeze()
        return BenchCase(
            name: "bootstrap-100",
            unit: "bootstrap() of 100 async singletons in 5 levels, each awaiting once",
            iterations: 200,
            runs: [
                Run(.handWritten) { n in
                    runAsync {
                        for _ in 0..<n { blackHole(await ServiceGraph.bootstrapByHand()) }
                    }
                },
                Run(.frozen) { n in
                    runAsync {
                        for _ in 0..<n {
                            try! await frozen.bootstrap()
                            frozen.releaseCachedInstances()
                        }
                    }
                },
            ]
        )
    }

    /// `async-resolve`: a cached singleton resolved with `await` from async code; measured in
    /// one group with `singleton` (the synchronous resolve), which its target compares it to.
    func asyncResolveCase() -> BenchCase {
        let hand = hand
        let frozen = frozen
        return BenchCase(
            name: "async-resolve",
            unit: "try await resolve of a cached singleton, in async code",
            iterations: 200_000,
            runs: [
                Run(.handWritten) { n in
                    runAsync {
                        for _ in 0..<n { blackHole(hand.singleton()) }
                    }
                },
                Run(.frozen) { n in
                    runAsync {
                        for _ in 0..<n {
                            let logger: any Logger = try! await frozen.resolve(Logger.self)
                            blackHole(logger)
                        }
                    }
                },
            ]
        )
    }
}

/// The hand-written equivalent of `FrozenContainer.current`: the request's values in a
/// task-local of their own, read deep in a handler that is not handed them.
final class HandWrittenRequest: Sendable {
    @TaskLocal static var current: HandWrittenRequest?
    let user: CurrentUser

    init(user: CurrentUser) {
        self.user = user
    }
}

extension Cases {
    /// `current-resolve`: code deep in an async handler, not handed the request, reads the
    /// request's container (`FrozenContainer.current`, a task-local set by `withChild` or the
    /// Hummingbird middleware) and resolves the request's user from it; hand-written, it reads
    /// its own task-local request. Both task-locals are set once, outside the loop, as a
    /// request's would be.
    static func currentResolveCase() throws -> BenchCase {
        let app = Frost.Container()
        app.provided(CurrentUser.self)
        let frozen = try app.freeze()
        let user = CurrentUser(id: 7)
        let request = try frozen.child { $0.register(instance: user) }
        let handRequest = HandWrittenRequest(user: user)
        return BenchCase(
            name: "current-resolve",
            unit: "FrozenContainer.current + try await resolve of the request's user",
            iterations: 200_000,
            runs: [
                Run(.handWritten) { n in
                    runAsync {
                        HandWrittenRequest.$current.withValue(handRequest) {
                            for _ in 0..<n { blackHole(HandWrittenRequest.current!.user) }
                        }
                    }
                },
                Run(.frozen) { n in
                    runAsync {
                        await FrozenContainer.$current.withValue(request) {
                            for _ in 0..<n {
                                blackHole(
                                    try! await FrozenContainer.current!.resolve(CurrentUser.self))
                            }
                        }
                    }
                },
            ]
        )
    }
}
