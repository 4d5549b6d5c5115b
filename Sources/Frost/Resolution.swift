/// The resolver a factory receives: the store it resolves from, how deep the current top-level
/// resolve is, and that resolve's shared state (if it needs any).
///
/// A resolve that runs factories does so in one of two modes:
/// - **Fast** (first): no path is kept, only a depth. The resolver is three words, so passing
///   it as `any Resolver` allocates nothing. Errors collect their dependency path while they
///   unwind, so the path costs nothing unless something fails.
/// - **Exact** (only after the fast mode went deeper than `depthLimit`, which a cycle always
///   does): the state records the components being made; meeting one of them again is a
///   cycle, reported with exactly its members. A graph that is legitimately deeper than the
///   limit resolves in this mode too, just more slowly.
///
/// A factory may keep its resolver and use it later (`Lazy` and `Provider` keep the container
/// instead, which is what a resolver kept for later should do).
struct Resolution<Store: ComponentStore> {
    let store: Store
    let depth: Int
    /// Per top-level resolve: the graph scope's instances and, in exact mode, the path. `nil`
    /// in a fast resolve from a store without `.graph` registrations.
    let state: ResolutionState?

    /// How deep a fast resolve may nest factories before it is redone in exact mode.
    static var depthLimit: Int { 64 }

    /// Resolves the registration at `location` (verified to be `T`'s) for a top-level caller.
    static func resolve<T>(
        at location: Store.Location,
        as type: T.Type,
        in store: Store
    ) throws(FrostError) -> T {
        try topLevel(in: store) { resolution throws(FrostError) in
            try resolution.resolve(at: location, as: T.self)
        }
    }

    /// Runs a top-level resolve: fast first, redone in exact mode past the depth limit.
    static func topLevel<R>(
        in store: Store,
        _ body: (Resolution) throws(FrostError) -> R
    ) throws(FrostError) -> R {
        let state = store.hasGraphScope ? ResolutionState(exact: false) : nil
        do {
            return try body(Resolution(store: store, depth: 0, state: state))
        } catch  where error.code == .depthLimitReached {
            return try body(Resolution(store: store, depth: 0, state: ResolutionState(exact: true)))
        }
    }

    func resolve<T>(
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        let lookup = store.lookUp(ObjectIdentifier(T.self), name: name)
        guard lookup.found else {
            return try store.resolve(
                T.self, name: name, arguments: arguments, argumentType: argumentType)
        }
        return try resolve(
            at: store.location(of: lookup), as: T.self, arguments: arguments,
            argumentType: argumentType)
    }

    /// What factories receive for this resolution: the store's non-generic resolver.
    var resolver: any Resolver { store.resolver(for: self) }

    func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        try resolve(store.lookUp(ObjectIdentifier(T.self), name: name), T.self, name: name)
    }

    func resolve<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?
    ) throws(FrostError) -> T {
        guard lookup.found else {
            return try store.resolveUnregistered(T.self, name: name, path: true)
        }
        if let box = lookup.box {
            return Unmanaged<Box<T>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
        }
        return try resolve(at: store.location(of: lookup), as: T.self)
    }

    /// Resolves the registration at `location`, whose key is verified to be `T`'s.
    func resolve<T>(at location: Store.Location, as type: T.Type) throws(FrostError) -> T {
        if let box = store.cachedBox(at: location) {
            return unsafeDowncast(box, to: Box<T>.self).value
        }
        let component = store.component(at: location)
        return try enter(component) { inner throws(FrostError) in
            let typed = unsafeDowncast(component, to: TypedComponent<T>.self)
            if component.caches {
                let box = try store.createCached(at: location, in: inner)
                return unsafeDowncast(box, to: Box<T>.self).value
            }
            switch component.scope.kind {
            case .transient, .singleton:
                return try typed.make(inner.resolver)
            case .graph:
                return try inner.graphInstance(of: typed)
            case .weak:
                let object = try store.weakInstance(at: location, in: inner) {
                    () throws(FrostError) in
                    try typed.make(inner.resolver) as AnyObject
                }
                return try Self.cast(object, as: T.self, key: component.key)
            case .custom:
                let box = try inner.customInstance(of: typed)
                return unsafeDowncast(box, to: Box<T>.self).value
            }
        }
    }

    /// Resolves a registration that takes runtime arguments.
    func resolve<T>(
        at location: Store.Location,
        as type: T.Type,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        let component = store.component(at: location)
        return try enter(component) { inner throws(FrostError) in
            try unsafeDowncast(component, to: TypedComponent<T>.self)
                .make(inner.resolver, arguments: arguments, type: argumentType)
        }
    }

    /// Runs `body` one level deeper, for `component`: checks the depth (fast mode) or the path
    /// (exact mode), and adds `component` to the path of any error that unwinds through it.
    private func enter<T>(
        _ component: Component,
        _ body: (Resolution) throws(FrostError) -> T
    ) throws(FrostError) -> T {
        if let state, state.exact {
            if state.path.contains(where: { $0 === component }) {
                throw FrostError(
                    .cycle, key: component.key, path: [component.key], catalog: store.catalog)
            }
            state.path.append(component)
        } else if depth >= Self.depthLimit {
            throw FrostError(.depthLimitReached, key: component.key)
        }
        defer { if let state, state.exact { state.path.removeLast() } }
        do {
            return try body(Resolution(store: store, depth: depth + 1, state: state))
        } catch {
            throw error.code == .depthLimitReached ? error : error.prepending(component.key)
        }
    }

    /// Runs a component's factory, boxed: what a cached slot stores. Called by the store (for
    /// the frozen one, inside CFrost's create-once, under its creation lock).
    func makeBox(_ component: Component) throws(FrostError) -> AnyObject {
        try component.makeBox(resolver)
    }

    /// The `.graph` instance of `component` within this top-level resolve.
    private func graphInstance<T>(of component: TypedComponent<T>) throws(FrostError) -> T {
        guard let state else { return try component.make(resolver) }  // no .graph in the store
        let id = ObjectIdentifier(component)
        if let box = state.graph[id] {
            return unsafeDowncast(box, to: Box<T>.self).value
        }
        let instance = try component.make(resolver)
        state.graph[id] = Box(instance)
        return instance
    }

    /// The instance of `component` kept by its custom scope's storage.
    private func customInstance<T>(of component: TypedComponent<T>) throws(FrostError) -> AnyObject
    {
        guard let storage = component.scope.storage else {
            return Box(try component.make(resolver))
        }
        do {
            return try storage.instance(forKey: component.scopeKey) {
                Box(try component.make(resolver))
            }
        } catch let error as FrostError {
            throw error
        } catch {
            throw FrostError(.factoryFailed, key: component.key, underlying: error)
        }
    }

    /// `object` as a `T`: a `.weak` instance is kept as an object.
    private static func cast<T>(_ object: AnyObject, as type: T.Type, key: RegistrationKey)
        throws(FrostError) -> T
    {
        if let value = object as? T { return value }
        throw FrostError(
            .typeMismatch, key: key, detail: "the weakly kept instance is not a \(T.self)")
    }
}

/// A resolver that stands for a container during one resolve: what it resolves later
/// (`@LazyInjected`) must go to the container itself.
protocol ResolutionRoot {
    var root: any Resolver { get }
}

/// What one top-level resolve shares between its factories.
@usableFromInline
final class ResolutionState {
    /// Exact mode: track the path to name cycles.
    let exact: Bool
    /// The components being made, innermost last (exact mode only).
    var path: [Component] = []
    /// `.graph` instances, boxed, by component.
    var graph: [ObjectIdentifier: AnyObject] = [:]

    init(exact: Bool) {
        self.exact = exact
    }
}
