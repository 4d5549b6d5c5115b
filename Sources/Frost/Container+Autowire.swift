extension Container {
    /// Registers `type`, made by `initializer`, whose parameters are resolved by their types.
    ///
    /// ```swift
    /// container.autowire(UserService.self, UserService.init(logger:db:))
    /// ```
    ///
    /// Because the parameters are declared, `freeze()` checks that each is registered, that
    /// they form no cycle, and that a singleton does not capture a shorter-lived one; it then
    /// binds each parameter to its slot, so that resolving an autowired graph hashes once, at
    /// its root. A parameter of type `Lazy<D>` or `Provider<D>` depends on `D` without
    /// creating it first (it breaks cycles).
    ///
    /// Inlined into the caller, so that the initializer's parameters are resolved by code
    /// specialized for their types.
    ///
    /// The initializer's parameters are `consuming`: each resolved instance is handed over,
    /// not copied. An initializer takes its parameters owned anyway, but the function value
    /// that `UserService.init(logger:db:)` makes only passes them on if the initializer
    /// declares them `consuming`; otherwise that value borrows them and the initializer copies
    /// each one (a retain and a release per parameter: frost-bench's `complex` and
    /// `complex-plain` cases measure the difference):
    ///
    /// ```swift
    /// init(logger: consuming any Logger, db: consuming Database) { … }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to register under.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - initializer: Makes an instance from its dependencies: an initializer such as
    ///     `UserService.init(logger:db:)`, or any function, of any number of parameters.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @inlinable
    @discardableResult
    public func autowire<T, each D>(
        _ type: T.Type,
        name: String? = nil,
        _ initializer: @escaping @Sendable (repeat consuming each D) throws -> T
    ) -> Registration<T> {
        var parameters: [Any.Type] = []
        for parameter in repeat (each D).self {
            parameters.append(parameter)
        }
        return registerAutowired(T.self, name: name, parameters: parameters) { frame in
            var index = 0
            return try initializer(
                repeat try _frameParameter((each D).self, from: frame, index: &index))
        }
    }

    /// Stores an autowired registration: `make` reads the parameters through a ``Frame``
    /// (from the slots the container binds them to, or by type) and calls the initializer.
    /// Inlined into the caller, which decides whether `T`'s instances are kept as themselves
    /// (a constant in code specialized for `T`). The registration's class, `TypedComponent<T>`,
    /// is named by the generic code that stores it: code specialized for `T` would name it by
    /// its mangled name, which a new process demangles, once per registered type, at several
    /// times the cost of the generic code's lookup.
    @inlinable
    func registerAutowired<T>(
        _ type: T.Type,
        name: String?,
        parameters: [Any.Type],
        make: @escaping @Sendable (Frame) throws -> T
    ) -> Registration<T> {
        storeAutowired(
            T.self, keptAsItself: _keptAsItself(T.self), name: name, parameters: parameters,
            make: make)
    }

    /// ``registerAutowired(_:name:parameters:make:)``'s registration, whose instances are kept
    /// as themselves when `keptAsItself` (a class's), else in boxes.
    @usableFromInline
    func storeAutowired<T>(
        _ type: T.Type,
        keptAsItself: Bool,
        name: String?,
        parameters: [Any.Type],
        make: @escaping @Sendable (Frame) throws -> T
    ) -> Registration<T> {
        // Over the indices, not `enumerated()`: a collection's `map` allocates the array once.
        let dependencies = parameters.indices.map { position in
            Dependency.parameter(parameters[position], position: position + 1, of: T.self)
        }
        return add(
            TypedComponent<T>(
                key: RegistrationKey(T.self, name: name),
                scope: defaultScope,
                dependencies: dependencies,
                factory: .autowired(make),
                keptAsItself: keptAsItself
            )
        )
    }
}

extension Container {
    /// Registers an `@Injectable` type: made by the initializer the macro read, its parameters
    /// resolved by type (or by the name `@Injectable(names:)` binds them to), its `@Injected`
    /// properties filled by the members injector the macro wrote.
    ///
    /// ```swift
    /// container.autowire(UserService.self)
    /// container.autowire(ReportJob.self).scope(.singleton)
    /// ```
    ///
    /// The registration is the one ``autowire(_:name:_:)-(_,_,(D)->T)`` makes with the
    /// initializer spelled out, and costs the same to resolve: `freeze()` checks each
    /// parameter and property without running anything and binds the parameters to their
    /// slots. Inlined into the caller, so that the factory is specialized for `T`.
    ///
    /// - Parameters:
    ///   - type: The `@Injectable` type, registered under itself.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @inlinable
    @discardableResult
    public func autowire<T: Injectable>(_ type: T.Type, name: String? = nil) -> Registration<T> {
        registerInjectable(
            T.self, name: name, parameters: T.injectableParameters, members: T.injectableMembers,
            injectMembers: { resolver, instance in try instance.injectMembers(from: resolver) }
        ) { frame in
            try T.makeInjectable(InjectableParameters(frame: frame))
        }
    }

    /// Stores an `@Injectable` type's registration: an autowired one whose parameters may be
    /// named, with its members' dependencies declared and their injector run on creation.
    @usableFromInline
    func registerInjectable<T>(
        _ type: T.Type,
        name: String?,
        parameters: [InjectableDependency],
        members: [InjectableDependency],
        injectMembers: @escaping @Sendable (any Resolver, T) throws -> Void,
        make: @escaping @Sendable (Frame) throws -> T
    ) -> Registration<T> {
        var dependencies: [Dependency] = []
        dependencies.reserveCapacity(parameters.count + members.count)
        for (position, parameter) in parameters.enumerated() {
            dependencies.append(
                Dependency.parameter(
                    parameter.type, position: position + 1, of: T.self, name: parameter.name))
        }
        dependencies += members.map { member in
            Dependency.declared(
                member.type, name: member.name, kind: .property,
                origin: .described("property \(member.label)"))
        }
        return add(
            TypedComponent(
                key: RegistrationKey(T.self, name: name),
                scope: defaultScope,
                dependencies: dependencies,
                factory: .autowired(make),
                membersInjector: members.isEmpty ? nil : injectMembers
            )
        )
    }
}

extension Dependency {
    /// The dependency of an autowired initializer's parameter: on `Wrapped` (deferred) for a
    /// `Lazy<Wrapped>` or `Provider<Wrapped>` parameter; on the registration named `name`
    /// when an `@Injectable` type binds it to one.
    static func parameter(
        _ type: Any.Type, position: Int, of owner: Any.Type, name: String? = nil
    ) -> Dependency {
        declared(
            type, name: name, kind: .parameter,
            origin: .parameter(position, of: TypeIdentity(owner)))
    }

    /// The dependency on `type` as declared (a parameter's or a property's type): on `Wrapped`
    /// (deferred) for a `Lazy<Wrapped>` or `Provider<Wrapped>`, optional for a `Wrapped?`.
    static func declared(_ type: Any.Type, name: String?, kind: Kind, origin: Origin) -> Dependency
    {
        // Casts only where a read of the metadata cannot rule the type out (see TypeKind).
        if TypeKind.isOptional(type), let optional = type as? any OptionalResolving.Type {
            // `nil` when nothing registers `Wrapped` (Swinject's spelling).
            var dependency = declared(
                optional.wrappedType, name: name, kind: kind, origin: origin)
            dependency.optional = true
            return dependency
        }
        if TypeKind.mayBeFrostType(type), let deferred = type as? any DeferredResolving.Type {
            return Dependency(
                key: RegistrationKey(deferred.wrappedType, name: name), kind: kind,
                deferred: true, origin: origin)
        }
        return Dependency(
            key: RegistrationKey(type, name: name), kind: kind, deferred: false, origin: origin)
    }
}
