import Synchronization

/// A frozen container in async code: awaited resolves, `bootstrap()`, `dispose()` that awaits
/// async hooks.
extension FrozenContainer {
    /// Creates every singleton of this container now, awaiting async factories: what a server
    /// calls at start-up, before it takes requests.
    ///
    /// ```swift
    /// let frozen = try container.freeze()
    /// try await frozen.bootstrap()
    /// let db = try frozen.resolve(Database.self)   // cached: fine in synchronous code too
    /// ```
    ///
    /// Singletons with async (or actor-isolated) factories come first, all at once in a task
    /// group: each awaits what it resolves, so dependencies are made first, and independent
    /// ones are made concurrently. The synchronous singletons follow, the same way, so a
    /// synchronous factory that resolves an async singleton without declaring it (in a
    /// closure) finds it made. Each singleton is made exactly once, even while other tasks and
    /// threads resolve it at the same moment.
    ///
    /// A failure stops the bootstrap and is thrown, naming the type and the path; the
    /// singletons already made stay made. When the task is cancelled, factories that notice it
    /// fail, and their singletons are left unmade (the next resolve makes them): never half
    /// made.
    ///
    /// - Throws: ``FrostError``: the first failure.
    public func bootstrap() async throws(FrostError) {
        let plan = bootstrapPlanStorage.get { BootstrapPlan(registrations) }
        for phase in [plan.asyncSlots, plan.synchronousSlots] where !phase.isEmpty {
            // A few workers take the singletons in turn: independent ones are made
            // concurrently (a worker that awaits lets the others go on), a dependency that
            // another worker is making is waited for, and a hundred singletons do not cost a
            // hundred tasks.
            let queue = BootstrapQueue(count: phase.count)
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<min(phase.count, BootstrapQueue.workers) {
                        group.addTask {
                            while let index = queue.next() {
                                try await self.make(spaceSlot: phase[index])
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            } catch let error as FrostError {
                throw error
            } catch {
                throw FrostError(
                    .factoryFailed, key: nil, detail: "bootstrap()", underlying: error)
            }
        }
    }

    /// Runs the `.onDispose` hooks, awaiting the async ones, as ``dispose()`` does (see it),
    /// then drops the instances.
    ///
    /// ```swift
    /// container.register(Database.self) { _ async throws in try await Database.connect() }
    ///     .scope(.singleton)
    ///     .onDispose { db async in await db.close() }
    /// await frozen.dispose()
    /// ```
    nonisolated(nonsending)
        public func dispose() async
    {
        await runDisposalAwaiting()
    }

    /// The singletons this container has made so far that are `P`s, in the order their
    /// creation completed — each after the singletons it resolved — and still alive: what a
    /// lifecycle integration starts in that order and stops in reverse (the
    /// `FrostServiceLifecycle` product runs the `Service`s among them).
    ///
    /// ```swift
    /// try await frozen.bootstrap()
    /// let services = frozen.createdSingletons(of: (any Service).self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to keep them as: a protocol (`(any Service).self`), a class.
    /// - Returns: The singletons that are `P`s, oldest first.
    public func createdSingletons<P>(of type: P.Type) -> [P] {
        (singletonLog?.values ?? []).compactMap { $0 as? P }
    }

    /// Makes (or reads) the instance in `slot`, awaiting what it needs.
    private func make(spaceSlot slot: UInt32) async throws(FrostError) {
        let target = target(at: slot)
        try await AwaitedResolve.withContext { context throws(FrostError) in
            guard try await Engine.resolveAwaiting(target, in: context) == nil else { return }
            try context.onThread { () throws(FrostError) in
                try target.checkOpen(in: context)
                try target.component.lifetime.prepare(target, in: context)
            }
        }
    }
}

/// What `bootstrap()` makes, found once per container (its registrations never change): the
/// slots of the singletons made at bootstrap, those with async factories first.
final class BootstrapPlan: Sendable {
    /// The singletons whose factories are async or actor-isolated, in registration order.
    let asyncSlots: [UInt32]
    /// The synchronous singletons, in registration order.
    let synchronousSlots: [UInt32]

    init(_ registrations: [(component: Component, slot: UInt32)]) {
        let eager = registrations.filter { $0.component.isMadeAtBootstrap }
        asyncSlots = eager.filter { $0.component.isAsync }.map(\.slot)
        synchronousSlots = eager.filter { !$0.component.isAsync }.map(\.slot)
    }
}

/// The singletons of one bootstrap phase, handed out one at a time to its workers.
private final class BootstrapQueue: Sendable {
    /// How many singletons a bootstrap makes at once, at most: enough for factories that
    /// await I/O to overlap, few enough that tasks cost little next to the factories.
    static let workers = 16

    private let taken = Atomic<Int>(0)
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    /// The index of the next singleton to make, or `nil` when all are taken.
    func next() -> Int? {
        let index = taken.add(1, ordering: .relaxed).oldValue
        return index < count ? index : nil
    }
}
