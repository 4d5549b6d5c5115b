/// A dependency resolved on every call: resolve `Provider<T>` (or take it as an autowired
/// parameter) for any registered `T`.
///
/// Like ``Lazy``, a `Provider` breaks dependency cycles; unlike it, it resolves anew each time
/// (a new instance of a transient registration, the same one of a singleton). Called inside a
/// factory, it continues the resolve that runs the factory, so a cycle through it fails with
/// ``FrostError/Code/cycle`` instead of recursing.
///
/// ```swift
/// let make = try frozen.resolve(Provider<Logger>.self)
/// let logger = make()
/// ```
///
/// For a registration that takes runtime arguments, give them on each call
/// (`try provider.resolve(arguments: "Ann")`, `provider("Ann")`), or once, when resolving the
/// provider (`resolve(Provider<Greeting>.self, argument: "Ann")`), which keeps a copy.
///
/// A `Provider` does not keep its container alive (a singleton holding one would otherwise
/// keep its own container forever); resolving through it after the container is gone throws
/// ``FrostError/Code/containerGone``, and after the container's `dispose()`,
/// ``FrostError/Code/disposed``. A `Provider` made by a ``Container`` (not frozen) resolves
/// through it: use it on that container's thread.
public struct Provider<T>: @unchecked Sendable {
    // @unchecked: refers weakly to the container it resolves from (a frozen container is
    // Sendable; a Container is for one thread, and so is a Provider made by it).
    private let reference: WeakContainer
    private let name: String?
    private let arguments: CapturedArguments?

    /// Resolves the instance.
    ///
    /// Resolving fails when resolving `T` from the container fails (its factory throws, a
    /// cycle, the depth limit, a per-child key resolved outside a child, for instance), when
    /// the container has been disposed, or when it is gone; the call then stops the program
    /// with the error's message. Use ``resolve()`` to handle it.
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
    /// - Throws: ``FrostError`` when resolving fails: ``FrostError/Code/containerGone`` when the
    ///   container is gone, ``FrostError/Code/disposed`` after the container's `dispose()`,
    ///   ``FrostError/Code/cycle`` when the resolve depends on itself, or any other error of
    ///   resolving `T` (``FrostError/Code/factoryFailed`` when a factory on the path throws,
    ///   for instance).
    public func resolve() throws(FrostError) -> T {
        guard let container = reference.container else {
            throw FrostError.containerGone(T.self, name: name)
        }
        guard let arguments else { return try container.resolve(T.self, name: name) }
        return try arguments.withPointer { pointer throws(FrostError) in
            guard let space = container._space?.takeUnretainedValue() else {
                throw FrostError.takesNoArguments(
                    T.self, name: name, resolver: Swift.type(of: container))
            }
            return try space.resolve(
                T.self, name: name, arguments: pointer, argumentType: arguments.type)
        }
    }

    /// Resolves the instance of a registration that takes runtime arguments, with these.
    ///
    /// - Parameters:
    ///   - arguments: The arguments the factory takes, in order.
    /// - Returns: The instance.
    /// - Throws: ``FrostError`` when resolving fails, as ``resolve()`` does (the container
    ///   gone or disposed included); ``FrostError/Code/argumentMismatch`` when the registration
    ///   takes other arguments.
    public func resolve<each A>(arguments: repeat each A) throws(FrostError) -> T {
        guard let container = reference.container else {
            throw FrostError.containerGone(T.self, name: name)
        }
        return try container.resolve(T.self, name: name, arguments: repeat each arguments)
    }

    /// Resolves the instance of a registration that takes runtime arguments, with these; like
    /// ``callAsFunction()``, it stops the program if that fails (the container gone or
    /// disposed included). Use ``resolve(arguments:)`` to handle it.
    ///
    /// - Parameters:
    ///   - arguments: The arguments the factory takes, in order.
    /// - Returns: The instance.
    public func callAsFunction<each A>(_ arguments: repeat each A) -> T {
        do {
            return try resolve(arguments: repeat each arguments)
        } catch {
            preconditionFailure("Provider<\(T.self)>(…): \(error)")
        }
    }
}

extension Provider: DeferredResolving {
    @usableFromInline
    static var wrappedType: Any.Type { T.self }

    @usableFromInline
    static func make(
        container: any AnyObject & Resolver, name: String?, arguments: CapturedArguments?
    ) -> Provider<T> {
        Provider(reference: WeakContainer(container), name: name, arguments: arguments)
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
