/// The resolver a factory receives: the store it resolves from, and how deep the current
/// top-level resolve is.
///
/// A resolve that runs factories does so in one of two modes:
/// - **Fast** (first): no path is kept, only a depth. The resolver is three words, so passing
///   it as `any Resolver` allocates nothing. Errors collect their dependency path while they
///   unwind, so the path costs nothing unless something fails.
/// - **Exact** (only after the fast mode went deeper than `depthLimit`, which a cycle always
///   does): a ``PathRecorder`` holds the components being made; meeting one of them again is
///   a cycle, reported with exactly its members. A graph that is legitimately deeper than the
///   limit resolves in this mode too, just more slowly.
///
/// A factory may keep its resolver and use it later: it holds its store strongly and carries
/// nothing that dies with the resolve.
struct Resolution<Store: ComponentStore>: Resolver {
    let store: Store
    let depth: Int
    let recorder: PathRecorder?

    /// How deep a fast resolve may nest factories before it is redone in exact mode.
    static var depthLimit: Int { 64 }

    /// Resolves the registration at `location` (verified to be `T`'s) for a top-level caller.
    static func resolve<T>(
        at location: Store.Location,
        as type: T.Type,
        in store: Store
    ) throws(FrostError) -> T {
        do {
            return try Resolution(store: store, depth: 0, recorder: nil).resolve(
                at: location, as: T.self)
        } catch  where error.code == .depthLimitReached {
            let exact = Resolution(store: store, depth: 0, recorder: PathRecorder())
            return try exact.resolve(at: location, as: T.self)
        }
    }

    func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        try _resolve(_lookUp(ObjectIdentifier(T.self), name: name), T.self, name: name)
    }

    func _lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        store.lookUp(type, name: name)
    }

    func _resolve<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?
    ) throws(FrostError) -> T {
        guard let location = store.location(of: lookup) else {
            let key = RegistrationKey(T.self, name: name)
            throw FrostError(.notRegistered, key: key, path: [key], catalog: store.catalog)
        }
        return try resolve(at: location, as: T.self)
    }

    /// Resolves the registration at `location`, whose key is verified to be `T`'s.
    func resolve<T>(at location: Store.Location, as type: T.Type) throws(FrostError) -> T {
        if let box = store.cachedBox(at: location) {
            return unsafeDowncast(box, to: Box<T>.self).value
        }
        let component = store.component(at: location)
        if let recorder {
            if recorder.contains(component) {
                throw FrostError(
                    .cycle, key: component.key, path: [component.key], catalog: store.catalog)
            }
            recorder.push(component)
        } else if depth >= Self.depthLimit {
            throw FrostError(.depthLimitReached, key: component.key)
        }
        defer { recorder?.pop() }
        let inner = Resolution(store: store, depth: depth + 1, recorder: recorder)
        do {
            if component.caches {
                let box = try store.createCached(at: location, in: inner)
                return unsafeDowncast(box, to: Box<T>.self).value
            }
            return try unsafeDowncast(component, to: TypedComponent<T>.self).make(inner)
        } catch {
            throw error.code == .depthLimitReached ? error : error.prepending(component.key)
        }
    }

    /// Runs a component's factory, boxed: what a cached slot stores. Called by the store (for
    /// the frozen one, inside CFrost's create-once, under its creation lock).
    func makeBox(_ component: Component) throws(FrostError) -> AnyObject {
        try component.makeBox(self)
    }
}

/// The components an exact-mode resolve is making, innermost last.
final class PathRecorder {
    private var components: [Component] = []

    func contains(_ component: Component) -> Bool {
        components.contains { $0 === component }
    }

    func push(_ component: Component) {
        components.append(component)
    }

    func pop() {
        components.removeLast()
    }
}
