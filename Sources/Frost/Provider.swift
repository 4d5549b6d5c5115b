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
    /// What it resolves, and through which container.
    @usableFromInline let target: DeferredTarget

    @usableFromInline
    init(target: DeferredTarget) {
        self.target = target
    }

    /// Resolves the instance.
    ///
    /// Resolving fails when resolving `T` from the container fails (its factory throws, a
    /// cycle, the depth limit, a per-child key resolved outside a child, for instance), when
    /// the container has been disposed, or when it is gone; the call then stops the program
    /// with the error's message. Use ``resolve()`` to handle it.
    ///
    /// - Returns: The instance.
    @inlinable
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
    @inlinable
    public func resolve() throws(FrostError) -> T {
        // Inlined into the caller, specialized for `T`: a frozen container resolves the slot
        // found when this Provider was made, without hashing.
        try target.resolve(T.self)
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
        guard let container = target.reference.resolver else {
            throw FrostError.containerGone(T.self, name: target.name)
        }
        return try container.resolve(T.self, name: target.name, arguments: repeat each arguments)
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

    @inlinable
    static func make(target: DeferredTarget) -> Provider<T> {
        Provider(target: target)
    }
}

extension Resolver {
    /// Resolves a ``Provider`` of the unnamed registration of `T`: each call resolves `T`.
    ///
    /// What `resolve(Provider<T>.self, name: nil)` gives, by code specialized in the caller: it
    /// finds `T`'s registration once, now, without first looking for a registration of
    /// `Provider<T>` itself (a container that has one resolves it instead, as that form does).
    ///
    /// - Parameters:
    ///   - type: `Provider<T>.self`.
    /// - Returns: A new `Provider`, or the registered one.
    /// - Throws: ``FrostError`` with ``FrostError/Code/notRegistered`` when nothing registers
    ///   `T`, ``FrostError/Code/disposed`` after the container's `dispose()`; or the errors of
    ///   resolving a registration of `Provider<T>` itself.
    @inlinable
    public func resolve<T>(_ type: Provider<T>.Type) throws(FrostError) -> Provider<T> {
        try resolveSpelledOut(Provider<T>.self)
    }

    /// Resolves a ``Provider`` of the unnamed registration of `T` in async code: the same as
    /// the synchronous form (making a `Provider` awaits nothing; each call resolves `T`).
    ///
    /// - Parameters:
    ///   - type: `Provider<T>.self`.
    /// - Returns: A new `Provider`, or the registered one.
    /// - Throws: ``FrostError``, as the synchronous form does.
    @inlinable
    nonisolated(nonsending)
        public func resolve<T>(_ type: Provider<T>.Type) async throws(FrostError) -> Provider<T>
    {
        try await resolveSpelledOutAwaiting(Provider<T>.self)
    }
}
