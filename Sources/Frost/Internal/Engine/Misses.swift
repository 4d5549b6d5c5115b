/// What a container answers for a key it has no registration for: a `Lazy` or `Provider` of a
/// registered type (made on the spot, never registered), an `Optional` of one (the instance,
/// or `nil` when nothing registers it), or an error naming the key, the path that needed it
/// and what is registered nearby.
extension EngineHost {
    /// What `type` (not registered here) resolves to when it is a `Lazy`, `Provider` or
    /// `Optional` of a registered type; `nil` when it is none of them. (Not generic: an
    /// `Optional<T>` would make the runtime look up its metadata on every miss.)
    ///
    /// - Throws: `.notRegistered` for a `Lazy` or `Provider` of a type nothing registers.
    func makeUnregistered(_ type: Any.Type, name: String?) throws(FrostError) -> Any? {
        if let deferred = try makeDeferred(type, name: name, arguments: nil) { return deferred }
        // One read of the metadata rules most types out before a cast to a protocol, which
        // costs a miss about a third of its instructions.
        guard TypeKind.isOptional(type), let optional = type as? any OptionalResolving.Type
        else { return nil }
        guard contains(RegistrationKey(optional.wrappedType, name: name)) else {
            return optional.absent
        }
        return try optional.resolveWrapped(from: self, name: name)
    }

    /// A `Lazy<Wrapped>` or `Provider<Wrapped>` over this container when `type` is one and
    /// `Wrapped` (under `name`) is registered, keeping `arguments` to resolve it with; `nil`
    /// when `type` is neither.
    ///
    /// - Throws: `.notRegistered` for a `Lazy` or `Provider` of a type nothing registers.
    func makeDeferred(
        _ type: Any.Type,
        name: String?,
        arguments: CapturedArguments?
    ) throws(FrostError) -> Any? {
        guard TypeKind.mayBeFrostType(type), let deferred = type as? any DeferredResolving.Type
        else { return nil }
        return try deferredResolver(deferred, name: name, arguments: arguments)
    }

    /// A `deferred` (a `Lazy<Wrapped>` or `Provider<Wrapped>`) over this container, when
    /// `Wrapped` (under `name`) is registered.
    ///
    /// - Throws: `.notRegistered` when nothing registers `Wrapped`.
    func deferredResolver(
        _ deferred: any DeferredResolving.Type,
        name: String?,
        arguments: CapturedArguments?
    ) throws(FrostError) -> any DeferredResolving {
        try checkWrappedRegistered(deferred, name: name)
        // The container resolves it later, not the resolve that asks for it now.
        return deferred.make(container: self, name: name, arguments: arguments)
    }

    /// Throws `.notRegistered` when nothing registers `deferred`'s wrapped type under `name`.
    func checkWrappedRegistered(_ deferred: any DeferredResolving.Type, name: String?)
        throws(FrostError)
    {
        let key = RegistrationKey(deferred.wrappedType, name: name)
        guard contains(key) else { throw notRegistered(key) }
    }

    /// The error of resolving `key`, which is not registered: with the path that needed it
    /// when a resolve is creating something, and the registrations close to it.
    func notRegistered(_ key: RegistrationKey) -> FrostError {
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

    /// Makes the deferred resolver for `name` over `container`, which it does not keep alive,
    /// resolving with `arguments` when given.
    static func make(
        container: any AnyObject & Resolver, name: String?, arguments: CapturedArguments?
    ) -> Self
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
}

extension Optional: OptionalResolving {
    static var wrappedType: Any.Type { Wrapped.self }

    static var absent: Any { Wrapped?.none as Any }

    static func resolveWrapped(from resolver: any Resolver, name: String?) throws(FrostError)
        -> Any
    {
        Wrapped?.some(try resolver.resolve(Wrapped.self, name: name)) as Any
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
    private let lend: ((UnsafeRawPointer) throws -> Void) throws -> Void

    /// Copies the tuple of type `type` at `pointer`.
    init(pointer: UnsafeRawPointer, type: Any.Type) {
        self.type = type
        self.lend = Self.copy(of: pointer, as: type)
    }

    private static func copy<Arguments>(of pointer: UnsafeRawPointer, as type: Arguments.Type)
        -> ((UnsafeRawPointer) throws -> Void) throws -> Void
    {
        let arguments = pointer.assumingMemoryBound(to: Arguments.self).pointee
        return { body in try withUnsafePointer(to: arguments) { try body(UnsafeRawPointer($0)) } }
    }

    /// Calls `body` with a pointer to a copy of the arguments (valid during the call).
    func withPointer<R>(_ body: (UnsafeRawPointer) throws(FrostError) -> R) throws(FrostError) -> R
    {
        var result: R?
        do {
            try lend { pointer in result = try body(pointer) }
        } catch let error as FrostError {
            throw error
        } catch {
            preconditionFailure("only a FrostError is thrown here")
        }
        return result!
    }
}
