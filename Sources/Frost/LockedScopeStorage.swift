import Foundation

/// A ready ``ScopeStorage``: a dictionary behind a recursive lock (a factory in the scope may
/// resolve other registrations of the same scope).
///
/// ```swift
/// let session = LockedScopeStorage()
/// container.register(Cart.self) { _ in Cart() }.scope(.custom(session))
/// // ... at logout:
/// session.removeAll()
/// ```
public final class LockedScopeStorage: ScopeStorage, @unchecked Sendable {
    // @unchecked: `instances` is only touched under `lock`. NSRecursiveLock, not Mutex: the
    // thread sanitizer on Linux cannot see Mutex, and factories re-enter.
    private let lock = NSRecursiveLock()
    private var instances: [String: AnyObject] = [:]

    /// Creates an empty storage.
    public init() {}

    /// Returns the instance kept under `key`, or makes, keeps and returns it.
    ///
    /// - Parameters:
    ///   - key: The registration's canonical key.
    ///   - make: Creates the instance when none is kept.
    /// - Returns: The kept or new instance.
    /// - Throws: What `make` throws (nothing is kept then).
    public func instance(forKey key: String, make: () throws -> AnyObject) throws -> AnyObject {
        lock.lock()
        defer { lock.unlock() }
        if let instance = instances[key] { return instance }
        let instance = try make()
        instances[key] = instance
        return instance
    }

    /// Forgets every kept instance.
    public func removeAll() {
        lock.lock()
        instances.removeAll()
        lock.unlock()
    }

    /// The number of kept instances.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return instances.count
    }
}
