import Foundation

extension FrozenContainer: CustomStringConvertible {
    /// Every registration, in registration order: its key, scope, and the dependencies it
    /// declares (autowired parameters, `.inject` key paths, forwards). A child lists the keys
    /// its parent does not know, then its registrations of its parent's keys (marked
    /// "overrides the parent's"); values it supplies for provided keys are not registrations.
    ///
    /// ```text
    /// FrozenContainer: 3 registrations, 4 slots (identity hash: BDZ_PH)
    ///   MyApp.Logger            singleton
    ///   MyApp.Database#replica  transient   -> MyApp.AppConfig
    ///   MyApp.UserService       transient   -> MyApp.Logger, MyApp.Database#replica
    /// ```
    public var description: String {
        let all = registrations.map(\.component)
        let names = nodeNames(of: all)
        let width = min(names.map(\.count).max() ?? 0, 60)
        var algorithm = "none"
        var salted = false
        if let function = lookup.identityFunction, lookup.count > 0 {
            algorithm =
                ["BDZ_PH", "BDZ_PH c=1.5", "BDZ_PH c=2.0", "CHD_PH", "BDZ"][min(function.rung, 4)]
            salted = function.salted
        }
        var lines = [
            "FrozenContainer: \(all.count) registration\(all.count == 1 ? "" : "s"), "
                + "\(lookup.capacity) slots (identity hash: \(algorithm)\(salted ? ", salted" : ""))"
                + (defaultScope == .transient ? "" : ", default scope \(defaultScope)")
        ]
        let overridden = all.count - components.count
        for (index, (component, name)) in zip(all, names).enumerated() {
            var line =
                "  " + name.padding(toLength: max(width, name.count), withPad: " ", startingAt: 0)
            line += "  " + (component.instance != nil ? "instance" : component.scope.description)
            if component.isLazy { line += " (lazy)" }
            if let target = component.forwardsTo {
                line += "   => \(target.canonicalName)"
            } else if !component.dependencies.isEmpty {
                let dependencies = component.dependencies.map { dependency in
                    dependency.key.canonicalName + (dependency.deferred ? " (deferred)" : "")
                }
                line += "   -> " + dependencies.joined(separator: ", ")
            }
            if component.argumentType != nil { line += "   (runtime arguments)" }
            if index >= components.count { line += "   (overrides the parent's)" }
            lines.append(line)
        }
        if parent != nil {
            lines.append(
                "  (falls back to a parent container\(overridden > 0 ? ", \(overridden) of whose keys it registers again" : ""))"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The dependency graph in Graphviz's DOT language: one node per registration (labelled
    /// with its scope), a solid edge per dependency, a dashed one per deferred dependency
    /// (`Lazy`, `Provider`, `@LazyInjected`), a dotted one per forward. A child shows its own
    /// registrations and its overrides of its parent's (a dependency on the parent's is an
    /// edge to a node of its name).
    ///
    /// Only declared dependencies appear: those of autowired initializers, injected
    /// properties and forwards (a closure's are known only when it runs). Two registrations
    /// whose types print alike are two nodes: the second one's name gets ` #2`.
    ///
    /// - Returns: `digraph Frost { ... }`, for `dot -Tsvg`.
    public func graphviz() -> String {
        func quoted(_ text: String) -> String {
            "\""
                + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\"") + "\""
        }
        let all = registrations.map(\.component)
        let names = nodeNames(of: all)
        var node: [RegistrationKey: String] = [:]
        for (component, name) in zip(all, names) { node[component.key] = name }
        var lines = [
            "digraph Frost {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];",
        ]
        for (component, name) in zip(all, names) {
            let scope = component.instance != nil ? "instance" : component.scope.description
            // `\n` is DOT's line break inside a label: appended after quoting the text.
            let label = String(quoted(name).dropLast()) + "\\n" + scope + "\""
            lines.append("  \(quoted(name)) [label=\(label)];")
        }
        for (component, name) in zip(all, names) {
            let from = quoted(name)
            if let target = component.forwardsTo {
                let to = node[target] ?? target.canonicalName
                lines.append("  \(from) -> \(quoted(to)) [style=dotted];")
                continue
            }
            for dependency in component.dependencies {
                let style = dependency.deferred ? " [style=dashed]" : ""
                let to = node[dependency.key] ?? dependency.key.canonicalName
                lines.append("  \(from) -> \(quoted(to))\(style);")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The readable name of each registration (made now: descriptions are read rarely), the
    /// second and later of names that print alike numbered (`Module.Type #2`), so that each
    /// registration is one node.
    private func nodeNames(of components: [Component]) -> [String] {
        var seen: [String: Int] = [:]
        return components.map { component in
            let name = component.key.canonicalName
            let count = seen[name, default: 0] + 1
            seen[name] = count
            return count == 1 ? name : "\(name) #\(count)"
        }
    }
}
