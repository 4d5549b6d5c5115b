/// Compiles a container's registrations into a ``FrozenContainer``: validates them, computes
/// every key's identity bytes, builds the perfect-hash table (its table names come later, on
/// the first lookup by table name), binds autowired parameters to their slots and installs
/// each component in its slot.
///
/// For a child container (see ``FrozenContainer``'s children), only the keys its parent does
/// not know go into a table; a value for a key the parent declared `provided` fills the
/// child's per-child cell, and any other registration of a key the parent knows overrides it.
struct Freezer {
    /// The registrations, in registration order, one per key.
    let components: [Component]
    /// For a child container: its parent.
    let parent: FrozenContainer?
    /// For a child container: the values it supplies for its parent's provided keys, already
    /// in their per-child cells (see `Container.register(instance:name:)`). The frozen child
    /// takes them over; when freezing throws, they stay the caller's.
    var supplied: ContainerCells?

    func freeze() throws(FrostError) -> FrozenContainer {
        if components.isEmpty, let parent {
            // Only values for provided keys, or nothing: no table, no validation.
            return FrozenContainer(
                table: PerfectHashTable.empty, components: [], parent: parent,
                perChildCount: parent.perChildCount, overrides: nil, slotsByType: [:],
                catalog: Catalog.empty,
                cells: supplied ?? ContainerCells(perChildCount: parent.perChildCount))
        }
        let split = splitForParent()
        let all = split.own + split.overrides.map(\.component)
        // Forwards, declared dependencies and async factories (their lifetimes are checked)
        // need a key index; plain registrations do not (100,000 filler keys would pay for
        // hashing every name).
        let linked = all.contains { $0.forwardsTo != nil || !$0.dependencies.isEmpty || $0.isAsync }
        let byKey = linked ? Dictionary(all.map { ($0.key, $0) }, uniquingKeysWith: { $1 }) : [:]
        let own = resolveForwardScopes(split.own, byKey)
        let overrides = resolveForwardScopes(split.overrides.map(\.component), byKey)
        let catalog =
            all.isEmpty ? Catalog.empty : Catalog(keys: all.map(\.key), parent: parent?.catalog)
        if linked {
            let problems = Validation(
                components: own + overrides, parent: parent,
                filled: Set(split.fills.map(\.index)).union(supplied?.filledIndices ?? []),
                catalog: catalog
            ).problems()
            guard problems.isEmpty else {
                throw FrostError(.invalidRegistrations, key: nil, problems: problems)
            }
        }
        let table = try buildTable(own)
        let base = parent?.spaceSize ?? 0
        // Autowired parameters are bound to their slots here: resolving them hashes nothing.
        func spaceSlot(_ key: RegistrationKey) -> UInt32 {
            let slot = table.slot(for: key)
            if slot != PerfectHashTable.notFound { return base + slot }
            return parent?.spaceSlot(for: key) ?? PerfectHashTable.notFound
        }
        let installed = own.map { $0.bound(to: spaceSlot) }
        let boundOverrides = overrides.map { $0.bound(to: spaceSlot) }
        // Per-child indices continue the parent's.
        var perChildCount = parent?.perChildCount ?? 0
        func perChildIndex(_ component: Component) -> Int? {
            guard component.scope.isPerChild else { return nil }
            defer { perChildCount += 1 }
            return perChildCount
        }
        var slotOfInput = [UInt32](repeating: 0, count: installed.count)
        var ownFlags = [UInt32](repeating: 0, count: installed.count)
        for (index, component) in installed.enumerated() {
            ownFlags[index] =
                SlotFlags(perChildIndex: perChildIndex(component), kind: component.kind).raw
        }
        for slot in 0..<PerfectHashTable.Slot(table.capacity) {
            guard let index = table.inputIndex(of: slot) else { continue }
            slotOfInput[index] = slot
            table.install(installed[index], at: slot, flags: ownFlags[index])
        }
        let overrideFlags = boundOverrides.map {
            SlotFlags(perChildIndex: perChildIndex($0), kind: $0.kind)
        }
        var slotsByType: [ObjectIdentifier: [UInt32]] = [:]
        for (index, component) in installed.enumerated() {
            slotsByType[ObjectIdentifier(component.key.type.type), default: []].append(
                base + slotOfInput[index])
        }
        // A root's per-child cells would never be used; a child's cover every per-child key
        // of its slot space.
        var cells = supplied ?? ContainerCells(perChildCount: parent == nil ? 0 : perChildCount)
        if parent != nil, cells.perChildCount < perChildCount {
            cells = cells.resized(perChildCount: perChildCount)
        }
        cells = cells.addingOverrides(boundOverrides.count)
        for (index, component) in boundOverrides.enumerated() {
            if let instance = component.instance { cells.override(index).cell.preset(instance) }
        }
        for fill in split.fills { cells.perChild(fill.index).replace(with: fill.box) }
        let frozen = FrozenContainer(
            table: table,
            components: installed,
            parent: parent,
            perChildCount: perChildCount,
            overrides: boundOverrides.isEmpty
                ? nil
                : Overrides(
                    components: boundOverrides, slots: split.overrides.map(\.slot),
                    flags: overrideFlags, spaceSize: parent!.spaceSize),
            slotsByType: slotsByType,
            catalog: catalog,
            cells: cells
        )
        return frozen
    }

    /// What a child registers, sorted by what its parent knows: keys it does not know (the
    /// child's own table), values for its provided keys (by per-child index), and overrides
    /// of its other keys (by the parent's slot). A root's registrations are all its own.
    private func splitForParent() -> (
        own: [Component], fills: [(index: Int, box: AnyObject)],
        overrides: [(slot: UInt32, component: Component)]
    ) {
        guard let parent else { return (components, [], []) }
        var own: [Component] = []
        var fills: [(index: Int, box: AnyObject)] = []
        var overrides: [(slot: UInt32, component: Component)] = []
        for component in components {
            let slot = parent.spaceSlot(for: component.key)
            guard slot != PerfectHashTable.notFound else {
                own.append(component)
                continue
            }
            let flags = parent.registration(atSpaceSlot: slot).flags
            if flags.isProvided, let index = flags.perChildIndex, let box = component.instance {
                fills.append((index, box))
            } else {
                overrides.append((slot, component))
            }
        }
        return (own, fills, overrides)
    }

    /// The table of `components`' keys (the shared empty table when there are none).
    private func buildTable(_ components: [Component]) throws(FrostError) -> PerfectHashTable {
        if components.isEmpty, parent != nil { return PerfectHashTable.empty }
        do {
            return try PerfectHashTable(keys: components.map(\.key))
        } catch {
            // Keys are distinct by construction (a dictionary holds them); reaching this is a
            // bug in Frost, reported rather than trapped.
            let detail: String
            switch error {
            case .duplicate(let index):
                detail = "duplicate key \(components[index].key.canonicalName) reached the table"
            case .failed(let reason): detail = reason
            }
            throw FrostError(
                .invalidRegistrations,
                key: nil,
                problems: [FrostError(.tableBuildFailed, key: nil, detail: detail)]
            )
        }
    }

    /// A forward (`.implements`, alias) caches exactly when the registration it forwards to
    /// does, so that every type resolves the same singleton without a cast after the first. A
    /// forward to a per-child registration stays transient: it resolves the child's instance
    /// each time.
    private func resolveForwardScopes(
        _ components: [Component],
        _ byKey: [RegistrationKey: Component]
    ) -> [Component] {
        guard components.contains(where: { $0.forwardsTo != nil }) else { return components }
        return components.map { component in
            guard let target = component.forwardsTo,
                let targetComponent = byKey[target] ?? parent?.registration(for: target)
            else { return component }
            let scope: Scope =
                targetComponent.caches
                ? .singleton : targetComponent.scope.isPerChild ? .transient : targetComponent.scope
            return scope == component.scope ? component : component.with(scope: scope)
        }
    }
}
