/// Where a ``Resolution`` finds components and their cached instances: the dictionary of a
/// ``Container`` or the perfect-hash table of a ``FrozenContainer``.
protocol ComponentStore: AnyObject, Resolver {
    /// A found registration: an entry of the dictionary, a slot of the table.
    associatedtype Location

    /// Finds a registration without generics: its location (encoded) and cached box, or
    /// ``_ResolverLookup/unknown`` when nothing is registered here.
    func lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup

    /// The registration in `slot` (a frozen container's; others answer `.unknown`).
    func lookUp(slot: UInt32) -> _ResolverLookup

    /// The location a lookup encoded; only for a lookup that found something
    /// (`lookup.found`). Not optional: an `Optional<Location>` in unspecialized code costs a
    /// metadata lookup on every resolve.
    func location(of lookup: _ResolverLookup) -> Location

    /// The instance cached at `location`, boxed, or `nil`.
    func cachedBox(at location: Location) -> AnyObject?

    /// The component at `location`.
    func component(at location: Location) -> Component

    /// Creates and caches the instance at `location` once, returning the cached box.
    func createCached(
        at location: Location,
        in resolution: Resolution<Self>
    ) throws(FrostError) -> AnyObject

    /// The living instance of the `.weak` registration at `location`, or a new one from
    /// `make`, kept weakly.
    func weakInstance(
        at location: Location,
        in resolution: Resolution<Self>,
        make: () throws(FrostError) -> AnyObject
    ) throws(FrostError) -> AnyObject

    /// The non-generic resolver factories receive during `resolution`.
    func resolver(for resolution: Resolution<Self>) -> any Resolver

    /// Whether any registration has the `.graph` scope (top-level resolves then carry a
    /// graph cache).
    var hasGraphScope: Bool { get }

    /// The keys registered here, for near misses in error messages.
    var catalog: Catalog { get }

    /// Where keys not registered here are looked up next (a child container's parent).
    var fallback: FrozenContainer? { get }
}

extension ComponentStore {
    /// Resolves what `lookUp` answered: the slow path of every `resolve` (a miss, or an
    /// instance to create).
    func resolve<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?
    ) throws(FrostError) -> T {
        guard lookup.found else {
            return try resolveUnregistered(T.self, name: name, path: false)
        }
        if let box = lookup.box {
            return Unmanaged<Box<T>>.fromOpaque(box).takeUnretainedValue().value
        }
        return try Resolution.resolve(at: location(of: lookup), as: T.self, in: self)
    }

    /// Resolves a registration that takes runtime arguments (here, or in the fallback).
    func resolve<T>(
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        let lookup = lookUp(ObjectIdentifier(T.self), name: name)
        guard lookup.found else {
            if let fallback {
                return try fallback._resolve(
                    T.self, name: name, arguments: arguments, argumentType: argumentType)
            }
            throw FrostError(
                .notRegistered, key: RegistrationKey(T.self, name: name), catalog: catalog)
        }
        let location = location(of: lookup)
        return try Resolution.topLevel(in: self) { resolution throws(FrostError) in
            try resolution.resolve(
                at: location, as: T.self, arguments: arguments, argumentType: argumentType)
        }
    }

    /// A key with no registration here: a `Lazy` or `Provider` of a registered type, a key of
    /// the parent container, or an error naming what is close.
    func resolveUnregistered<T>(
        _ type: T.Type,
        name: String?,
        path: Bool
    ) throws(FrostError) -> T {
        if let deferred = T.self as? any _Deferred.Type {
            let key = RegistrationKey(deferred._wrappedType, name: name)
            if isRegistered(key) {
                // `self` resolves later: the container, not this resolve's resolver.
                return deferred._make(container: self, name: name) as! T
            }
            throw FrostError(.notRegistered, key: key, path: path ? [key] : [], catalog: catalog)
        }
        if let fallback {
            return try fallback.resolve(T.self, name: name)
        }
        let key = RegistrationKey(T.self, name: name)
        throw FrostError(.notRegistered, key: key, path: path ? [key] : [], catalog: catalog)
    }

    /// Whether `key` resolves here or in the fallback chain.
    func isRegistered(_ key: RegistrationKey) -> Bool {
        lookUp(ObjectIdentifier(key.type.type), name: key.name).found
            || (fallback?.isRegistered(key) ?? false)
    }
}
