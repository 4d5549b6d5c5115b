extension Container {
    /// Registers an async factory for `type`: what is opened with `await` (a database pool, a
    /// client that connects), wired like any other registration.
    ///
    /// ```swift
    /// container.register(Database.self) { r async throws in
    ///     try await Database.connect(to: try await r.resolve(AppConfig.self))
    /// }
    /// .scope(.singleton)
    /// .onDispose { db async in await db.close() }
    /// ```
    ///
    /// A closure marked `async` picks this overload; one isolated to a global actor, such as
    /// `{ @MainActor r async in … }`, does too, and runs on that actor. Only an awaited resolve
    /// (`try await resolve(…)`) runs it; a synchronous resolve gets the cached instance once
    /// one is made (for a singleton, after `bootstrap()`), and otherwise throws
    /// ``FrostError/Code/asyncRequired``. It may be `.transient`, `.singleton`, `.scoped` or
    /// `.graph`.
    ///
    /// - Parameters:
    ///   - type: The type to register under: a concrete type or a protocol.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - factory: Makes an instance, awaiting what it needs; it resolves its dependencies
    ///     with `try await r.resolve(…)`.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        name: String? = nil,
        factory: @escaping @Sendable (any Resolver) async throws -> T
    ) -> Registration<T> {
        add(
            TypedComponent(
                key: RegistrationKey(T.self, name: name),
                scope: .transient,
                factory: .async(factory)
            )
        )
    }

    /// Implementation detail of the awaited `resolve`: the dictionary container's. Do not
    /// call.
    ///
    /// - Parameters:
    ///   - lookup: The answer of `_lookUp(_:name:)` for `type` and `name`.
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance.
    /// - Throws: ``FrostError``, as the awaited `resolve(_:name:)` does.
    nonisolated(nonsending)
        public func _resolveAsync<T>(
            _ lookup: _ResolverLookup,
            _ type: T.Type,
            name: String?
        ) async throws(FrostError) -> T
    {
        guard lookup.found else {
            if let parent, !isDisposed {
                return try await parent.resolve(T.self, name: name)
            }
            return try resolveUnregistered(T.self, name: name)
        }
        if let box = lookup.box { return _readBox(box, as: T.self) }
        let target = target(of: entry(at: lookup))
        return try await AsyncResolve.withContext { context throws(FrostError) -> T in
            try await Engine.createAsync(target, as: T.self, in: context)
        }
    }

    /// Runs the `.onDispose` hooks, awaiting the async ones, then drops the instances (see the
    /// synchronous ``dispose()``).
    public func dispose() async {
        guard !isDisposed else { return }
        markDisposed()
        await Disposal(head: disposalList).runOnceAsync()
        releaseCachedInstances()
    }
}

/// Implementation detail of `Container`'s registration of main-actor factories: Swift finds a
/// second `register` overload for `@MainActor` closures only in a protocol extension. Do not
/// conform to it.
public protocol _MainActorRegistering {}

extension Container: _MainActorRegistering {}

extension _MainActorRegistering where Self == Container {
    /// Registers a factory isolated to the main actor, for what must be made there (a view
    /// model, a window).
    ///
    /// ```swift
    /// container.register(Screen.self) { @MainActor r in Screen(try r.resolve(Model.self)) }
    /// let screen = try await frozen.resolve(Screen.self)   // made on the main actor
    /// ```
    ///
    /// Only an awaited resolve runs it (on the main actor); a synchronous resolve gets the
    /// cached instance once one is made, and otherwise throws
    /// ``FrostError/Code/asyncRequired``. For another global actor, register an async factory
    /// isolated to it: `{ @MyActor r async in … }`.
    ///
    /// - Parameters:
    ///   - type: The type to register under: a concrete type or a protocol.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - factory: Makes an instance on the main actor.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        name: String? = nil,
        factory: @escaping @MainActor @Sendable (any Resolver) throws -> sending T
    ) -> Registration<T> {
        register(T.self, name: name) { (resolver: any Resolver) async throws -> T in
            let sendable = UncheckedResolver(resolver)
            return try await factory(sendable.resolver)
        }
    }
}
