/// What a container answers for a key it has no registration for: a `Lazy` or `Provider` of a
/// registered type (made on the spot, never registered), an `Optional` of one (the instance,
/// or `nil` when nothing registers it), or an error naming the key, the path that needed it
/// and what is registered nearby.
extension _Space {
    /// A key with no registration here, by code specialized for `T` (not inlined): for a
    /// `Lazy` or `Provider`, whose conformance to ``DeferredResolving`` the compiler then
    /// knows, without the cast the general path makes.
    @inlinable
    @inline(never)
    final func resolveMiss<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        if TypeKind.mayBeFrostType(T.self), let deferred = T.self as? any DeferredResolving.Type {
            return try resolveDeferred(deferred, as: T.self, name: name)
        }
        return try resolveUnregistered(T.self, name: name)
    }

    /// ``resolveMiss(_:name:)`` for an awaited resolve: an `Optional` of a registered type
    /// resolves that type with `await` (an async singleton not made yet is made, as an
    /// awaited resolve of the type itself makes it); any other miss is answered as a
    /// synchronous resolve answers it.
    nonisolated(nonsending)
        final func resolveMissAwaiting<T>(_ type: T.Type, name: String?)
        async throws(FrostError) -> T
    {
        guard !isDisposed, let optional = optional(T.self, name: name), optional.isRegistered
        else { return try resolveMiss(T.self, name: name) }
        return try await optional.type.resolveWrappedAwaiting(from: resolver, name: name) as! T
    }

    /// `type` as an `Optional`, and whether this container registers its wrapped type under
    /// `name`; `nil` when `type` is not an `Optional`.
    private final func optional(_ type: Any.Type, name: String?)
        -> (type: any OptionalResolving.Type, isRegistered: Bool)?
    {
        // One read of the metadata rules most types out before a cast to a protocol, which
        // costs a miss about a third of its instructions.
        guard TypeKind.isOptional(type), let optional = type as? any OptionalResolving.Type
        else { return nil }
        return (optional, contains(RegistrationKey(optional.wrappedType, name: name)))
    }

    /// A `Lazy` or `Provider` over this container (`deferred`, not registered here), as
    /// ``resolveUnregistered(_:name:)`` makes it. `D` is `T`, opened from `T.self`: the code
    /// specialized for `T` makes it directly and casts nothing.
    @inlinable
    final func resolveDeferred<D: DeferredResolving, T>(
        _ deferred: D.Type, as type: T.Type, name: String?
    ) throws(FrostError) -> T {
        // The same type (see above): a reinterpretation, not a conversion.
        unsafeBitCast(try deferredResolver(D.self, name: name), to: T.self)
    }

    /// A new `Lazy` or `Provider` (`deferred`) of its wrapped type under `name` in this
    /// container, holding the wrapped key's chain slot; or what resolving it here fails with
    /// (``admitDeferred(_:name:)``).
    @inlinable
    final func deferredResolver<D: DeferredResolving>(_ deferred: D.Type, name: String?)
        throws(FrostError) -> D
    {
        let slot = try admitDeferred(D.self, name: name)
        return D.make(
            target: DeferredTarget(reference: reference, slot: slot, name: name, arguments: nil))
    }

    /// What `resolve(Lazy<T>.self)` and `resolve(Provider<T>.self)` (unnamed, awaited or not)
    /// make, by code specialized in the caller: the wrapper of `T`'s slot, found without first
    /// looking up the wrapper's own key, as the general path makes it on a miss
    /// (``resolveDeferred(_:as:name:)``). `nil` when a container of this chain registers a
    /// `Lazy` or `Provider` type itself (``registersDeferredTypes``): the wrapper's key may
    /// then be registered, and the general resolve, which looks it up first, answers.
    @inlinable
    static func unregisteredDeferred<D: DeferredResolving>(
        _ deferred: D.Type, in space: Unmanaged<_Space>
    ) throws(FrostError) -> D? {
        let made = space._withUnsafeGuaranteedRef { space in
            Result { () throws(FrostError) -> D? in
                space.registersDeferredTypes ? nil : try space.deferredResolver(D.self, name: nil)
            }
        }
        return try made.get()
    }

    /// Throws what resolving `deferred` here fails with: `.disposed` after `dispose()`,
    /// `.notRegistered` when nothing registers its wrapped type under `name`. Returns the
    /// wrapped key's chain slot.
    @usableFromInline
    final func admitDeferred(_ deferred: any DeferredResolving.Type, name: String?)
        throws(FrostError) -> UInt32
    {
        if isDisposed { throw FrostError(.disposed, key: RegistrationKey(deferred, name: name)) }
        return try wrappedSlot(of: deferred, name: name)
    }

    /// The weak reference to this container that its `Lazy`s and `Provider`s share, made on
    /// first use.
    @usableFromInline
    final var reference: ContainerReference {
        referenceStorage.get {
            ContainerReference(
                container ?? unsafeDowncast(self, to: FrozenContainer.self),
                isFrozen: container == nil)
        }
    }

    /// A key with no registration here: a `Lazy`, `Provider` or `Optional` of a registered
    /// type, or an error naming what is close.
    @usableFromInline
    final func resolveUnregistered<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        if isDisposed {
            throw FrostError(.disposed, key: RegistrationKey(T.self, name: name))
        }
        if let made = try makeUnregistered(T.self, name: name) { return made as! T }
        throw notRegistered(RegistrationKey(T.self, name: name))
    }

    /// A key with runtime arguments and no registration here: a `Lazy` or `Provider` that
    /// keeps the arguments, or an error.
    final func resolveUnregistered<T>(
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        if isDisposed {
            throw FrostError(.disposed, key: RegistrationKey(T.self, name: name))
        }
        let captured = CapturedArguments(pointer: arguments, type: argumentType)
        if let made = try makeDeferred(T.self, name: name, arguments: captured) {
            return made as! T
        }
        throw notRegistered(RegistrationKey(T.self, name: name))
    }

    /// What `type` (not registered here) resolves to when it is a `Lazy`, `Provider` or
    /// `Optional` of a registered type; `nil` when it is none of them. (Not generic: an
    /// `Optional<T>` would make the runtime look up its metadata on every miss.)
    ///
    /// - Throws: `.notRegistered` for a `Lazy` or `Provider` of a type nothing registers.
    final func makeUnregistered(_ type: Any.Type, name: String?) throws(FrostError) -> Any? {
        if let deferred = try makeDeferred(type, name: name, arguments: nil) { return deferred }
        guard let optional = optional(type, name: name) else { return nil }
        guard optional.isRegistered else { return optional.type.absent }
        return try optional.type.resolveWrapped(from: resolver, name: name)
    }

    /// A `Lazy<Wrapped>` or `Provider<Wrapped>` over this container when `type` is one and
    /// `Wrapped` (under `name`) is registered, keeping `arguments` to resolve it with; `nil`
    /// when `type` is neither.
    ///
    /// - Throws: `.notRegistered` for a `Lazy` or `Provider` of a type nothing registers.
    final func makeDeferred(
        _ type: Any.Type,
        name: String?,
        arguments: CapturedArguments?
    ) throws(FrostError) -> Any? {
        guard TypeKind.mayBeFrostType(type), let deferred = type as? any DeferredResolving.Type
        else { return nil }
        let slot = try wrappedSlot(of: deferred, name: name)
        // The container resolves it later, not the resolve that asks for it now.
        return deferred.make(
            target: DeferredTarget(
                reference: reference, slot: slot, name: name, arguments: arguments))
    }

    /// The chain slot of `deferred`'s wrapped type under `name`, what the `Lazy` or `Provider`
    /// resolves; throws `.notRegistered` when nothing registers it.
    final func wrappedSlot(of deferred: any DeferredResolving.Type, name: String?)
        throws(FrostError) -> UInt32
    {
        let key = RegistrationKey(deferred.wrappedType, name: name)
        let slot = chainSlot(for: key)
        guard slot != PerfectHashTable.notFound else { throw notRegistered(key) }
        return slot
    }

    /// The error of resolving `key`, which is not registered: with the path that needed it
    /// when a resolve is creating something, and the registrations close to it.
    final func notRegistered(_ key: RegistrationKey) -> FrostError {
        let context = ResolveContext.current
        let path = context.depth > 0 ? context.pathKeys + [key] : []
        return FrostError(.notRegistered, key: key, path: path, catalog: catalog)
    }
}

/// `Lazy` and `Provider`: types a container makes for any registered `Wrapped`, without
/// registering them.
@usableFromInline
protocol DeferredResolving {
    /// The type resolved later.
    static var wrappedType: Any.Type { get }

    /// Makes the deferred resolver of `target`, which does not keep its container alive.
    static func make(target: DeferredTarget) -> Self
}

/// `Optional`: resolving `Wrapped?` resolves `Wrapped`, or gives `nil` when nothing registers
/// it (an autowired initializer's optional parameter, Swinject's optional resolve).
protocol OptionalResolving {
    /// `Wrapped`.
    static var wrappedType: Any.Type { get }
    /// `nil`, as an `Optional<Wrapped>`.
    static var absent: Any { get }
    /// `Wrapped` resolved from `resolver`, as an `Optional<Wrapped>`.
    static func resolveWrapped(from resolver: any Resolver, name: String?) throws(FrostError)
        -> Any
    /// `Wrapped` resolved from `resolver` with `await`, as an `Optional<Wrapped>`.
    nonisolated(nonsending) static func resolveWrappedAwaiting(
        from resolver: any Resolver, name: String?
    )
        async throws(FrostError) -> Any
}

extension Optional: OptionalResolving {
    static var wrappedType: Any.Type { Wrapped.self }

    static var absent: Any { Wrapped?.none as Any }

    static func resolveWrapped(from resolver: any Resolver, name: String?) throws(FrostError)
        -> Any
    {
        Wrapped?.some(try resolver.resolve(Wrapped.self, name: name)) as Any
    }

    nonisolated(nonsending) static func resolveWrappedAwaiting(
        from resolver: any Resolver, name: String?
    ) async throws(FrostError) -> Any {
        Wrapped?.some(try await resolver.resolve(Wrapped.self, name: name)) as Any
    }
}

/// Runtime arguments kept for later: a copy of the caller's argument tuple, for a `Lazy` or
/// `Provider` resolved with arguments.
///
/// `@unchecked Sendable`: the arguments are the caller's values, handed to the factory as the
/// caller would have (a factory with arguments takes them as they are).
@usableFromInline
struct CapturedArguments: @unchecked Sendable {
    /// The tuple's type.
    let type: Any.Type
    private let lend: ((UnsafeRawPointer) throws(FrostError) -> Void) throws(FrostError) -> Void

    /// Copies the tuple of type `type` at `pointer`.
    init(pointer: UnsafeRawPointer, type: Any.Type) {
        self.type = type
        self.lend = Self.copy(of: pointer, as: type)
    }

    private static func copy<Arguments>(of pointer: UnsafeRawPointer, as type: Arguments.Type)
        -> ((UnsafeRawPointer) throws(FrostError) -> Void) throws(FrostError) -> Void
    {
        let arguments = pointer.assumingMemoryBound(to: Arguments.self).pointee
        return { (body: (UnsafeRawPointer) throws(FrostError) -> Void) throws(FrostError) in
            try withUnsafePointer(to: arguments) { (copy) throws(FrostError) in
                try body(UnsafeRawPointer(copy))
            }
        }
    }

    /// Calls `body` with a pointer to a copy of the arguments (valid during the call).
    func withPointer<R>(_ body: (UnsafeRawPointer) throws(FrostError) -> R) throws(FrostError) -> R
    {
        var result: R?
        try lend { (pointer) throws(FrostError) in result = try body(pointer) }
        return result!
    }
}
