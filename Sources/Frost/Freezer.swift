/// Compiles a container's registrations into a ``FrozenContainer``: validates them, computes
/// every key's two byte forms, builds the perfect-hash table, binds autowired parameters to
/// their slots and installs each component in its slot.
struct Freezer {
    /// The registrations, in registration order, one per key.
    let components: [Component]
    /// For a child container: where keys missing here are found.
    let parent: FrozenContainer?

    func freeze() throws(FrostError) -> FrozenContainer {
        let catalog = Catalog(keys: components.map(\.key))
        // Forwards and declared dependencies need a key index; plain registrations do not
        // (100,000 filler keys would pay for hashing every name).
        let linked = components.contains { $0.forwardsTo != nil || !$0.dependencies.isEmpty }
        let byKey =
            linked ? Dictionary(components.map { ($0.key, $0) }, uniquingKeysWith: { $1 }) : [:]
        let scoped = resolveForwardScopes(byKey)
        var problems: [FrostError] = []
        let typeNames = typeNames(of: scoped, problems: &problems, catalog: catalog)
        if scoped.contains(where: { !$0.dependencies.isEmpty }) {
            let scopedByKey = Dictionary(scoped.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
            problems += missingDependencies(scoped, scopedByKey, catalog: catalog)
            problems += cycles(scoped, scopedByKey, catalog: catalog)
            problems += captiveDependencies(scoped, scopedByKey, catalog: catalog)
        }
        guard problems.isEmpty else {
            throw FrostError(.invalidRegistrations, key: nil, problems: problems)
        }
        let table: PerfectHashTable
        do {
            table = try PerfectHashTable(keys: scoped.map(\.key), typeNames: typeNames)
        } catch {
            // Keys are distinct by construction (a dictionary holds them) and their names were
            // checked above; reaching this is a bug in Frost, reported rather than trapped.
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
        var weakReferences = [WeakReference?](repeating: nil, count: table.capacity)
        var slotOfInput = [UInt32](repeating: 0, count: installed.count)
        for slot in 0..<PerfectHashTable.Slot(table.capacity) {
            guard let index = table.inputIndex(of: slot) else { continue }
            slotOfInput[index] = slot
            table.install(installed[index], at: slot)
            if installed[index].scope.kind == .weak, installed[index].instance == nil {
                weakReferences[Int(slot)] = WeakReference()
            }
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
            weakReferences: weakReferences,
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

    /// Every key's qualified type name (`String(reflecting:)`, computed once per type; a
    /// run of keys of one type reuses it without a lookup). The table writes each canonical
    /// name (`Type` or `Type#name`) straight into its arena: no string is built per key. Two
    /// types with one qualified name (possible for local types) cannot share the name table:
    /// reported. Names cannot make keys of different types collide: `#` never occurs in a
    /// type name.
    private func typeNames(
        of components: [Component],
        problems: inout [FrostError],
        catalog: Catalog
    ) -> [String] {
        var typeNames: [TypeIdentity: String] = [:]
        var typesByName: [String: TypeIdentity] = [:]
        var last: (type: TypeIdentity, name: String)?
        return components.map { component in
            let type = component.key.type
            if let last, last.type == type { return last.name }
            let typeName: String
            if let known = typeNames[type] {
                typeName = known
            } else {
                typeName = type.name
                typeNames[type] = typeName
                if let other = typesByName.updateValue(type, forKey: typeName) {
                    problems.append(
                        FrostError(
                            .typeMismatch,
                            key: component.key,
                            catalog: catalog,
                            detail: "it and another type (\(other.shortName)) share the qualified "
                                + "name \(typeName); rename one of them"
                        )
                    )
                }
            }
            last = (type, typeName)
            return typeName
        }
    }

    // MARK: Validation

    private func isRegistered(_ key: RegistrationKey, in byKey: [RegistrationKey: Component])
        -> Bool
    {
        byKey[key] != nil || (parent?.isRegistered(key) ?? false)
    }

    /// Every declared dependency that nothing registers, with the registration that needs it.
    private func missingDependencies(
        _ components: [Component],
        _ byKey: [RegistrationKey: Component],
        catalog: Catalog
    ) -> [FrostError] {
        var problems: [FrostError] = []
        for component in components {
            for dependency in component.dependencies where !isRegistered(dependency.key, in: byKey)
            {
                problems.append(
                    FrostError(
                        .notRegistered,
                        key: dependency.key,
                        path: [component.key, dependency.key],
                        catalog: catalog,
                        detail: "needed by \(component.key.canonicalName) (\(dependency.label))"
                    )
                )
            }
        }
        return problems
    }

    /// Every cycle of non-deferred dependencies, once each, with its members in order
    /// (Tarjan's strongly connected components, then a walk around each one).
    private func cycles(
        _ components: [Component],
        _ byKey: [RegistrationKey: Component],
        catalog: Catalog
    ) -> [FrostError] {
        let keys = components.map(\.key)
        var indexOf: [RegistrationKey: Int] = [:]
        for (index, key) in keys.enumerated() { indexOf[key] = index }
        let edges: [[Int]] = keys.map { key in
            (byKey[key]?.dependencies ?? []).compactMap { $0.deferred ? nil : indexOf[$0.key] }
        }
        var problems: [FrostError] = []
        for component in StronglyConnected(edges: edges).components {
            let members = Set(component)
            guard component.count > 1 || edges[component[0]].contains(component[0]) else {
                continue
            }
            // Walk from the first member along edges that stay inside the component.
            var path = [component[0]]
            var seen: Set<Int> = [component[0]]
            while let next = edges[path.last!].first(where: { members.contains($0) }) {
                path.append(next)
                if !seen.insert(next).inserted { break }
            }
            let start = path.firstIndex(of: path.last!)!
            let cycle = path[start...].map { keys[$0] }
            problems.append(FrostError(.cycle, key: cycle[0], path: Array(cycle), catalog: catalog))
        }
        return problems
    }

    /// Every singleton that depends (not through `Lazy`/`Provider`) on a shorter-lived
    /// registration: it would keep one instance of it forever.
    private func captiveDependencies(
        _ components: [Component],
        _ byKey: [RegistrationKey: Component],
        catalog: Catalog
    ) -> [FrostError] {
        var problems: [FrostError] = []
        for component in components
        where component.scope.kind == .singleton && component.instance == nil {
            let scope = component.scope
            for dependency in component.dependencies where !dependency.deferred {
                guard let target = byKey[dependency.key], !target.caches,
                    target.scope.lifetimeRank < scope.lifetimeRank
                else { continue }
                problems.append(
                    FrostError(
                        .captiveDependency,
                        key: component.key,
                        path: [component.key, dependency.key],
                        catalog: catalog,
                        detail: "a singleton would keep one \(target.scope) instance of "
                            + "\(dependency.key.canonicalName) (\(dependency.label)) forever; "
                            + "make it a singleton too, or depend on Provider<"
                            + "\(dependency.key.type.shortName)> or Lazy<\(dependency.key.type.shortName)>"
                    )
                )
            }
        }
        return problems
    }
}

/// Tarjan's algorithm, iterative (a 100,000-key graph must not overflow the stack).
struct StronglyConnected {
    /// The components, each a list of node indices; every node is in exactly one.
    private(set) var components: [[Int]] = []

    init(edges: [[Int]]) {
        let count = edges.count
        var index = [Int](repeating: -1, count: count)
        var lowLink = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var nextIndex = 0
        for root in 0..<count where index[root] == -1 {
            var work: [(node: Int, edge: Int)] = [(root, 0)]
            index[root] = nextIndex
            lowLink[root] = nextIndex
            nextIndex += 1
            stack.append(root)
            onStack[root] = true
            while let (node, edge) = work.last {
                if edge < edges[node].count {
                    work[work.count - 1].edge += 1
                    let next = edges[node][edge]
                    if index[next] == -1 {
                        index[next] = nextIndex
                        lowLink[next] = nextIndex
                        nextIndex += 1
                        stack.append(next)
                        onStack[next] = true
                        work.append((next, 0))
                    } else if onStack[next] {
                        lowLink[node] = min(lowLink[node], index[next])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node {
                    lowLink[parent] = min(lowLink[parent], lowLink[node])
                }
                if lowLink[node] == index[node] {
                    var component: [Int] = []
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component.append(member)
                        if member == node { break }
                    }
                    components.append(component.reversed())
                }
            }
        }
    }
}
