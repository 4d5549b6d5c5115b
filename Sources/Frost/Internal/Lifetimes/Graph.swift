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
    static var isEager: Bool { false }

    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        let component = unsafeDowncast(target.component, to: TypedComponent<T>.self)
        let key = GraphKey(component: component, container: target.context)
        if context.depth > 0, let box = context.state.graphInstances[key] {
            return unsafeDowncast(box, to: Box<T>.self).value
        }
        let resolver = target.context.resolver
        return try context.entering(component) {
            let instance = try component.construct(in: target.context.frame(in: context))
            context.state.graphInstances[key] = Box(instance)
            context.keepUntilTheResolveEnds()
            if component.needsFinishing(instance) { try component.finish(instance, resolver) }
            return instance
        }
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
