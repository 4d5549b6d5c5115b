/// Awaited resolves: what async code calls (in an `async` function, Swift picks these over the
/// synchronous forms), and what async factories call on the resolver they receive.
///
/// ```swift
/// container.register(Database.self) { r async throws in
///     try await Database.connect(to: try await r.resolve(AppConfig.self))
/// }.scope(.singleton)
/// let frozen = try container.freeze()
/// let db = try await frozen.resolve(Database.self)
/// ```
///
/// A cached instance costs next to a synchronous resolve: the same lookup, inlined, and no
/// suspension. Anything else on the path that needs awaiting is awaited — async and
/// actor-isolated factories, and a creation another task has begun — and the rest runs as in
/// a synchronous resolve, with the same rules (one instance per singleton, exact cycles, the
/// depth limit). A resolve started in an async factory continues its path, whether through the
/// factory's resolver or a container it captured.
extension Resolver {
    /// Resolves the unnamed registration of `type`, awaiting what needs it.
    ///
    /// - Parameters:
    ///   - type: The type to resolve; inferred from the context when omitted.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError``, as the synchronous resolve does.
    @inlinable
    nonisolated(nonsending)
        public func resolve<T>(_ type: T.Type = T.self) async throws(FrostError) -> T
    {
        try await resolve(T.self, name: nil)
    }

    /// Resolves the registration of `type` under `name`, awaiting what needs it.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError``, as the synchronous resolve does.
    @inlinable
    nonisolated(nonsending)
        public func resolve<T>(_ type: T.Type, name: String?) async throws(FrostError) -> T
    {
        // The synchronous resolve, inlined, when nothing registered in the container's chain
        // is async, or when nothing this registration needs must be awaited (its plan, made
        // when the container was built: a server's bootstrapped pool is made): a server
        // handler's resolve costs what a synchronous one costs.
        guard let space = _space else { return try resolveSynchronously(T.self, name: name) }
        let found = space._withUnsafeGuaranteedRef { $0.find(ObjectIdentifier(T.self), name: name) }
        if let box = found.box { return _readBox(box, as: T.self) }
        // A miss awaits only for an `Optional`, whose wrapped type may need it.
        guard space._withUnsafeGuaranteedRef({ $0.mayAwait }),
            found.found
                ? !space._withUnsafeGuaranteedRef({ $0.resolvesSynchronously(found) })
                : TypeKind.isOptional(T.self)
        else {
            return try _Space.resolve(found, T.self, name: name, in: space)
        }
        return try await space.takeUnretainedValue().resolveAwaiting(found, T.self, name: name)
    }

    /// Resolves a registration that takes one runtime argument, from async code.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    ///   - argument: The argument the factory takes.
    /// - Returns: A new instance.
    /// - Throws: ``FrostError``, as the synchronous form does.
    nonisolated(nonsending)
        public func resolve<T, A>(_ type: T.Type, name: String? = nil, argument: A)
        async throws(FrostError) -> T
    {
        try await resolve(T.self, name: name, arguments: argument)
    }

    /// Resolves a registration that takes runtime arguments, from async code. Factories with
    /// runtime arguments are synchronous: this runs it, continuing the path of the async
    /// factory it is called from, if any.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    ///   - arguments: The arguments the factory takes, in order.
    /// - Returns: A new instance.
    /// - Throws: ``FrostError``, as the synchronous form does.
    nonisolated(nonsending)
        public func resolve<T, each A>(
            _ type: T.Type,
            name: String? = nil,
            arguments: repeat each A
        ) async throws(FrostError) -> T
    {
        // A factory with arguments is synchronous: the synchronous resolve, which continues
        // the path of the async factory this is called from, if any.
        try resolveSynchronously(T.self, name: name, arguments: repeat each arguments)
    }
}

extension Resolver {
    /// The synchronous ``resolve(_:name:)``, which async code cannot name (Swift picks the
    /// awaited overload there).
    @inlinable
    func resolveSynchronously<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        try resolve(T.self, name: name)
    }

    /// The synchronous `resolve(_:name:arguments:)`, which async code cannot name.
    @inlinable
    func resolveSynchronously<T, each A>(
        _ type: T.Type, name: String?, arguments: repeat each A
    ) throws(FrostError) -> T {
        try resolve(T.self, name: name, arguments: repeat each arguments)
    }

    /// ``resolveSpelledOut(_:)`` in async code: making the wrapper awaits nothing; the general
    /// resolve it falls back to is the awaited one (a registered wrapper type may have an async
    /// factory).
    @inlinable
    nonisolated(nonsending)
        func resolveSpelledOutAwaiting<D: DeferredResolving>(_ deferred: D.Type)
        async throws(FrostError) -> D
    {
        guard let space = _space, let made = try _Space.unregisteredDeferred(D.self, in: space)
        else { return try await resolve(D.self, name: nil) }
        return made
    }
}
