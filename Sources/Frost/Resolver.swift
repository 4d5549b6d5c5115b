/// Something that resolves registered components: a ``Container``, a ``FrozenContainer``, and
/// the resolver a factory receives.
///
/// A factory must use the resolver it receives (not the container it was registered in) so that
/// Frost can follow the dependency path, detect cycles and name the path in errors.
///
/// To conform your own type, implement ``resolve(_:name:)``; the underscored requirements have
/// default implementations and exist only to make Frost's own resolvers fast.
public protocol Resolver {
    /// Resolves the component registered for `type` under `name`.
    ///
    /// - Parameters:
    ///   - type: The type to resolve, as it was registered (a concrete type or a protocol).
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError`` when nothing is registered for `type` and `name`, when the
    ///   resolve runs into a dependency cycle, or when a factory on the path throws.
    func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T

    /// Implementation detail of ``resolve(_:)``: finds a registration without generics, so
    /// that the caller's specialized code can read a cached instance directly. Do not call.
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

    /// Implementation detail of ``resolve(_:)``: resolves what ``_lookUp(_:name:)`` found
    /// without a cached instance (or did not find). Do not call.
    ///
    /// - Parameters:
    ///   - lookup: The answer of ``_lookUp(_:name:)`` for `type` and `name`.
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance.
    /// - Throws: ``FrostError``, as ``resolve(_:name:)`` does.
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
}

/// Implementation detail of ``Resolver``: where a registration was found, and the box of its
/// cached instance, if any. Only Frost's resolvers create or read it.
public struct _ResolverLookup {
    /// The registration's location, meaningful only to the resolver that answered.
    @usableFromInline let location: UInt
    /// The `Box<T>` holding the cached instance, kept alive by the resolver's container.
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
    /// Resolves the unnamed registration of `type`.
    ///
    /// Inlined into the caller, so that reading a cached instance is specialized for `T` even
    /// through `any Resolver`: one non-generic lookup, then a read of the cached box.
    ///
    /// - Parameters:
    ///   - type: The type to resolve, as it was registered.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError`` when `type` is not registered, on a cycle, or when a factory
    ///   on the path throws.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self) throws(FrostError) -> T {
        let lookup = _lookUp(ObjectIdentifier(T.self), name: nil)
        if let box = lookup.box {
            return Unmanaged<Box<T>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
        }
        return try _resolve(lookup, T.self, name: nil)
    }

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

    /// The default: this resolver takes no runtime arguments.
    ///
    /// - Parameters:
    ///   - type: The type requested.
    ///   - name: The registration's name, or `nil`.
    ///   - arguments: Ignored.
    ///   - argumentType: The arguments' type, for the message.
    /// - Returns: Never.
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
            detail: "\(Self.self) does not resolve with runtime arguments"
        )
    }

    /// The default: resolves through ``resolve(_:name:)``.
    ///
    /// - Parameters:
    ///   - lookup: Ignored.
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance.
    /// - Throws: ``FrostError``, as ``resolve(_:name:)`` does.
    public func _resolve<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?
    ) throws(FrostError) -> T {
        try resolve(type, name: name)
    }
}
