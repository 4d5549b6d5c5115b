// Fixed-arity forms of `autowire`, for initializers of one to six parameters: the compiler
// specializes each parameter's resolve for its type, which a parameter pack expansion does not
// get (measured with callgrind on frost-bench's complex case: 16% fewer instructions). The
// pack form covers every other arity. Overload resolution prefers these, so the spelling stays
// `autowire(T.self, T.init(...))`. Their initializers take `consuming` parameters, as the
// pack form's does (its documentation says why).

extension Container {
    /// Registers `type`, made by an initializer of one parameter, resolved by its type;
    /// specialized for this arity (the parameter-pack form takes any number).
    ///
    /// - Parameters:
    ///   - type: The type to register under.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - initializer: Makes an instance from its dependency.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @inlinable
    @discardableResult
    public func autowire<T, A>(
        _ type: T.Type,
        name: String? = nil,
        _ initializer: @escaping @Sendable (consuming A) throws -> T
    ) -> Registration<T> {
        registerAutowired(
            T.self,
            name: name,
            parameters: [A.self],
            make: { r, slots in
                try initializer(
                    r.resolveParameter(A.self, slot: slots?[0])
                )
            },
            bound: { p in
                try initializer(
                    p.parameter(A.self, at: 0)
                )
            }
        )
    }

    /// Registers `type`, made by an initializer of two parameters, each resolved by its type;
    /// specialized for this arity (the parameter-pack form takes any number).
    ///
    /// - Parameters:
    ///   - type: The type to register under.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - initializer: Makes an instance from its dependencies.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @inlinable
    @discardableResult
    public func autowire<T, A, B>(
        _ type: T.Type,
        name: String? = nil,
        _ initializer: @escaping @Sendable (consuming A, consuming B) throws -> T
    ) -> Registration<T> {
        registerAutowired(
            T.self,
            name: name,
            parameters: [A.self, B.self],
            make: { r, slots in
                try initializer(
                    r.resolveParameter(A.self, slot: slots?[0]),
                    r.resolveParameter(B.self, slot: slots?[1])
                )
            },
            bound: { p in
                try initializer(
                    p.parameter(A.self, at: 0),
                    p.parameter(B.self, at: 1)
                )
            }
        )
    }

    /// Registers `type`, made by an initializer of three parameters, each resolved by its type;
    /// specialized for this arity (the parameter-pack form takes any number).
    ///
    /// - Parameters:
    ///   - type: The type to register under.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - initializer: Makes an instance from its dependencies.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @inlinable
    @discardableResult
    public func autowire<T, A, B, C>(
        _ type: T.Type,
        name: String? = nil,
        _ initializer: @escaping @Sendable (consuming A, consuming B, consuming C) throws -> T
    ) -> Registration<T> {
        registerAutowired(
            T.self,
            name: name,
            parameters: [A.self, B.self, C.self],
            make: { r, slots in
                try initializer(
                    r.resolveParameter(A.self, slot: slots?[0]),
                    r.resolveParameter(B.self, slot: slots?[1]),
                    r.resolveParameter(C.self, slot: slots?[2])
                )
            },
            bound: { p in
                try initializer(
                    p.parameter(A.self, at: 0),
                    p.parameter(B.self, at: 1),
                    p.parameter(C.self, at: 2)
                )
            }
        )
    }

    /// Registers `type`, made by an initializer of four parameters, each resolved by its type;
    /// specialized for this arity (the parameter-pack form takes any number).
    ///
    /// - Parameters:
    ///   - type: The type to register under.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - initializer: Makes an instance from its dependencies.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @inlinable
    @discardableResult
    public func autowire<T, A, B, C, D>(
        _ type: T.Type,
        name: String? = nil,
        _ initializer:
            @escaping @Sendable (consuming A, consuming B, consuming C, consuming D) throws -> T
    ) -> Registration<T> {
        registerAutowired(
            T.self,
            name: name,
            parameters: [A.self, B.self, C.self, D.self],
            make: { r, slots in
                try initializer(
                    r.resolveParameter(A.self, slot: slots?[0]),
                    r.resolveParameter(B.self, slot: slots?[1]),
                    r.resolveParameter(C.self, slot: slots?[2]),
                    r.resolveParameter(D.self, slot: slots?[3])
                )
            },
            bound: { p in
                try initializer(
                    p.parameter(A.self, at: 0),
                    p.parameter(B.self, at: 1),
                    p.parameter(C.self, at: 2),
                    p.parameter(D.self, at: 3)
                )
            }
        )
    }

    /// Registers `type`, made by an initializer of five parameters, each resolved by its type;
    /// specialized for this arity (the parameter-pack form takes any number).
    ///
    /// - Parameters:
    ///   - type: The type to register under.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - initializer: Makes an instance from its dependencies.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @inlinable
    @discardableResult
    public func autowire<T, A, B, C, D, E>(
        _ type: T.Type,
        name: String? = nil,
        _ initializer:
            @escaping @Sendable (consuming A, consuming B, consuming C, consuming D, consuming E)
            throws -> T
    ) -> Registration<T> {
        registerAutowired(
            T.self,
            name: name,
            parameters: [A.self, B.self, C.self, D.self, E.self],
            make: { r, slots in
                try initializer(
                    r.resolveParameter(A.self, slot: slots?[0]),
                    r.resolveParameter(B.self, slot: slots?[1]),
                    r.resolveParameter(C.self, slot: slots?[2]),
                    r.resolveParameter(D.self, slot: slots?[3]),
                    r.resolveParameter(E.self, slot: slots?[4])
                )
            },
            bound: { p in
                try initializer(
                    p.parameter(A.self, at: 0),
                    p.parameter(B.self, at: 1),
                    p.parameter(C.self, at: 2),
                    p.parameter(D.self, at: 3),
                    p.parameter(E.self, at: 4)
                )
            }
        )
    }

    /// Registers `type`, made by an initializer of six parameters, each resolved by its type;
    /// specialized for this arity (the parameter-pack form takes any number).
    ///
    /// - Parameters:
    ///   - type: The type to register under.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - initializer: Makes an instance from its dependencies.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @inlinable
    @discardableResult
    public func autowire<T, A, B, C, D, E, F>(
        _ type: T.Type,
        name: String? = nil,
        _ initializer:
            @escaping @Sendable (
                consuming A, consuming B, consuming C, consuming D, consuming E, consuming F
            ) throws -> T
    ) -> Registration<T> {
        registerAutowired(
            T.self,
            name: name,
            parameters: [A.self, B.self, C.self, D.self, E.self, F.self],
            make: { r, slots in
                try initializer(
                    r.resolveParameter(A.self, slot: slots?[0]),
                    r.resolveParameter(B.self, slot: slots?[1]),
                    r.resolveParameter(C.self, slot: slots?[2]),
                    r.resolveParameter(D.self, slot: slots?[3]),
                    r.resolveParameter(E.self, slot: slots?[4]),
                    r.resolveParameter(F.self, slot: slots?[5])
                )
            },
            bound: { p in
                try initializer(
                    p.parameter(A.self, at: 0),
                    p.parameter(B.self, at: 1),
                    p.parameter(C.self, at: 2),
                    p.parameter(D.self, at: 3),
                    p.parameter(E.self, at: 4),
                    p.parameter(F.self, at: 5)
                )
            }
        )
    }
}
