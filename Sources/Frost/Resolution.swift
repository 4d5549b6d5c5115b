/// One top-level resolve that has to run factories: the resolver factories receive.
///
/// It records the dependency path, so that a component that depends on itself (directly or
/// through others) is reported as a cycle naming every member instead of recursing until the
/// stack overflows, and so that errors name the path that led to them. A resolve that finds a
/// cached instance never creates one. Not `Sendable`: a factory uses its resolver on its own
/// thread, during its own call.
final class Resolution<Store: ComponentStore>: Resolver {
    let store: Store
    private(set) var path: [Component] = []

    init(store: Store) {
        self.store = store
    }

    func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        let key = RegistrationKey(T.self, name: name)
        guard let location = store.locate(key) else {
            throw FrostError(
                .notRegistered,
                key: key,
                path: path.map(\.key) + [key],
                catalog: store.catalog
            )
        }
        return try resolve(at: location, as: T.self)
    }

    /// Resolves the registration at `location`, whose key is verified to be `T`'s.
    func resolve<T>(at location: Store.Location, as type: T.Type) throws(FrostError) -> T {
        if let box = store.cachedBox(at: location) {
            return unsafeDowncast(box, to: Box<T>.self).value
        }
        let component = store.component(at: location)
        if path.contains(where: { $0 === component }) {
            let members = path.map(\.key) + [component.key]
            throw FrostError(.cycle, key: component.key, path: members, catalog: store.catalog)
        }
        path.append(component)
        defer { path.removeLast() }
        if component.caches {
            let box = try store.createCached(at: location, in: self)
            return unsafeDowncast(box, to: Box<T>.self).value
        }
        return try unsafeDowncast(component, to: TypedComponent<T>.self)
            .make(self, path: { path.map(\.key) })
    }

    /// Runs the factory of the component at the top of the path, boxed: what a cached slot
    /// stores. Called by the store while it holds its creation lock.
    func makeBox(_ component: Component) throws(FrostError) -> AnyObject {
        try component.makeBox(self, path: { path.map(\.key) })
    }
}
