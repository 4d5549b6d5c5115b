/// `.singleton`: one instance per container, made on the first resolve (or by `bootstrap()`)
/// in the container the registration belongs to, from its registrations only, and kept in the
/// registration's slot, where lookups read it. Its factory runs once, however many threads ask
/// at once; only resolves of the same singleton wait for its creation. Its `.onDispose` hooks
/// run at its container's `dispose()`; `releaseCachedInstances()` drops it. A registered
/// instance (`register(instance:)`) is kept the same way, preset.
///
/// The container logs its singletons in the order they were made (``SingletonLog``): what a
/// lifecycle integration starts in that order and stops in reverse.
enum Singleton: Lifetime {
    static var keeping: Keeping { .slot }
    static var madeWhereRegistered: Bool { true }
    static var tracksInstances: Bool { true }
    static var allowsAsyncFactory: Bool { true }
    static var rank: Int { 4 }
    static var isSharedWithinResolve: Bool { true }
    static var isEager: Bool { true }

    /// The scope of a registered instance: kept like a singleton's, preset.
    static var scope: Scope { .singleton }

    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        try made(target, in: context).value(as: T.self)
    }

    /// Reads or makes the singleton.
    private static func made(_ target: Target, in context: ResolveContext) throws(FrostError)
        -> Creation.Made
    {
        let owner = target.owner
        return try creation(target, in: context).make {
            try target.component.constructBox(in: owner.frame(in: context))
        }
    }

    nonisolated(nonsending)
        static func instanceAwaiting(of target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject
    {
        let component = target.component
        let owner = target.owner
        // Entered before any wait: a resolve that meets its own creation again is a cycle,
        // found in the path, not a wait for itself.
        try context.enter(component)
        defer { context.leave() }
        return try await creation(target, in: context).makeAwaiting {
            try await component.constructBoxAwaiting(owner.resolver)
        }.box
    }

    static func madeInstance(of target: Target) -> UnsafeMutableRawPointer? {
        target.cell?.read()
    }

    static func prepare(_ target: Target, in context: ResolveContext) throws(FrostError) {
        guard !target.component.isAsync else {
            guard target.cell?.peek() != nil else {
                throw Engine.asyncRequired(
                    target.component, context,
                    bootstrapMakesIt: target.component.isMadeAtBootstrap)
            }
            return
        }
        _ = try made(target, in: context)
    }

    nonisolated(nonsending)
        static func prepareAwaiting(_ target: Target, in context: ResolveContext)
        async throws(FrostError)
    {
        _ = try await instanceAwaiting(of: target, in: context)
    }

    /// The creation in the singleton's cell; each singleton it publishes goes in its
    /// container's log.
    private static func creation(_ target: Target, in context: ResolveContext) -> Creation {
        let owner = target.owner
        let component = target.component
        return Creation(
            cell: target.cell.unsafelyUnwrapped, component: component, maker: owner,
            context: context, logsSingleton: true)
    }
}
