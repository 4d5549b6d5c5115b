/// Where a custom ``Scope`` keeps its instances.
///
/// Frost calls ``instance(forKey:make:)`` for each resolve of a registration in the scope and
/// ``removeAll()`` from `releaseCachedInstances()`. Frost holds no lock while it calls either,
/// and checks the type of what ``instance(forKey:make:)`` answers: an object that is not an
/// instance of the registration (a foreign object, another registration's instance) fails the
/// resolve with ``FrostError/Code/typeMismatch``. It cannot tell two instances of one
/// registration apart: keep instances apart by key.
///
/// Implementations must be thread-safe: a frozen container resolves from many threads.
/// ``LockedScopeStorage`` is a ready one.
public protocol ScopeStorage: AnyObject, Sendable {
    /// Returns the instance kept under `key`, or makes it with `make`, keeps it and returns it.
    ///
    /// - Parameters:
    ///   - key: One registration of one container: keep instances apart by it.
    ///   - make: Creates the instance (boxed); call it at most once per missing key. It runs
    ///     the registration's factory: holding a lock while calling it blocks every thread
    ///     that needs that lock until the factory returns.
    /// - Returns: The kept or new instance: exactly what `make` returned for this key.
    /// - Throws: What `make` throws.
    func instance(forKey key: ScopeKey, make: () throws -> AnyObject) throws -> AnyObject

    /// Forgets every kept instance; the next resolves create new ones.
    func removeAll()
}

/// The key a ``ScopeStorage`` keeps an instance under: one registration of one container.
///
/// Two containers that share a storage (a parent and its child, two containers frozen from one
/// `Container`) get different keys for their registrations, so each keeps its own instances.
public struct ScopeKey: Hashable, Sendable, CustomStringConvertible {
    let key: RegistrationKey
    /// The container whose registration this is (a process-wide unique number).
    public let container: UInt64

    init(registration key: RegistrationKey, container: UInt64) {
        self.key = key
        self.container = container
    }

    /// The registration's canonical key: `Module.Type`, or `Module.Type#name` for a named one
    /// (made when read).
    public var registration: String { key.canonicalName }

    /// The registration and its container, such as `MyApp.Cart in container 3`.
    public var description: String { "\(registration) in container \(container)" }
}
