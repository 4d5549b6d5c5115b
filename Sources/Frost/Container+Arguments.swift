extension Container {
    /// Registers a factory that takes runtime arguments, given when resolving.
    ///
    /// ```swift
    /// container.register(Greeting.self) { _, name in Greeting(to: name) }
    /// let hi = try frozen.resolve(Greeting.self, argument: "Ann")
    /// container.register(Route.self) { _, path, port in Route(path, port) }
    /// let route = try frozen.resolve(Route.self, arguments: "/", 80)
    /// ```
    ///
    /// Instances made with arguments are never cached (the scope is ignored). Resolving with
    /// no arguments, other argument types, or another count throws
    /// ``FrostError/Code/argumentMismatch``.
    ///
    /// - Parameters:
    ///   - type: The type to register under.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - factory: Makes an instance from the resolver and the arguments, of any number.
    /// - Returns: The registration, to set its forwards, injections and hooks.
    @discardableResult
    @inlinable
    public func register<T, each A>(
        _ type: T.Type,
        name: String? = nil,
        factory: @escaping @Sendable (any Resolver, repeat each A) throws -> T
    ) -> Registration<T> {
        // Inlined, so that the closure reading the arguments is specialized in the caller.
        registerWithArguments(
            T.self,
            name: name,
            make: { resolver, pointer in
                let arguments = pointer.assumingMemoryBound(to: (repeat each A).self).pointee
                return try factory(resolver, repeat each arguments)
            },
            argumentType: (repeat each A).self
        )
    }

    /// Implementation of `register(_:name:factory:)` with arguments: `make` reads the
    /// argument tuple (of `argumentType`) a resolve points to.
    @usableFromInline
    func registerWithArguments<T>(
        _ type: T.Type,
        name: String?,
        make: @escaping @Sendable (any Resolver, UnsafeRawPointer) throws -> T,
        argumentType: Any.Type
    ) -> Registration<T> {
        add(
            TypedComponent(
                key: RegistrationKey(T.self, name: name),
                scope: .transient,
                factory: .arguments(make, argumentType: argumentType)
            )
        )
    }
}

extension Resolver {
    /// Resolves a registration that takes one runtime argument.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    ///   - argument: The argument the factory takes.
    /// - Returns: A new instance.
    /// - Throws: ``FrostError`` with ``FrostError/Code/argumentMismatch`` when the
    ///   registration takes no argument or another type, or the errors of `resolve`.
    @inlinable
    public func resolve<T, A>(_ type: T.Type, name: String? = nil, argument: A) throws(FrostError)
        -> T
    {
        try resolve(T.self, name: name, arguments: argument)
    }

    /// Resolves a registration that takes runtime arguments.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    ///   - arguments: The arguments the factory takes, in order.
    /// - Returns: A new instance.
    /// - Throws: ``FrostError`` with ``FrostError/Code/argumentMismatch`` when the
    ///   registration takes other arguments (count or types), or the errors of `resolve`.
    @inlinable
    public func resolve<T, each A>(
        _ type: T.Type,
        name: String? = nil,
        arguments: repeat each A
    ) throws(FrostError) -> T {
        // Inlined, so that the tuple is built by code specialized in the caller.
        let tuple = (repeat each arguments)
        guard let space = _space else {
            throw FrostError.takesNoArguments(T.self, name: name, resolver: Swift.type(of: self))
        }
        return try withUnsafePointer(to: tuple) { pointer throws(FrostError) in
            try _Space.resolve(
                T.self, name: name, arguments: UnsafeRawPointer(pointer),
                argumentType: (repeat each A).self, in: space)
        }
    }
}
