/// Where a ``Resolution`` finds components and their cached instances: the dictionary of a
/// ``Container`` or the perfect-hash table of a ``FrozenContainer``.
protocol ComponentStore: AnyObject {
    /// A found registration: an entry of the dictionary, a slot of the table.
    associatedtype Location

    /// The registration for `key`, or `nil`.
    func locate(_ key: RegistrationKey) -> Location?

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
