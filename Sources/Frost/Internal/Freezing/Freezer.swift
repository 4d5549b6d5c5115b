/// Compiles a container's registrations into a ``FrozenContainer``: validates them, computes
/// every key's two byte forms, builds the perfect-hash table, binds autowired parameters to
/// their slots and installs each component in its slot.
struct Freezer {
    /// The registrations, in registration order, one per key.
    let components: [Component]
    /// For a child container: where keys missing here are found.
    let parent: FrozenContainer?

    func freeze() throws(FrostError) -> FrozenContainer {
        let catalog = Catalog(keys: components.map(\.key), parent: parent?.catalog)
        // Forwards and declared dependencies need a key index; plain registrations do not
        // (100,000 filler keys would pay for hashing every name).
        let linked = components.contains { $0.forwardsTo != nil || !$0.dependencies.isEmpty }
        let byKey =
            linked ? Dictionary(components.map { ($0.key, $0) }, uniquingKeysWith: { $1 }) : [:]
        let scoped = resolveForwardScopes(byKey)
        var problems: [FrostError] = []
        if scoped.contains(where: { !$0.dependencies.isEmpty }) {
            let scopedByKey = Dictionary(scoped.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
            problems = Validation(
                components: scoped, byKey: scopedByKey, parent: parent, catalog: catalog
            ).problems()
        }
        guard problems.isEmpty else {
            throw FrostError(.invalidRegistrations, key: nil, problems: problems)
        }
        let table: PerfectHashTable
        do {
            table = try PerfectHashTable(keys: scoped.map(\.key), typeNames: tableNames(of: scoped))
        } catch {
            // Keys are distinct by construction (a dictionary holds them), and so are mangled
            // type names; reaching this is a bug in Frost, reported rather than trapped.
            let detail: String
            switch error {
            case .duplicate(let index):
                detail = "duplicate key \(scoped[index].key.canonicalName) reached the table"
            case .failed(let reason): detail = reason
            }
            throw FrostError(
                .invalidRegistrations,
                key: nil,
                problems: [FrostError(.tableBuildFailed, key: nil, detail: detail)]
            )
        }
        // Autowired parameters are bound to their slots here: resolving them hashes nothing.
        let installed = scoped.map { component in
            component.bound { key in table.slot(for: key) }
        }
        var slotOfInput = [UInt32](repeating: 0, count: installed.count)
        for slot in 0..<PerfectHashTable.Slot(table.capacity) {
            guard let index = table.inputIndex(of: slot) else { continue }
            slotOfInput[index] = slot
            table.install(installed[index], at: slot)
        }
        var slotsByType: [ObjectIdentifier: [UInt32]] = [:]
        for (index, component) in installed.enumerated() {
            slotsByType[ObjectIdentifier(component.key.type.type), default: []].append(
                slotOfInput[index])
        }
        return FrozenContainer(
            table: table,
            components: installed,
            catalog: catalog,
            slotsByType: slotsByType,
            parent: parent
        )
    }

    /// A forward (`.implements`, alias) caches exactly when the registration it forwards to
    /// does, so that every type resolves the same singleton without a cast after the first.
    private func resolveForwardScopes(_ byKey: [RegistrationKey: Component]) -> [Component] {
        guard components.contains(where: { $0.forwardsTo != nil }) else { return components }
        return components.map { component in
            guard let target = component.forwardsTo, let targetComponent = byKey[target] else {
                return component
            }
            let scope: Scope = targetComponent.caches ? .singleton : targetComponent.scope
            return scope == component.scope ? component : component.with(scope: scope)
        }
    }

    /// Every key's type name in the table (see ``RegistrationKey``): its mangled name,
    /// computed once per type (a run of keys of one type reuses it without a lookup). No
    /// readable name is made: `String(reflecting:)` costs about 20 times as much, and far more
    /// in a fresh process.
    private func tableNames(of components: [Component]) -> [String] {
        var names: [TypeIdentity: String] = [:]
        var last: (type: TypeIdentity, name: String)?
        return components.map { component in
            let type = component.key.type
            if let last, last.type == type { return last.name }
            let name: String
            if let known = names[type] {
                name = known
            } else {
                name = type.tableName
                names[type] = name
            }
            last = (type, name)
            return name
        }
    }
}
