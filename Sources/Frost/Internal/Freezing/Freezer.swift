/// Builds a container from registrations: validates them (for `freeze()`), builds the lookup
/// of its own keys — a perfect-hash table for a frozen container, a dictionary for a
/// `Container` resolving before it is frozen — binds autowired parameters and declared
/// dependencies to their slots, and installs each component in its slot.
///
/// For a child container, only the keys its parent does not know go into its lookup; a value
/// for a key the parent declared `provided` fills the child's per-child cell, and any other
/// registration of a key the parent knows overrides it.
struct Freezer {
    /// Which lookup the container gets.
    enum LookupKind {
        case perfectHash
        case dictionary
    }

    /// The registrations, in registration order, one per key.
    let components: [Component]
    /// For a child container: its parent.
    let parent: _Space?
    /// For a child container: the values it supplies for its parent's provided keys, already
    /// in their per-child cells (see `Container.register(instance:name:)`). The container
    /// takes them over; when building throws, they stay the caller's.
    var supplied: SpaceCells?
    /// The lookup to build.
    let lookupKind: LookupKind
    /// Whether to validate (`freeze()`); a `Container` resolving before it is frozen reports
    /// what is missing when it resolves it.
    let validates: Bool
    /// The scope of registrations that name none, which the container's children take.
    let defaultScope: Scope

    func parts() throws(FrostError) -> SpaceParts {
        let split = splitForParent()
        let all = split.own + split.overrides.map(\.component)
        // The lookup first: forwards and validation find a key's registration through it, as
        // a resolve will, instead of through dictionaries of their own.
        let lookup = try buildLookup(split.own)
        let linked = all.contains { $0.forwardsTo != nil || !$0.dependencies.isEmpty }
        let index = KeyIndex(lookup: lookup, overrides: linked ? split.overrides : [])
        let own = resolveForwardScopes(split.own, all, index)
        let overrides = resolveForwardScopes(split.overrides.map(\.component), all, index)
        let catalog =
            all.isEmpty ? Catalog.empty : Catalog(keys: all.map(\.key), parent: parent?.catalog)
        if validates {
            let problems =
                Validation.hooksThatNeverRun(components, catalog: catalog)
                + Validation(
                    components: own + overrides, index: index, parent: parent,
                    filled: Set(split.fills.map(\.index)).union(supplied?.filledIndices ?? []),
                    catalog: catalog, linked: linked
                ).problems()
            guard problems.isEmpty else {
                throw FrostError(.invalidRegistrations, key: nil, problems: problems)
            }
        }
        let base = parent?.chainSize ?? 0
        // Dependencies are bound to their slots here: resolving them hashes nothing.
        func chainSlot(_ key: RegistrationKey) -> UInt32 {
            let slot = lookup.count > 0 ? lookup.slot(for: key) : PerfectHashTable.notFound
            if slot != PerfectHashTable.notFound { return base + slot }
            return parent?.chainSlot(for: key) ?? PerfectHashTable.notFound
        }
        let installed = own.map { $0.bound(to: chainSlot) }
        let boundOverrides = overrides.map { $0.bound(to: chainSlot) }
        // Per-child indices continue the parent's.
        var perChildCount = parent?.perChildCount ?? 0
        func flags(_ component: Component) -> SlotFlags {
            let lifetime = component.lifetime
            guard lifetime.keepsPerChild else {
                return SlotFlags(perChildIndex: nil, provided: false)
            }
            defer { perChildCount += 1 }
            return SlotFlags(perChildIndex: perChildCount, provided: lifetime.isSupplied)
        }
        var slotOfInput = [UInt32](repeating: 0, count: installed.count)
        let ownFlags = installed.map(flags)
        for slot in 0..<UInt32(lookup.capacity) {
            guard let index = lookup.inputIndex(of: slot) else { continue }
            slotOfInput[index] = slot
            lookup.install(installed[index], at: slot, flags: ownFlags[index].raw)
        }
        let overrideFlags = boundOverrides.map(flags)
        // A root's per-child cells would never be used; a child's cover every per-child key
        // of its chain.
        let cells = (supplied ?? SpaceCells(perChildCount: 0)).completed(
            perChildCount: parent == nil ? 0 : perChildCount, overrides: boundOverrides.count)
        for (index, component) in boundOverrides.enumerated() {
            if let instance = component.instance { cells.override(index).cell.preset(instance) }
        }
        for fill in split.fills { cells.perChild(fill.index).replace(with: fill.box) }
        return SpaceParts(
            defaultScope: defaultScope,
            lookup: lookup,
            components: installed,
            parent: parent,
            perChildCount: perChildCount,
            overrides: boundOverrides.isEmpty
                ? nil
                : Overrides(
                    components: boundOverrides, slots: split.overrides.map(\.slot),
                    flags: overrideFlags, spaceSize: parent!.chainSize),
            ownSlots: slotOfInput,
            catalog: catalog,
            cells: cells
        )
    }

    /// What a child registers, sorted by what its parent knows: keys it does not know (the
    /// child's own lookup), values for its provided keys (by per-child index), and overrides
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
            let slot = parent.chainSlot(for: component.key)
            guard slot != PerfectHashTable.notFound else {
                own.append(component)
                continue
            }
            let flags = parent.place(of: slot).flags
            if flags.isProvided, let index = flags.perChildIndex, let box = component.instance {
                fills.append((index, box))
            } else {
                overrides.append((slot, component))
            }
        }
        return (own, fills, overrides)
    }

    /// The lookup of `components`' keys (the shared empty table when there are none).
    private func buildLookup(_ components: [Component]) throws(FrostError) -> Lookup {
        if components.isEmpty, parent != nil { return .none }
        guard lookupKind == .perfectHash else {
            return .dictionary(DictionaryTable(keys: components.map(\.key)))
        }
        do {
            return .perfectHash(try PerfectHashTable(keys: components.map(\.key)))
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

    /// A forward (`.implements`, alias) keeps its instance exactly when the registration it
    /// forwards to keeps one in its slot, so that every type resolves the same instance
    /// without a cast after the first. Any other forward is transient: each resolve resolves
    /// the registration it forwards to, whose lifetime decides (the child's `.scoped`
    /// instance, the resolve's `.graph` one, the living `.weak` one).
    private func resolveForwardScopes(
        _ components: [Component],
        _ all: [Component],
        _ index: KeyIndex
    ) -> [Component] {
        guard components.contains(where: { $0.forwardsTo != nil }) else { return components }
        return components.map { component in
            guard let target = component.forwardsTo,
                let targetComponent = index.position(of: target).map({ all[$0] })
                    ?? parent?.registration(for: target)
            else { return component }
            let scope: Scope = targetComponent.caches ? Singleton.scope : .transient
            return scope == component.scope ? component : component.with(scope: scope)
        }
    }
}

/// Where a key's registration is among a container's own registrations then its overrides
/// (`own + overrides`, as the freezer lists them): its own through the lookup just built, an
/// override through a dictionary of the overrides alone (a child's few).
struct KeyIndex {
    let lookup: Lookup
    let ownCount: Int
    let overrides: [RegistrationKey: Int]

    init(lookup: Lookup, overrides: [(slot: UInt32, component: Component)]) {
        self.lookup = lookup
        ownCount = lookup.count
        var positions: [RegistrationKey: Int] = [:]
        for (position, override) in overrides.enumerated() {
            positions[override.component.key] = position
        }
        self.overrides = positions
    }

    /// The position of `key`'s registration in `own + overrides`; `nil` when it is not
    /// registered here.
    func position(of key: RegistrationKey) -> Int? {
        if ownCount > 0 {
            let slot = lookup.slot(for: key)
            if slot != PerfectHashTable.notFound, let input = lookup.inputIndex(of: slot) {
                return input
            }
        }
        guard !overrides.isEmpty else { return nil }
        return overrides[key].map { ownCount + $0 }
    }
}

extension _Space {
    /// The registration of `key` as this container sees it (own, override, or a parent's).
    func registration(for key: RegistrationKey) -> Component? {
        let slot = chainSlot(for: key)
        guard slot != PerfectHashTable.notFound else { return nil }
        return place(of: slot).registration
    }
}
