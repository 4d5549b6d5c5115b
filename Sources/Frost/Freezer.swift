/// Compiles a container's registrations into a ``FrozenContainer``: validates them, computes
/// every key's two byte forms, builds the perfect-hash table and installs each component in
/// its slot.
struct Freezer {
    /// The registrations, in registration order, one per key.
    let components: [Component]

    func freeze() throws(FrostError) -> FrozenContainer {
        var problems: [FrostError] = []
        let catalog = Catalog(keys: components.map(\.key))
        let scoped = resolveForwardScopes(&problems, catalog: catalog)
        let names = canonicalNames(of: scoped, problems: &problems, catalog: catalog)
        guard problems.isEmpty else {
            throw FrostError(.invalidRegistrations, key: nil, problems: problems)
        }
        let table: PerfectHashTable
        do {
            table = try PerfectHashTable(keys: scoped.map(\.key), names: names)
        } catch {
            // Keys are distinct by construction (a dictionary holds them) and their names were
            // checked above; reaching this is a bug in Frost, reported rather than trapped.
            let detail: String
            switch error {
            case .duplicate(let index): detail = "duplicate key \(names[index]) reached the table"
            case .failed(let reason): detail = reason
            }
            throw FrostError(
                .invalidRegistrations,
                key: nil,
                problems: [FrostError(.tableBuildFailed, key: nil, detail: detail)]
            )
        }
        for slot in 0..<PerfectHashTable.Slot(table.capacity) {
            guard let index = table.inputIndex(of: slot) else { continue }
            table.install(scoped[index], at: slot)
        }
        return FrozenContainer(table: table, components: scoped, catalog: catalog)
    }

    /// A forward (`.implements`) caches exactly when the registration it forwards to does, so
    /// that every type resolves the same singleton without a cast after the first.
    private func resolveForwardScopes(
        _ problems: inout [FrostError],
        catalog: Catalog
    ) -> [Component] {
        guard components.contains(where: { $0.forwardsTo != nil }) else { return components }
        let byKey = Dictionary(components.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        return components.map { component in
            guard let target = component.forwardsTo else { return component }
            guard let targetComponent = byKey[target] else {
                problems.append(
                    FrostError(
                        .notRegistered, key: target, path: [component.key, target], catalog: catalog
                    )
                )
                return component
            }
            let scope: Scope = targetComponent.caches ? .singleton : .transient
            return scope == component.scope ? component : component.with(scope: scope)
        }
    }

    /// Every key's canonical name, computing each type's qualified name once. Two types with
    /// one qualified name (possible for local types) cannot share the name table: reported.
    /// Names cannot make keys of different types collide: `#` never occurs in a type name.
    private func canonicalNames(
        of components: [Component],
        problems: inout [FrostError],
        catalog: Catalog
    ) -> [String] {
        var typeNames: [TypeIdentity: String] = [:]
        var typesByName: [String: TypeIdentity] = [:]
        return components.map { component in
            let key = component.key
            if let known = typeNames[key.type] {
                return RegistrationKey.canonicalName(typeName: known, name: key.name)
            }
            let typeName = key.type.name
            typeNames[key.type] = typeName
            if let other = typesByName.updateValue(key.type, forKey: typeName) {
                problems.append(
                    FrostError(
                        .typeMismatch,
                        key: key,
                        catalog: catalog,
                        detail: "it and another type (\(other.shortName)) share the qualified name "
                            + "\(typeName); rename one of them"
                    )
                )
            }
            return RegistrationKey.canonicalName(typeName: typeName, name: key.name)
        }
    }
}
