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
///
/// A `Provider` does not keep its container alive (a singleton holding one would otherwise
/// keep its own container forever); resolving through it after the container is gone throws
/// ``FrostError/Code/containerGone``.
public struct Provider<T>: _Deferred, @unchecked Sendable {
    // @unchecked: refers weakly to the container it resolves from (a frozen container is
    // Sendable; a Container is for one thread, and so is a Provider made by it).
    private let reference: WeakContainer
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
        guard let container = reference.container else {
            throw FrostError.containerGone(T.self, name: name)
        }
        return try container.resolve(T.self, name: name)
    }

    /// The wrapped type, `T`.
    public static var _wrappedType: Any.Type { T.self }

    /// Makes a `Provider` over `container`.
    ///
    /// - Parameters:
    ///   - container: The container that resolves `T` on every call.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The `Provider`.
    public static func _make(container: any AnyObject & Resolver, name: String?) -> Provider<T> {
        Provider(reference: WeakContainer(container), name: name)
    }
}

/// A weak reference to the container a deferred resolver uses.
final class WeakContainer: @unchecked Sendable {
    // @unchecked: assigned once in init; weak loads are thread-safe.
    weak var container: (any AnyObject & Resolver)?

    init(_ container: any AnyObject & Resolver) {
        self.container = container
    }
}
