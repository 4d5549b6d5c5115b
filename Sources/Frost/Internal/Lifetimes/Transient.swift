/// `.transient` (the default): every resolve makes a new instance, in the container the
/// resolve is in, so a child's registrations and provided values are what its factory sees.
/// Nothing is kept, tracked or released.
enum Transient: Lifetime {
    static var keeping: Keeping { .nothing }
    static var madeWhereRegistered: Bool { false }
    static var tracksInstances: Bool { false }
    static var allowsAsyncFactory: Bool { true }
    static var rank: Int { 0 }
    static var isEager: Bool { false }

    /// The scope of a transient, by name: for messages.
    static var scope: Scope { .transient }

    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        let frame = target.context.frame(in: context)
        guard target.component.forwardsTo == nil else {
            // A forward is the registration it forwards to: not a creation of its own, but a
            // passage on the path (an error names it; resolving it while that instance is
            // being finished gets the instance, not a cycle).
            let forward = unsafeDowncast(target.component, to: TypedComponent<T>.self)
            return try context.passing(forward) { () throws(FrostError) -> T in
                do {
                    return try forward.construct(in: frame)
                } catch {
                    throw context.failure(error, in: forward)
                }
            }
        }
        // The specialized path's code (a frame of the container the resolve is in), here for
        // any T: one way to make a transient.
        return try frame.make(target.componentPointer, as: T.self)
    }

    nonisolated(nonsending)
        static func instanceAwaiting(of target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject
    {
        try context.enter(target.component)
        defer { context.leave() }
        return try await Engine.makeAwaiting(
            target.component, resolver: target.context.resolver, in: context)
    }
}
