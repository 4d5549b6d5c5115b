/// What `freeze()` checks without running any factory: every declared dependency (autowired
/// parameters, injected properties, forwards) is registered and resolvable without runtime
/// arguments, no registration needs itself to be constructed, and no singleton keeps a
/// shorter-lived instance. Every problem found is reported, one error each.
struct Validation {
    let components: [Component]
    /// Where a key's registration is in `components`.
    let index: KeyIndex
    /// For a child container: where keys missing here are found.
    let parent: _Space?
    /// For a child container: the per-child indices of the provided keys it supplies.
    let filled: Set<Int>
    let catalog: Catalog
    /// Whether any registration declares dependencies or forwards (else only the rules of
    /// each registration alone are checked).
    let linked: Bool

    /// What a declared dependency names: its registration (this container's or the parent's;
    /// `nil` when nothing registers it), and its position in `components` when it is this
    /// container's.
    private struct Target {
        let component: Component?
        let index: Int?
    }

    /// The problems of declared dependencies, one list per rule, so that they are reported
    /// rule by rule, each in registration order.
    private struct DependencyProblems {
        var missing: [FrostError] = []
        var onArguments: [FrostError] = []
        var captive: [FrostError] = []
        var asyncMisfits: [FrostError] = []
    }

    func problems() -> [FrostError] {
        let alone = untrackedDisposal() + asyncLifetimes()
        guard linked else { return alone }
        // One walk over every declared dependency: its registration is looked up once, each
        // rule checks it, and the edges a cycle can close on are collected for Tarjan's walk.
        var found = DependencyProblems()
        var edgeTargets: [Int] = []
        var edgeStarts: [Int] = []
        edgeStarts.reserveCapacity(components.count + 1)
        for component in components {
            edgeStarts.append(edgeTargets.count)
            // Made by its factory where it is registered (a registered instance is not made).
            let madeWhereRegistered =
                component.lifetime.madeWhereRegistered && component.instance == nil
            for dependency in component.dependencies {
                let target = target(of: dependency)
                if !dependency.optional, target.component == nil {
                    found.missing.append(missing(dependency, of: component))
                }
                if dependency.kind != .forward, let arguments = target.component?.argumentType {
                    found.onArguments.append(
                        onArguments(dependency, of: component, takes: arguments))
                }
                if !dependency.deferred, let depended = target.component {
                    if madeWhereRegistered,
                        let problem = captive(component, dependency, depended)
                    {
                        found.captive.append(problem)
                    }
                    if !component.isAsync, depended.isAsync,
                        !depended.lifetime.keepsAcrossResolves
                    {
                        found.asyncMisfits.append(asyncMisfit(component, dependency, depended))
                    }
                }
                if dependency.constructs, let index = target.index { edgeTargets.append(index) }
            }
        }
        edgeStarts.append(edgeTargets.count)
        let edges = StronglyConnected.Edges(targets: edgeTargets, starts: edgeStarts)
        return alone + found.missing + found.onArguments + cycles(edges) + found.captive
            + found.asyncMisfits
    }

    /// Every `.onDispose` hook on a registration whose instances are never tracked (a
    /// transient, `.graph`, a custom scope's): it would never run.
    private func untrackedDisposal() -> [FrostError] {
        components.compactMap { component in
            guard component.disposes, component.instance == nil,
                !component.lifetime.tracksInstances
            else { return nil }
            return FrostError(
                .lifetimeMismatch, key: component.key, path: [component.key],
                catalog: catalog,
                detail: "has an .onDispose hook, but its \(component.scope) instances are never "
                    + "tracked, so the hook would never run; keep it in a lifetime that "
                    + "tracks its instances (singleton, scoped, weak), or release what it holds "
                    + "yourself")
        }
    }

    /// Every async factory in a lifetime that cannot await (`.weak`, a custom scope: their
    /// storage is read synchronously).
    private func asyncLifetimes() -> [FrostError] {
        components.compactMap { component in
            guard component.isAsync, !component.lifetime.allowsAsyncFactory else { return nil }
            return FrostError(
                .asyncRequired, key: component.key, path: [component.key], catalog: catalog,
                detail: "has an async or actor-isolated factory in the \(component.scope) "
                    + "lifetime, which is read synchronously; make it a singleton, scoped, "
                    + "graph or transient")
        }
    }

    /// What `dependency` names: one key lookup.
    private func target(of dependency: Dependency) -> Target {
        if let index = index.position(of: dependency.key) {
            return Target(component: components[index], index: index)
        }
        return Target(component: parent?.registration(for: dependency.key), index: nil)
    }

    /// A declared dependency that nothing registers, with the registration that needs it.
    private func missing(_ dependency: Dependency, of component: Component) -> FrostError {
        FrostError(
            .notRegistered,
            key: dependency.key,
            path: [component.key, dependency.key],
            catalog: catalog,
            detail: "needed by \(component.key.canonicalName) (\(dependency.label))"
        )
    }

    /// An autowired parameter or injected property on a registration that takes runtime
    /// arguments (`arguments`) — directly or as a `Lazy`/`Provider`, which resolve without
    /// arguments too: it can only be resolved with its arguments, which a declared dependency
    /// cannot give. (A forward can: it passes on the arguments it is resolved with.)
    private func onArguments(
        _ dependency: Dependency, of component: Component, takes arguments: Any.Type
    ) -> FrostError {
        let declared =
            dependency.deferred
            ? "a Lazy or Provider of \(dependency.key.canonicalName), which resolves it "
                + "without arguments, but it"
            : "\(dependency.key.canonicalName), which"
        return FrostError(
            .argumentMismatch,
            key: component.key,
            path: [component.key, dependency.key],
            catalog: catalog,
            detail: "\(dependency.label) is \(declared) takes runtime arguments "
                + "\(String(reflecting: arguments)); register "
                + "\(component.key.canonicalName) with a closure that calls "
                + "r.resolve(\(dependency.key.type.shortName).self, arguments: ...)"
        )
    }

    /// Every hook that can never run on a registration Frost never creates: `.onCreate`,
    /// `.inject` and `.onDispose` on a registered instance (`register(instance:)`, a child's
    /// value for a provided key included) or on a provided key. Such instances are the
    /// application's own objects: it configures and closes them itself, or registers a factory
    /// so that Frost makes (and disposes) them. Checked over every registration, the values a
    /// child supplies too.
    static func hooksThatNeverRun(_ components: [Component], catalog: Catalog) -> [FrostError] {
        components.compactMap { component in
            let isInstance = component.instance != nil
            guard isInstance || component.lifetime.isSupplied,
                component.disposes || component.runsCreationHooks
            else { return nil }
            let what =
                isInstance
                ? "is a registered instance (register(instance:))"
                : "is a provided key, whose values each child registers"
            let hooks = [
                component.runsCreationHooks ? ".onCreate or .inject" : nil,
                component.disposes ? ".onDispose" : nil,
            ].compactMap { $0 }.joined(separator: " and ")
            let short = component.key.type.shortName
            return FrostError(
                .lifetimeMismatch, key: component.key, path: [component.key], catalog: catalog,
                detail: "\(what): the application's own object, which Frost never creates nor "
                    + "disposes, so its \(hooks) hook would never run; configure and close it "
                    + "yourself (after dispose()), or register a factory that makes it, "
                    + "register(\(short).self) { _ in ... }, with its scope")
        }
    }

    /// Every cycle of dependencies needed to construct an instance (initializer parameters,
    /// forwards), once each, with its members in order (Tarjan's strongly connected
    /// components, then a walk around each one). Injected properties are not edges: objects
    /// that point at each other through properties resolve when their scope shares them, and
    /// a cycle that cannot is caught when resolving.
    private func cycles(_ edges: StronglyConnected.Edges) -> [FrostError] {
        var problems: [FrostError] = []
        for component in StronglyConnected(edges: edges).cyclic {
            let members = Set(component)
            // Walk from the first member along edges that stay inside the component.
            var path = [component[0]]
            var seen: Set<Int> = [component[0]]
            while let next = edges[path.last!].first(where: { members.contains($0) }) {
                path.append(next)
                if !seen.insert(next).inserted { break }
            }
            let start = path.firstIndex(of: path.last!)!
            let cycle = path[start...].map { components[$0].key }
            problems.append(FrostError(.cycle, key: cycle[0], path: Array(cycle), catalog: catalog))
        }
        return problems
    }

    /// A registration made where it is registered (a singleton, a `.weak` or a custom scope's;
    /// the caller checks that) that depends (not through `Lazy`/`Provider`: the caller checks
    /// that too) on a per-child key (`.scoped`, provided), whatever its type: a root's is made
    /// in the root, which cannot see a child's values (a child's may depend on its own
    /// `.scoped` instances and the values it supplies); or a singleton that depends on a
    /// shorter-lived registration, which it would keep forever. A transient of a value type is
    /// not captive: a singleton keeps a copy. `nil` when `target` is neither.
    private func captive(_ component: Component, _ dependency: Dependency, _ target: Component)
        -> FrostError?
    {
        let isSingleton = component.lifetime.keepsInSlot
        // Names are made only for a problem: a valid graph builds no string.
        var short: String { dependency.key.type.shortName }
        if target.lifetime.keepsPerChild {
            guard !isHeldByThisChild(target, key: dependency.key) else { return nil }
            let kept = isSingleton ? "singleton" : "\(component.scope) instance"
            let rule =
                isSingleton
                ? "a singleton would keep the \(target.scope) value of "
                    + "\(dependency.key.canonicalName) (\(dependency.label)) of whichever "
                    + "child resolves it first"
                : "a \(kept) is made in the container it is registered in, which cannot "
                    + "see the \(target.scope) value of \(dependency.key.canonicalName) "
                    + "(\(dependency.label)) each child has, so it could never be made"
            // A Provider or Lazy would not help: it resolves in the container that made the
            // instance, which is not the child.
            let own = component.key.type.shortName
            return captiveError(
                component, dependency,
                rule + "; make \(own) \(Scoped.scope) (one per child, made from the child's "
                    + "\(short)) or \(Transient.scope), or resolve \(short) from the child "
                    + "where it is used")
        }
        guard isSingleton, !target.caches, target.lifetime.rank < component.lifetime.rank,
            !TypeKind.isValueType(dependency.key.type.type)
        else { return nil }
        return captiveError(
            component, dependency,
            "a singleton would keep one \(target.scope) instance of "
                + "\(dependency.key.canonicalName) (\(dependency.label)) forever; make it a "
                + "singleton too, or depend on Provider<\(short)> or Lazy<\(short)>")
    }

    /// A synchronous registration that declares (not through `Lazy`/`Provider`) a dependency
    /// on an async one that is never kept (transient, `.graph`; the caller checks all this): no
    /// resolve, awaited or not, could hand it to the synchronous factory. An async singleton or
    /// `.scoped` dependency is fine: an awaited resolve makes it before the factory runs, and
    /// `bootstrap()` makes the singletons.
    private func asyncMisfit(_ component: Component, _ dependency: Dependency, _ target: Component)
        -> FrostError
    {
        let short = dependency.key.type.shortName
        return FrostError(
            .asyncRequired, key: component.key, path: [component.key, dependency.key],
            catalog: catalog,
            detail: "needs \(dependency.key.canonicalName) (\(dependency.label)), "
                + "whose factory is async and runs on every resolve "
                + "(\(target.scope)); its synchronous factory can never be handed "
                + "one. Register it with an async factory that awaits "
                + "`r.resolve(\(short).self)`, make \(short) a singleton or scoped, "
                + "or depend on Provider<\(short)>")
    }

    /// Whether a per-child registration's value lives as long as a singleton of this
    /// container: this is a child, and it holds the `.scoped` instance or supplies the value.
    private func isHeldByThisChild(_ target: Component, key: RegistrationKey) -> Bool {
        guard let parent else { return false }
        if !target.lifetime.isSupplied { return true }
        let slot = parent.chainSlot(for: key)
        guard slot != PerfectHashTable.notFound,
            let index = parent.place(of: slot).flags.perChildIndex
        else { return false }
        return filled.contains(index)
    }

    /// The error of a captive dependency, explained by `detail`.
    private func captiveError(_ component: Component, _ dependency: Dependency, _ detail: String)
        -> FrostError
    {
        FrostError(
            .captiveDependency, key: component.key, path: [component.key, dependency.key],
            catalog: catalog, detail: detail)
    }
}
