/// What an awaited resolve of a registration must await before it can run as a synchronous
/// one: decided once, when its container is built, from the registration and the graph it
/// declares (autowired parameters, injected properties, forwards; never `Lazy`/`Provider`).
///
/// A server's container has a few async singletons (its database pool), bootstrapped at
/// start-up; every request then resolves synchronous registrations that reach them. Their
/// plan names those singletons, and once they are made an awaited resolve is the synchronous
/// one: one check of each cell, no walk of the graph, no suspension.
enum AwaitPlan {
    /// Nothing it needs is async: the synchronous resolve.
    case never
    /// Its own factory is async (or isolated to an actor): only an awaited resolve makes it.
    case always
    /// Its factory is synchronous, and what it needs reaches these async registrations: the
    /// synchronous resolve once each has an instance made, the awaited one (which makes them
    /// first) until then.
    case unlessMade([Needed])

    /// An async registration a plan needs made: its chain slot, and the cell that keeps its
    /// instance when that is the root's slot's cell (a singleton's: read without a walk).
    struct Needed {
        let slot: UInt32
        let cell: Cell?
    }
}

extension _Space {
    /// The plans of this container's own slots, when its chain registers something async and
    /// it is a root (`[]` otherwise). A child that registers nothing of its own (a request's,
    /// supplying provided values) uses its root's: its registrations are the root's, seen
    /// through it.
    func compileAwaitPlans() -> [AwaitPlan] {
        guard mayAwait, !isChild else { return [] }
        var plans = [AwaitPlan](repeating: .never, count: lookup.capacity)
        var reached: [ObjectIdentifier: [UInt32]] = [:]
        for slot in 0..<UInt32(lookup.capacity) {
            guard let index = lookup.inputIndex(of: slot) else { continue }
            let component = components[index]
            if component.isAsync {
                plans[Int(slot)] = .always
                continue
            }
            var visiting: Set<ObjectIdentifier> = []
            let slots = asyncSlots(reachedFrom: component, &reached, &visiting)
            plans[Int(slot)] =
                slots.isEmpty
                ? .never
                : .unlessMade(
                    slots.map { slot in
                        let place = place(of: slot)
                        return AwaitPlan.Needed(
                            slot: slot, cell: place.registration.caches ? place.cell : nil)
                    })
        }
        return plans
    }

    /// The chain slots of the async registrations `component` reaches through what it
    /// declares, without passing through another async one (which awaits its own).
    private func asyncSlots(
        reachedFrom component: Component, _ reached: inout [ObjectIdentifier: [UInt32]],
        _ visiting: inout Set<ObjectIdentifier>
    ) -> [UInt32] {
        let id = ObjectIdentifier(component)
        if let known = reached[id] { return known }
        // A cycle of declarations (the dictionary container does not validate): what it
        // reaches is counted where the walk entered it.
        guard visiting.insert(id).inserted else { return [] }
        var slots: [UInt32] = []
        for (index, dependency) in component.dependencies.enumerated() where !dependency.deferred {
            var slot =
                index < component.dependencySlots.count ? component.dependencySlots[index] : .max
            if slot == .max { slot = chainSlot(for: dependency.key) }
            guard slot != PerfectHashTable.notFound else { continue }
            let registration = place(of: slot).registration
            let more =
                registration.isAsync
                ? [slot] : asyncSlots(reachedFrom: registration, &reached, &visiting)
            for slot in more where !slots.contains(slot) { slots.append(slot) }
        }
        reached[id] = slots
        return slots
    }

    /// Whether an awaited resolve of what `found` found runs as the synchronous one: nothing
    /// it needs must be awaited (its plan), in a container whose plans hold (a root, or a
    /// child that registers nothing of its own). A miss is answered by the synchronous path
    /// too (an error, or a `Lazy`, `Provider` or `Optional` made on the spot).
    @usableFromInline
    final func resolvesSynchronously(_ found: Found) -> Bool {
        guard found.found else { return true }
        guard let root = planRoot else { return false }
        let slot = Int(found.slot)
        let plans = root._withUnsafeGuaranteedRef { $0.awaitPlans }
        guard slot < plans.count else { return false }
        switch plans[slot] {
        case .never: return true
        case .always: return false
        case .unlessMade(let needed):
            for needed in needed {
                if let cell = needed.cell {
                    guard cell.peek() != nil else { return false }
                    continue
                }
                let target = target(at: needed.slot)
                guard target.component.lifetime.madeInstance(of: target) != nil else {
                    return false
                }
            }
            return true
        }
    }

    /// The root whose plans this container's resolves follow; `nil` when this container, or a
    /// child between it and its root, registers something of its own (an override, a new
    /// key): its resolves take the awaited path, which looks at what they need as it goes.
    private final var planRoot: Unmanaged<_Space>? {
        var space = Unmanaged.passUnretained(self)
        while true {
            let (isChild, registersNothing, parent) = space._withUnsafeGuaranteedRef {
                ($0.isChild, $0.components.isEmpty && $0.overrides == nil, $0.parentReference)
            }
            guard isChild else { return space }
            guard registersNothing, let parent else { return nil }
            space = parent
        }
    }
}
