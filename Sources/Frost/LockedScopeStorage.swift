import Foundation

/// A ready ``ScopeStorage``: a dictionary of instances by ``ScopeKey``, thread-safe.
///
/// ```swift
/// let session = LockedScopeStorage()
/// container.register(Cart.self) { _ in Cart() }.scope(.custom(session))
/// // ... at logout:
/// session.removeAll()
/// ```
///
/// Its lock guards the dictionary only: a factory runs without it, so factories may wait for
/// other threads that resolve in the same scope. Only a resolve of the same key waits for its
/// creation in progress (and fails with ``FrostError/Code/cycle`` if that wait would close a
/// circle of threads waiting for each other).
public final class LockedScopeStorage: ScopeStorage, @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock` (NSLock, not Mutex: the thread
    // sanitizer on Linux cannot see Mutex). An entry's instance is created once through its
    // cell, outside the lock.
    private let lock = NSLock()
    private var entries: [ScopeKey: Entry] = [:]

    /// One key's instance: a cell, created once.
    private final class Entry {
        let cell = Cell.allocate()

        deinit { cell.deallocate() }
    }

    /// Creates an empty storage.
    public init() {}

    /// Returns the instance kept under `key`, or makes, keeps and returns it.
    ///
    /// - Parameters:
    ///   - key: The registration and container the instance belongs to.
    ///   - make: Creates the instance when none is kept; runs without the storage's lock.
    /// - Returns: The kept or new instance.
    /// - Throws: What `make` throws (nothing is kept then), or ``FrostError`` with
    ///   ``FrostError/Code/cycle`` when waiting for another thread's creation of the same key
    ///   would close a circle of waits.
    public func instance(forKey key: ScopeKey, make: () throws -> AnyObject) throws -> AnyObject {
        let entry = lock.withLock {
            if let known = entries[key] { return known }
            let entry = Entry()
            entries[key] = entry
            return entry
        }
        // `entry` is held until the instance is retained: its cell (and the instance it
        // keeps) outlives a concurrent removeAll().
        return try withExtendedLifetime(entry) { () throws -> AnyObject in
            let context = ResolveContext.current
            let box = try Creation.once(
                in: entry.cell, for: context, make: make,
                waitCloses: {
                    FrostError(
                        .cycle, key: key.key, path: context.pathKeys + [key.key],
                        detail: "another thread is creating it in a LockedScopeStorage and "
                            + "waits, through other registrations, for what this thread is "
                            + "creating")
                })
            // This thread is making this key's instance and asks again: `make` reports it.
            guard let box else { return try make() }
            return Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue()
        }
    }

    /// Forgets every kept instance.
    public func removeAll() {
        let removed = lock.withLock {
            defer { entries = [:] }
            return entries
        }
        withExtendedLifetime(removed) {}  // released here, outside the lock: deinits may run
    }

    /// The number of kept instances.
    public var count: Int {
        lock.withLock { entries.values.count { $0.cell.peek() != nil } }
    }
}
