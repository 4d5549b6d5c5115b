/// Layer 3 of the engine: how long an instance lives, where a container keeps it, and the
/// rules `freeze()` checks for it. One strategy per scope, one file each (``Transient``,
/// ``Singleton``, ``Weak``, ``Graph``, ``Scoped``, ``Provided``, ``Custom``), each with its
/// creation and caching for a synchronous resolve and an awaited one; the containers never ask
/// which scope a registration has, only what its lifetime says. Adding a lifetime touches its
/// own file and the one dispatch below.
protocol Lifetime {
    /// Where a container keeps the instance.
    static var keeping: Keeping { get }
    /// Whether the instance is made in the container the registration belongs to, from its
    /// registrations only (`true`), or in the container the resolve is in, seeing a child's
    /// registrations and provided values (`false`).
    static var madeWhereRegistered: Bool { get }
    /// Whether the container tracks its instances for `dispose()`, so that `.onDispose` hooks
    /// apply (`freeze()` rejects them otherwise).
    static var tracksInstances: Bool { get }
    /// Whether its factory may be async (an awaited resolve can keep the instance).
    static var allowsAsyncFactory: Bool { get }
    /// How long its instances live relative to the others', for the captive-dependency check:
    /// a longer-lived instance must not keep a shorter-lived one.
    static var rank: Int { get }
    /// Whether `bootstrap()` makes its instances (unless the registration is `.lazy()`).
    static var isEager: Bool { get }
    /// Whether a resolve that needs the registration again while making it gets the same
    /// instance once it exists (a singleton, `.scoped`, `.graph`): a finish that needs it is
    /// put off until then (``DeferredFinish``) rather than failing.
    static var isSharedWithinResolve: Bool { get }
    /// Whether its instances are the application's values, supplied by each child (a
    /// provided key): never made, so no hook of its registration ever runs.
    static var isSupplied: Bool { get }

    /// Where the instance of the registration at `place` is kept as `space` sees it, and the
    /// container that supplies it when that is another one (a provided value's); `nil` when
    /// none keeps it there (the default: a lifetime that keeps nothing in a container's cells).
    static func cell(of place: Place, seenFrom space: _Space) -> (cell: Cell?, holder: _Space?)

    /// The instance of `target`, for a synchronous resolve (or the synchronous stretch of an
    /// awaited one) running in `context`.
    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T

    /// The boxed instance of `target`, whose factory is async, for an awaited resolve running
    /// in `context` (only lifetimes that allow async factories are asked).
    nonisolated(nonsending)
        static func instanceAwaiting(of target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject

    /// The instance an awaited resolve already made and keeps, when a synchronous resolve
    /// meets an async factory (a protected read); `nil` when there is none.
    static func madeInstance(of target: Target) -> UnsafeMutableRawPointer?

    /// Makes and keeps the instance of `target` if it is not made yet: `bootstrap()`'s step.
    static func prepare(_ target: Target, in context: ResolveContext) throws(FrostError)

    /// ``prepare(_:in:)`` for an async factory.
    nonisolated(nonsending)
        static func prepareAwaiting(_ target: Target, in context: ResolveContext)
        async throws(FrostError)
}

/// Where a container keeps an instance: what a lifetime tells the containers, which never ask
/// for the scope itself.
enum Keeping {
    /// Nowhere: a new instance each time, or one per top-level resolve.
    case nothing
    /// In its slot's cell, which lookups read as a cached instance.
    case slot
    /// In a side cell of its slot, weakly (never read as a cached instance).
    case weakSide
    /// In a cell of each child container.
    case perChild
    /// In the cell of the child container that supplies it.
    case supplied
    /// In a storage the application gives (``ScopeStorage``).
    case storage
}

/// What the containers ask of a lifetime, answered here from ``Keeping`` (the one table a new
/// way of keeping touches): nothing outside `Lifetimes/` reads ``Keeping`` itself.
extension Lifetime {
    /// Whether the instance stays in the slot's cell, which lookups read as a cached
    /// instance (a singleton's; a registered instance's too).
    static var keepsInSlot: Bool { keeping == .slot }
    /// Whether the instance is kept weakly, in a side cell of its slot (``WeakBox``).
    static var keepsWeakly: Bool { keeping == .weakSide }
    /// Whether each child container has a cell for it (a `.scoped` instance, a provided
    /// value): its slot gets a per-child index.
    static var keepsPerChild: Bool { keeping == .perChild || keeping == .supplied }
    /// Whether an instance outlives the resolve that made it (`false`: a transient's, a
    /// `.graph` one's).
    static var keepsAcrossResolves: Bool { keeping != .nothing }

    /// The cell `releaseCachedInstances()` empties for a registration kept in `cell` (its
    /// slot's) or `weakCell` (its side cell); `nil` when it keeps nothing there (a custom
    /// scope's storage is emptied as a whole, a child's per-child cells by the child).
    static func releasedCell(_ cell: Cell, weakCell: Cell?) -> Cell? {
        switch keeping {
        case .slot: cell
        case .weakSide: weakCell
        case .nothing, .perChild, .supplied, .storage: nil
        }
    }

    static func cell(of place: Place, seenFrom space: _Space) -> (cell: Cell?, holder: _Space?) {
        (nil, nil)
    }

    static var isSharedWithinResolve: Bool { false }

    static var isSupplied: Bool { false }

    static func madeInstance(of target: Target) -> UnsafeMutableRawPointer? { nil }

    static func prepare(_ target: Target, in context: ResolveContext) throws(FrostError) {}

    nonisolated(nonsending)
        static func prepareAwaiting(_ target: Target, in context: ResolveContext)
        async throws(FrostError)
    {}

    nonisolated(nonsending)
        static func instanceAwaiting(of target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject
    {
        throw FrostError(
            .asyncRequired, key: target.component.key, path: context.path(to: target.component),
            detail: "has an async factory in the \(target.component.scope) lifetime, which "
                + "cannot await")
    }
}

extension Scope.Kind {
    /// The one dispatch from a scope to its lifetime.
    var lifetime: any Lifetime.Type {
        switch self {
        case .transient: Transient.self
        case .singleton: Singleton.self
        case .weak: Weak.self
        case .graph: Graph.self
        case .scoped: Scoped.self
        case .provided: Provided.self
        case .custom: Custom.self
        }
    }
}
