/// Where a ``Resolution`` finds components and their cached instances: the dictionary of a
/// ``Container`` or the perfect-hash table of a ``FrozenContainer``.
protocol ComponentStore: AnyObject {
    /// A found registration: an entry of the dictionary, a slot of the table.
    associatedtype Location

    /// Finds a registration without generics: its location (encoded) and cached box, or
    /// ``_ResolverLookup/unknown`` when nothing is registered.
    func lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup

    /// The location a lookup encoded, or `nil` when it found nothing.
    func location(of lookup: _ResolverLookup) -> Location?

    /// The instance cached at `location`, boxed, or `nil`.
    func cachedBox(at location: Location) -> AnyObject?

    /// The component at `location`.
    func component(at location: Location) -> Component

    /// Creates and caches the instance at `location` once, returning the cached box.
    func createCached(
        at location: Location,
        in resolution: Resolution<Self>
    ) throws(FrostError) -> AnyObject

    /// The keys registered here, for near misses in error messages.
    var catalog: Catalog { get }
}

extension ComponentStore {
    /// Resolves what `lookUp` answered: the slow path of every `resolve` (a miss, or an
    /// instance to create).
    func resolve<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?
    ) throws(FrostError) -> T {
        guard let location = location(of: lookup) else {
            throw FrostError(
                .notRegistered, key: RegistrationKey(T.self, name: name), catalog: catalog)
        }
        if let box = lookup.box {
            return Unmanaged<Box<T>>.fromOpaque(box).takeUnretainedValue().value
        }
        return try Resolution.resolve(at: location, as: T.self, in: self)
    }
}
