/// What a container answers for a key it has no registration for: a `Lazy` or `Provider` of a
/// registered type (made on the spot, never registered), or an error naming the key, the path
/// that needed it and what is registered nearby.
extension EngineHost {
    /// A `Lazy<Wrapped>` or `Provider<Wrapped>` over this container when `type` is one and
    /// `Wrapped` (under `name`) is registered; `nil` when `type` is neither. (Not generic: an
    /// `Optional<T>` would make the runtime look up its metadata on every miss.)
    ///
    /// - Throws: `.notRegistered` for a `Lazy` or `Provider` of a type nothing registers.
    func makeDeferred(_ type: Any.Type, name: String?) throws(FrostError) -> Any? {
        guard let deferred = type as? any DeferredResolving.Type else { return nil }
        let key = RegistrationKey(deferred.wrappedType, name: name)
        guard contains(key) else { throw notRegistered(key) }
        // The container resolves it later, not the resolve that asks for it now.
        return deferred.make(container: self, name: name)
    }

    /// The error of resolving `key`, which is not registered: with the path that needed it
    /// when a resolve is creating something, and the registrations close to it.
    func notRegistered(_ key: RegistrationKey) -> FrostError {
        let context = ResolveContext.current
        let path = context.depth > 0 ? context.pathKeys + [key] : []
        return FrostError(.notRegistered, key: key, path: path, catalog: catalog)
    }
}

/// `Lazy` and `Provider`: types a container makes for any registered `Wrapped`, without
/// registering them.
protocol DeferredResolving {
    /// The type resolved later.
    static var wrappedType: Any.Type { get }

    /// Makes the deferred resolver for `name` over `container`, which it does not keep alive.
    static func make(container: any AnyObject & Resolver, name: String?) -> Self
}
