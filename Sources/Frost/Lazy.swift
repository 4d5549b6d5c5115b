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
///
/// A `Lazy` does not keep its container alive (a singleton holding one would otherwise keep
/// its own container forever); resolving through it after the container is gone throws
/// ``FrostError/Code/containerGone``.
public final class Lazy<T>: _Deferred, @unchecked Sendable {
    // @unchecked: `resolved` is only touched under `lock` (NSLock: visible to the thread
    // sanitizer); `container` is only assigned in init (weak loads are thread-safe).
    private weak var container: (any AnyObject & Resolver)?
    private let name: String?
    private let lock = NSLock()
    private var resolved: T?

    init(container: any AnyObject & Resolver, name: String?) {
        self.container = container
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
        guard let container else { throw FrostError.containerGone(T.self, name: name) }
        let instance = try container.resolve(T.self, name: name)
        resolved = instance
        return instance
    }

    /// The wrapped type, `T`.
    public static var _wrappedType: Any.Type { T.self }

    /// Makes a `Lazy` over `container`.
    ///
    /// - Parameters:
    ///   - container: The container that resolves `T` on first use.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The `Lazy`.
    public static func _make(container: any AnyObject & Resolver, name: String?) -> Lazy<T> {
        Lazy(container: container, name: name)
    }
}
