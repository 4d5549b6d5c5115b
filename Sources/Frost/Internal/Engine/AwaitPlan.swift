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

    /// An async registration a plan needs made: its chain slot; the cell that keeps its
    /// instance when that is a slot's own cell (a singleton's: read without a walk); and,
    /// when it is reached through a registration made where it is registered (a singleton,
    /// `.weak`, a custom scope), the container that makes it there (`nil`: the container the
    /// resolve is in). Not retained: the container whose plan it is holds it, or is it.
    struct Needed: Equatable {
        let slot: UInt32
        let cell: Cell?
        let maker: Unmanaged<_Space>?

        static func == (lhs: Needed, rhs: Needed) -> Bool {
            lhs.slot == rhs.slot && lhs.maker?.toOpaque() == rhs.maker?.toOpaque()
        }
    }

}

extension _Space {
    /// The plans of this container's own slots (by own slot), when its chain registers
    /// something async (`[]` otherwise, and for a child that overrides: its resolves take the
    /// awaited path, which looks at what they need as it goes). A child's plans cover the keys
    /// it adds; its parent's slots follow the parent's plans (``inheritsPlans``).
    func compileAwaitPlans() -> [AwaitPlan] {
        guard mayAwait, overrides == nil, lookup.capacity > 0 else { return [] }
        let me = Unmanaged.passUnretained(self)
        var plans = [AwaitPlan](repeating: .never, count: lookup.capacity)
        var reached: [Engine.Walked: [AwaitPlan.Needed]] = [:]
        for slot in 0..<UInt32(lookup.capacity) {
            guard let index = lookup.inputIndex(of: slot) else { continue }
            let component = components[index]
            if component.isAsync {
                plans[Int(slot)] = .always
                continue
            }
            var visiting: Set<Engine.Walked> = []
            var cut = false
            let needed = Self.needs(
                of: component, in: me,
                madeIn: component.lifetime.madeWhereRegistered ? me : nil,
                &reached, &visiting, &cut)
            plans[Int(slot)] = needed.isEmpty ? .never : .unlessMade(needed)
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

    /// Whether one of `components` (this container's own, or its overrides) declares a
    /// dependency bound to no slot (an optional one, one resolved by type) whose key this
    /// container's chain does not know: what a resolve through a child finds for it may be a
    /// key the child adds. (A key the chain knows, a child can only override, and a child that
    /// overrides follows no plan of its parent's.)
    func declaresOpenDependencies(_ components: [Component]) -> Bool {
        components.contains { component in
            component.dependencies.indices.contains { index in
                let dependency = component.dependencies[index]
                guard !dependency.deferred, component.dependencySlot(at: index) == .max
                else { return false }
                return chainSlot(for: dependency.key) == PerfectHashTable.notFound
            }
        }
    }

    /// The async registrations `component` reaches through what it declares, as `view` sees
    /// them, without passing through another async one (which awaits its own). `maker` is
    /// where `component` is made (`nil`: the container the resolve is in); a registration made
    /// where it is registered is walked in its own container, which makes what it reaches.
    /// `cut` is set when the walk met a registration it is still walking (a cycle of
    /// declarations, which the dictionary container does not reject and injected properties
    /// may close): what is reached then is counted where the walk entered the cycle, and is not
    /// remembered for the registrations inside it.
    private static func needs(
        of component: Component, in view: Unmanaged<_Space>, madeIn maker: Unmanaged<_Space>?,
        _ reached: inout [Engine.Walked: [AwaitPlan.Needed]],
        _ visiting: inout Set<Engine.Walked>, _ cut: inout Bool
    ) -> [AwaitPlan.Needed] {
        let key = Engine.Walked(component, in: maker?.takeUnretainedValue())
        if let known = reached[key] { return known }
        guard visiting.insert(key).inserted else {
            cut = true
            return []
        }
        let outerCut = cut
        cut = false
        var needed: [AwaitPlan.Needed] = []
        for (index, dependency) in component.dependencies.enumerated() where !dependency.deferred {
            var slot = component.dependencySlot(at: index)
            if slot == .max {
                slot = view._withUnsafeGuaranteedRef { $0.chainSlot(for: dependency.key) }
            }
            guard slot != PerfectHashTable.notFound else { continue }
            let place = view._withUnsafeGuaranteedRef { $0.place(of: slot) }
            let registration = place.registration
            let more: [AwaitPlan.Needed]
            if registration.isAsync {
                more = [
                    AwaitPlan.Needed(
                        slot: slot, cell: registration.caches ? place.cell : nil, maker: maker)
                ]
            } else if registration.lifetime.madeWhereRegistered {
                more = needs(
                    of: registration, in: place.owner, madeIn: place.owner, &reached, &visiting,
                    &cut)
            } else {
                more = needs(of: registration, in: view, madeIn: maker, &reached, &visiting, &cut)
            }
            for need in more where !needed.contains(need) { needed.append(need) }
        }
        if !cut { reached[key] = needed }
        cut = cut || outerCut
        return needed
    }

    /// Whether an awaited resolve of what `found` found runs as the synchronous one: nothing
    /// it needs must be awaited (the plan of its slot, made when the container that adds the
    /// slot was built, followed down the chain while each child ``inheritsPlans``). A miss is
    /// answered by the synchronous path too (an error, or a `Lazy` or `Provider` made on the
    /// spot), but for an `Optional`, which the awaited resolve sends to
    /// ``resolveMissAwaiting(_:name:)`` (its wrapped type may need awaiting).
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
                let target = (needed.maker ?? Unmanaged.passUnretained(self))
                    ._withUnsafeGuaranteedRef { $0.target(at: needed.slot) }
                guard target.component.lifetime.madeInstance(of: target) != nil else {
                    return false
                }
            }
            return true
        }
    }
}
