import Foundation

extension FrozenContainer: CustomStringConvertible {
    /// Every registration, in registration order: its key, scope, and the dependencies it
    /// declares (autowired parameters, `.inject` key paths, forwards). A child lists the keys
    /// its parent does not know; its registrations of its parent's keys are counted by
    /// ``count`` but not listed.
    ///
    /// ```text
    /// FrozenContainer: 3 registrations, 4 slots (identity hash: BDZ_PH)
    ///   MyApp.Logger            singleton
    ///   MyApp.Database#replica  transient   -> MyApp.AppConfig
    ///   MyApp.UserService       transient   -> MyApp.Logger, MyApp.Database#replica
    /// ```
    public var description: String {
        let names = components.map { canonicalName(of: $0.key) }
        let width = min(names.map(\.count).max() ?? 0, 60)
        let info = table.functionInfo(0)
        let algorithm = ["BDZ_PH", "BDZ_PH c=1.5", "BDZ_PH c=2.0", "CHD_PH", "BDZ"][
            Int(min(info.rung, 4))]
        var lines = [
            "FrozenContainer: \(components.count) registration\(components.count == 1 ? "" : "s"), "
                + "\(table.capacity) slots (identity hash: \(algorithm)\(info.salt > 0 ? ", salted" : ""))"
        ]
        for (component, name) in zip(components, names) {
            var line =
                "  " + name.padding(toLength: max(width, name.count), withPad: " ", startingAt: 0)
            line += "  " + (component.instance != nil ? "instance" : component.scope.description)
            if let target = component.forwardsTo {
                line += "   => \(canonicalName(of: target))"
            } else if !component.dependencies.isEmpty {
                let dependencies = component.dependencies.map { dependency in
                    canonicalName(of: dependency.key) + (dependency.deferred ? " (deferred)" : "")
                }
                line += "   -> " + dependencies.joined(separator: ", ")
            }
            if component.argumentType != nil { line += "   (runtime arguments)" }
            lines.append(line)
        }
        if parent != nil { lines.append("  (falls back to a parent container)") }
        return lines.joined(separator: "\n")
    }

    /// The dependency graph in Graphviz's DOT language: one node per registration (labelled
    /// with its scope), a solid edge per dependency, a dashed one per deferred dependency
    /// (`Lazy`, `Provider`, `@LazyInjected`), a dotted one per forward.
    ///
    /// Only declared dependencies appear: those of autowired initializers, injected
    /// properties and forwards (a closure's are known only when it runs).
    ///
    /// - Returns: `digraph Frost { ... }`, for `dot -Tsvg`.
    public func graphviz() -> String {
        func quoted(_ text: String) -> String {
            "\""
                + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\"") + "\""
        }
        var lines = [
            "digraph Frost {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];",
        ]
        for component in components {
            let name = canonicalName(of: component.key)
            let scope = component.instance != nil ? "instance" : component.scope.description
            // `\n` is DOT's line break inside a label: appended after quoting the text.
            let label = String(quoted(name).dropLast()) + "\\n" + scope + "\""
            lines.append("  \(quoted(name)) [label=\(label)];")
        }
        for component in components {
            let from = quoted(canonicalName(of: component.key))
            if let target = component.forwardsTo {
                lines.append("  \(from) -> \(quoted(canonicalName(of: target))) [style=dotted];")
                continue
            }
            for dependency in component.dependencies {
                let style = dependency.deferred ? " [style=dashed]" : ""
                lines.append("  \(from) -> \(quoted(canonicalName(of: dependency.key)))\(style);")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The readable canonical key (made now: descriptions are read rarely).
    private func canonicalName(of key: RegistrationKey) -> String {
        key.canonicalName
    }
}
