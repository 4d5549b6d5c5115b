/// `.graph`: one instance per top-level resolve, in the container the resolve is in: every
/// dependency on it within one `resolve(Root.self)` shares it, the next top-level resolve makes
/// a new one. It is shown to its resolve as soon as its factory returns, so objects that point
/// at each other through injected properties resolve to one set. Nothing is tracked or
/// released: the resolve's end drops it.
enum Graph: Lifetime {
    static var keeping: Keeping { .nothing }
    static var madeWhereRegistered: Bool { false }
    static var tracksInstances: Bool { false }
    static var allowsAsyncFactory: Bool { true }
    static var rank: Int { 1 }
    static var isSharedWithinResolve: Bool { true }
    static var isEager: Bool { false }

    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        let component = unsafeDowncast(target.component, to: TypedComponent<T>.self)
        let key = GraphKey(component: component, container: target.context)
        if context.depth > 0, let box = context.state.graphInstances[key] {
            return _kept(box, as: T.self)
        }
        let resolver = target.context.resolver
        // Entered once for the whole creation: a top-level one does not end its resolve (and
        // drop its `.graph` instances) between constructing and finishing.
        try context.enter(component)
        defer { context.leave() }
        let instance: T
        do {
            instance = try component.construct(in: target.context.frame(in: context))
        } catch {
            context.abandonDeferred(waitingFor: component)
            throw context.failure(error, in: component)
        }
        let box = _keep(instance)
        context.state.graphInstances[key] = box
        context.keepUntilTheResolveEnds()
        // What was put off until this instance exists, then its own finish — put off in turn
        // while this resolve is still constructing a shared instance above it.
        let needsFinishing = component.needsFinishing(instance)
        if needsFinishing, let blocker = context.constructingBlocker(finishing: component) {
            context.state.deferred.append(
                DeferredFinish(
                    component: component, box: box, resolver: resolver, creation: nil,
                    blocker: blocker))
            try context.runDeferred(waitingFor: component)
            return instance
        }
        try context.finishing(component) { () throws(FrostError) in
            try context.runDeferred(waitingFor: component)
            guard needsFinishing else { return }
            do {
                try component.finish(instance, resolver)
            } catch {
                throw context.failure(error, in: component)
            }
        }
        return instance
    }

    nonisolated(nonsending)
        static func instanceAwaiting(of target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject
    {
        let component = target.component
        let key = GraphKey(component: component, container: target.context)
        if context.depth > 0, let box = context.state.graphInstances[key] { return box }
        try context.enter(component)
        defer { context.leave() }
        return try await Engine.makeAwaiting(
            component, resolver: target.context.resolver, in: context,
            showing: { box in
                context.state.graphInstances[key] = box
                context.keepUntilTheResolveEnds()
            })
    }
}

/// A `.graph` instance's key: the registration and the container it was resolved in.
struct GraphKey: Hashable {
    let component: ObjectIdentifier
    let container: ObjectIdentifier

    init(component: Component, container: _Space) {
        self.component = ObjectIdentifier(component)
        self.container = ObjectIdentifier(container)
    }
}
