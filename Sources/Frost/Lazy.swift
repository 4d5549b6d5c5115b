import Foundation

/// A dependency resolved once, on first use: resolve `Lazy<T>` (or take it as an autowired
/// parameter) for any registered `T`.
///
/// `Lazy` breaks dependency cycles — `A` may depend on `Lazy<B>` while `B` depends on `A` —
/// and postpones expensive construction until it is needed.
///
/// ```swift
/// let lazy = try frozen.resolve(Lazy<Logger>.self)
/// lazy.value.log("resolved now, once")
/// ```
///
/// Thread-safe: the first access from any thread resolves, the others wait for it.
public final class Lazy<T>: _Deferred, @unchecked Sendable {
    // @unchecked: `resolved` is only touched under `lock` (NSLock: visible to the thread
    // sanitizer); `resolver` is the container, immutable.
    private let resolver: any Resolver
    private let name: String?
    private let lock = NSLock()
    private var resolved: T?

    init(resolver: any Resolver, name: String?) {
        self.resolver = resolver
        self.name = name
    }

    /// The instance, resolved on the first access and kept.
    ///
    /// Resolving can fail only if the registration's factory throws or is part of a cycle;
    /// `value` then stops the program with the error's message. Use ``get()`` to handle it.
    public var value: T {
        do {
            return try get()
        } catch {
            preconditionFailure("Lazy<\(T.self)>.value: \(error)")
        }
    }

    /// The instance, resolved on the first call and kept.
    ///
    /// - Returns: The instance.
    /// - Throws: ``FrostError`` when resolving fails; the next call tries again.
    public func get() throws(FrostError) -> T {
        lock.lock()
        defer { lock.unlock() }
        if let resolved { return resolved }
        let instance = try resolver.resolve(T.self, name: name)
        resolved = instance
        return instance
    }

    /// The wrapped type, `T`.
    public static var _wrappedType: Any.Type { T.self }

    /// Makes a `Lazy` over the container `resolver`.
    ///
    /// - Parameters:
    ///   - resolver: The container that resolves `T` on first use.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The `Lazy`.
    public static func _make(resolver: any Resolver, name: String?) -> Lazy<T> {
        Lazy(resolver: resolver, name: name)
    }
}
