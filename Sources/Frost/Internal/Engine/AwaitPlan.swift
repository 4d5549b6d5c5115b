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
    /// The plans of this container's own slots (by own slot), when its chain registers
    /// something async (`[]` otherwise, and for a child that overrides: its resolves take the
    /// awaited path, which looks at what they need as it goes). A child's plans cover the keys
    /// it adds; its parent's slots follow the parent's plans (``inheritsPlans``).
    func compileAwaitPlans() -> [AwaitPlan] {
        guard mayAwait, overrides == nil, lookup.capacity > 0 else { return [] }
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

    /// Whether the parent's plans hold for the parent's slots seen through this child: it
    /// overrides nothing, and no registration of the parent's chain can reach a key it adds
    /// (``_Space/reachesChildKeys``), or nothing it adds is or reaches something async. A
    /// root has no parent's plans to follow.
    static func inheritsPlans(
        isChild: Bool, overrides: Overrides?, plans: [AwaitPlan], parentReachesChildKeys: Bool
    ) -> Bool {
        guard isChild, overrides == nil else { return false }
        guard parentReachesChildKeys else { return true }
        return plans.allSatisfy {
            if case .never = $0 { return true }
            return false
        }
    }

    /// Whether one of `components` declares a dependency bound to no slot when its container
    /// was built (an optional one that was missing, one resolved by type): what a resolve
    /// through a child finds for it may be a key the child adds.
    static func declareOpenDependencies(_ components: [Component]) -> Bool {
        components.contains { component in
            component.dependencies.indices.contains { index in
                !component.dependencies[index].deferred
                    && (index >= component.dependencySlots.count
                        || component.dependencySlots[index] == .max)
            }
        }
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
            let place = place(of: slot)
            let registration = place.registration
            let more: [UInt32]
            if registration.isAsync {
                more = [slot]
            } else if registration.lifetime.madeWhereRegistered {
                // Made where it is registered, from what that container sees (a parent's
                // singleton never sees this child's keys or cells): needed made itself when
                // anything it reaches there is async; once it is made, so is what it needed.
                more =
                    reachesAsync(registration, in: place.owner, &reached, &visiting) ? [slot] : []
            } else {
                more = asyncSlots(reachedFrom: registration, &reached, &visiting)
            }
            for slot in more where !slots.contains(slot) { slots.append(slot) }
        }
        reached[id] = slots
        return slots
    }

    /// Whether `registration`, made in `owner` (this container or one above it), reaches
    /// something async as `owner` sees it.
    private func reachesAsync(
        _ registration: Component, in owner: Unmanaged<_Space>,
        _ reached: inout [ObjectIdentifier: [UInt32]], _ visiting: inout Set<ObjectIdentifier>
    ) -> Bool {
        if owner.toOpaque() == Unmanaged.passUnretained(self).toOpaque() {
            return !asyncSlots(reachedFrom: registration, &reached, &visiting).isEmpty
        }
        return owner._withUnsafeGuaranteedRef { owner in
            guard owner.mayAwait else { return false }
            var reached: [ObjectIdentifier: [UInt32]] = [:]
            var visiting: Set<ObjectIdentifier> = []
            return !owner.asyncSlots(reachedFrom: registration, &reached, &visiting).isEmpty
        }
    }

    /// Whether an awaited resolve of what `found` found runs as the synchronous one: nothing
    /// it needs must be awaited (the plan of its slot, made when the container that adds the
    /// slot was built, followed down the chain while each child ``inheritsPlans``). A miss is
    /// answered by the synchronous path too (an error, or a `Lazy`, `Provider` or `Optional`
    /// made on the spot).
    @usableFromInline
    final func resolvesSynchronously(_ found: Found) -> Bool {
        guard found.found else { return true }
        let slot = found.slot
        var space = Unmanaged.passUnretained(self)
        while true {
            let (plan, parent) = space._withUnsafeGuaranteedRef {
                space -> (AwaitPlan?, Unmanaged<_Space>?) in
                if slot >= space.base {
                    // Nothing async in its chain: nothing to await.
                    guard space.mayAwait else { return (.never, nil) }
                    let own = Int(slot - space.base)
                    return (own < space.awaitPlans.count ? space.awaitPlans[own] : nil, nil)
                }
                return (nil, space.inheritsPlans ? space.parentReference : nil)
            }
            if let parent {
                space = parent
                continue
            }
            guard let plan else { return false }
            return isMade(plan)
        }
    }

    /// Whether what `plan` needs made is made, as this container sees it.
    private final func isMade(_ plan: AwaitPlan) -> Bool {
        switch plan {
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
}
