/// A dependency resolved on every call: resolve `Provider<T>` (or take it as an autowired
/// parameter) for any registered `T`.
///
/// Like ``Lazy``, a `Provider` breaks dependency cycles; unlike it, it resolves anew each time
/// (a new instance of a transient registration, the same one of a singleton).
///
/// ```swift
/// let make = try frozen.resolve(Provider<Logger>.self)
/// let logger = make()
/// ```
public struct Provider<T>: _Deferred, @unchecked Sendable {
    // @unchecked: holds the container it resolves from, which is immutable (a frozen
    // container is Sendable; a Container is for one thread, and so is a Provider made by it).
    private let resolver: any Resolver
    private let name: String?

    /// Resolves the instance.
    ///
    /// Resolving can fail only if the registration's factory throws or is part of a cycle;
    /// the call then stops the program with the error's message. Use ``resolve()`` to handle it.
    ///
    /// - Returns: The instance.
    public func callAsFunction() -> T {
        do {
            return try resolve()
        } catch {
            preconditionFailure("Provider<\(T.self)>(): \(error)")
        }
    }

    /// Resolves the instance.
    ///
    /// - Returns: The instance.
    /// - Throws: ``FrostError`` when resolving fails.
    public func resolve() throws(FrostError) -> T {
        try resolver.resolve(T.self, name: name)
    }

    /// The wrapped type, `T`.
    public static var _wrappedType: Any.Type { T.self }

    /// Makes a `Provider` over the container `resolver`.
    ///
    /// - Parameters:
    ///   - resolver: The container that resolves `T` on every call.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The `Provider`.
    public static func _make(resolver: any Resolver, name: String?) -> Provider<T> {
        Provider(resolver: resolver, name: name)
    }
}
