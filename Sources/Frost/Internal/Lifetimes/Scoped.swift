/// `.scoped`: one instance per child container (a request, a test), made on the first resolve
/// through that child, in the child, and kept in the child's cell for the registration; its
/// `.onDispose` hooks run at the child's `dispose()`. A container that is not a child has no
/// such cell: resolving there fails with ``FrostError/Code/outsideChild``.
enum Scoped: Lifetime {
    static var keeping: Keeping { .perChild }
    static var madeWhereRegistered: Bool { false }
    static var tracksInstances: Bool { true }
    static var allowsAsyncFactory: Bool { true }
    static var rank: Int { 2 }
    static var isSharedWithinResolve: Bool { true }
    static var isEager: Bool { false }

    /// The scope of a per-child instance, by name: for messages.
    static var scope: Scope { .scoped }

    /// The cell of `space` for it, when `space` is a child.
    static func cell(of place: Place, seenFrom space: _Space) -> (cell: Cell?, holder: _Space?) {
        guard space.isChild, let index = place.flags.perChildIndex else { return (nil, nil) }
        return (space.cells.perChild(index), nil)
    }

    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        let child = target.context
        return try creation(target, in: context).make {
            try target.component.constructBox(in: child.frame(in: context))
        }.value(as: T.self)
    }

    nonisolated(nonsending)
        static func instanceAwaiting(of target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject
    {
        let component = target.component
        let child = target.context
        let creation = try creation(target, in: context)
        try context.enter(component)
        defer { context.leave() }
        return try await creation.makeAwaiting {
            try await component.constructBoxAwaiting(child.resolver)
        }.box
    }

    static func madeInstance(of target: Target) -> UnsafeMutableRawPointer? {
        target.context.isChild ? target.cell?.read() : nil
    }

    /// The creation in the child's cell; `.outsideChild` where there is none.
    private static func creation(_ target: Target, in context: ResolveContext)
        throws(FrostError) -> Creation
    {
        guard target.context.isChild, let cell = target.cell else {
            throw FrostError(
                .outsideChild, key: target.component.key,
                path: context.path(to: target.component))
        }
        return Creation(
            cell: cell, component: target.component, maker: target.context, context: context)
    }
}
