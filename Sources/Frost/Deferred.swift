/// Implementation detail of ``Lazy`` and ``Provider``: a type a container makes for any
/// registered `Wrapped`, without registering it. Do not conform your own types.
public protocol _Deferred {
    /// The type resolved later.
    static var _wrappedType: Any.Type { get }

    /// Makes the deferred resolver for `name` over `container`, which it does not keep alive.
    ///
    /// - Parameters:
    ///   - container: The container that resolves `_wrappedType` later.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The deferred value.
    static func _make(container: any AnyObject & Resolver, name: String?) -> Self
}
