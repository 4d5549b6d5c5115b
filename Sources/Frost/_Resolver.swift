/// Implementation detail of ``Resolver``: the hooks that Frost's inlined code calls on a
/// resolver. Do not use them, and do not conform to this protocol directly: conform to
/// ``Resolver``, which gives these requirements default implementations.
///
/// They exist so that `resolve` can be inlined into your code, specialized for the type you
/// resolve, while the lookup stays non-generic and inside Frost.
public protocol _Resolver {
    /// Implementation detail of `resolve`: finds a registration without generics, so that the
    /// caller's specialized code can read a cached instance directly. Do not call.
    ///
    /// - Parameters:
    ///   - type: The identity of the requested type.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: Where the registration is, and its cached instance if it has one.
    func _lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup

    /// Implementation detail of autowiring: the registration in a slot that `freeze()` bound
    /// a parameter to, and its cached instance. Do not call.
    ///
    /// - Parameters:
    ///   - slot: The slot.
    /// - Returns: The slot and its cached box, or ``_ResolverLookup/unknown``.
    func _lookUp(slot: UInt32) -> _ResolverLookup

    /// Implementation detail of `resolve`: resolves what ``_lookUp(_:name:)`` found without a
    /// cached instance (or did not find). Do not call.
    ///
    /// - Parameters:
    ///   - lookup: The answer of ``_lookUp(_:name:)`` for `type` and `name`.
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance.
    /// - Throws: ``FrostError``, as `resolve(_:name:)` does.
    func _resolve<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?
    ) throws(FrostError) -> T

    /// Implementation detail of `resolve(_:name:arguments:)`. Do not call.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    ///   - arguments: Points to a tuple of type `argumentType`, valid during the call.
    ///   - argumentType: The tuple's type.
    /// - Returns: A new instance.
    /// - Throws: ``FrostError``.
    func _resolve<T>(
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T

    /// Implementation detail of the awaited `resolve`: resolves what ``_lookUp(_:name:)``
    /// found without a cached instance (or did not find), awaiting async factories. Do not
    /// call.
    ///
    /// - Parameters:
    ///   - lookup: The answer of ``_lookUp(_:name:)`` for `type` and `name`.
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance.
    /// - Throws: ``FrostError``, as the awaited `resolve(_:name:)` does.
    nonisolated(nonsending)
        func _resolveAsync<T>(
            _ lookup: _ResolverLookup,
            _ type: T.Type,
            name: String?
        ) async throws(FrostError) -> T
}

/// Implementation detail of ``_Resolver``: where a registration was found, and the box of its
/// cached instance, if any. Only Frost's resolvers create or read it.
public struct _ResolverLookup {
    /// The registration's location, meaningful only to the resolver that answered.
    @usableFromInline let location: UInt
    /// The `Box<T>` holding the cached instance (a protected read: copy its value before
    /// reading another), kept alive by the resolver's container.
    @usableFromInline let box: UnsafeMutableRawPointer?

    @usableFromInline
    init(location: UInt, box: UnsafeMutableRawPointer?) {
        self.location = location
        self.box = box
    }

    /// Whether a registration was found.
    @usableFromInline var found: Bool { location != .max }

    /// Nothing found yet: the slow path decides.
    @usableFromInline static var unknown: _ResolverLookup {
        _ResolverLookup(location: .max, box: nil)
    }
}

extension Resolver {
    /// The default: no fast path; ``_resolve(_:_:name:)`` does the work.
    ///
    /// - Parameters:
    ///   - type: The identity of the requested type.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: ``_ResolverLookup/unknown``.
    public func _lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        .unknown
    }

    /// The default: slots mean nothing to this resolver.
    ///
    /// - Parameters:
    ///   - slot: Ignored.
    /// - Returns: ``_ResolverLookup/unknown``.
    public func _lookUp(slot: UInt32) -> _ResolverLookup {
        .unknown
    }

    /// The default: resolves through ``Resolver/resolve(_:name:)``.
    ///
    /// - Parameters:
    ///   - lookup: Ignored.
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance.
    /// - Throws: ``FrostError``, as `resolve(_:name:)` does.
    public func _resolve<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?
    ) throws(FrostError) -> T {
        try resolve(type, name: name)
    }

    /// Implementation detail of the awaited `resolve`; by default, the synchronous resolve. Do
    /// not call.
    ///
    /// - Parameters:
    ///   - lookup: The answer of ``_lookUp(_:name:)`` for `type` and `name`.
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance.
    /// - Throws: ``FrostError``, as `resolve(_:name:)` does.
    nonisolated(nonsending)
        public func _resolveAsync<T>(
            _ lookup: _ResolverLookup,
            _ type: T.Type,
            name: String?
        ) async throws(FrostError) -> T
    {
        try _resolve(lookup, T.self, name: name)
    }

    /// The default: this resolver takes no runtime arguments.
    ///
    /// - Parameters:
    ///   - type: The type requested.
    ///   - name: The registration's name, or `nil`.
    ///   - arguments: Ignored.
    ///   - argumentType: The arguments' type, for the message.
    /// - Returns: Never returns.
    /// - Throws: ``FrostError`` with ``FrostError/Code/argumentMismatch``.
    public func _resolve<T>(
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        throw FrostError(
            .argumentMismatch,
            key: RegistrationKey(T.self, name: name),
            detail: "this resolver (\(Swift.type(of: self))) does not take runtime arguments"
        )
    }
}
