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
                scope: defaultScope,
                factory: .async(factory)
            )
        )
    }
}

// Swift finds a second `register` overload for `@MainActor` closures only in a protocol
// extension (on `Container` itself it is an invalid redeclaration): the protocol is `Resolver`,
// constrained to `Container`.
extension Resolver where Self == Container {
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

/// A resolver handed to an async factory isolated to an actor: the containers are used by one
/// resolve at a time there (a `Container` by its one thread, a `FrozenContainer` from
/// anywhere).
private struct UncheckedResolver: @unchecked Sendable {
    // @unchecked: see above; the factory's resolves run before the resolve that called it
    // goes on.
    let resolver: any Resolver

    init(_ resolver: any Resolver) {
        self.resolver = resolver
    }
}
