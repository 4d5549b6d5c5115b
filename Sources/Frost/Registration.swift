/// What `Container.register…` and `Container.autowire` return: configures the registration
/// it names.
///
/// ```swift
/// container.register(Screen.self) { _ in Screen() }
///     .scope(.singleton)
///     .implements(Presenter.self)
///     .inject(\.delegate)
///     .inject(\.backup, name: "replica")
///     .onCreate { r, screen in screen.didLoad() }
/// ```
public struct Registration<T> {
    let container: Container
    let key: RegistrationKey

    /// Sets how long the registration's instances live.
    ///
    /// - Parameters:
    ///   - scope: `.transient` (the default), `.singleton`, `.weak`, `.graph`, `.scoped` or
    ///     `.custom(…)`.
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    public func scope(_ scope: Scope) -> Registration<T> {
        updateInPlaceIfUnshared { component, isUnshared in
            component.with(scope: scope, isUnshared: isUnshared)
        }
    }

    /// Leaves a singleton out of `bootstrap()`: it is made on its first resolve instead,
    /// exactly once, as any singleton (Dip's singleton as against its eager singleton; Guice's
    /// lazy singletons). For what a server rarely needs: a report generator, an admin tool.
    ///
    /// ```swift
    /// container.register(ReportGenerator.self) { r in
    ///     ReportGenerator(try r.resolve(Database.self))
    /// }
    /// .scope(.singleton)
    /// .lazy()
    /// ```
    ///
    /// Only a singleton is ever made by `bootstrap()`: on any other registration this changes
    /// nothing. `FrostServiceLifecycle` runs a lazy singleton that is a `Service` only if it is
    /// made before the services start.
    ///
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    public func lazy() -> Registration<T> {
        update { $0.lazy() }
    }

    /// Makes the registration resolvable as each of `types` too (protocols it conforms to, or
    /// superclasses), under the same name. Every type resolves the same registration: for a
    /// singleton, the same instance.
    ///
    /// Swift cannot check the conformance when registering; resolving through a type the
    /// instance cannot be cast to throws ``FrostError/Code/typeMismatch``.
    ///
    /// - Parameters:
    ///   - types: The types to forward, such as `Logger.self, Sink.self`.
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    public func implements<each P>(_ types: repeat (each P).Type) -> Registration<T> {
        for type in repeat each types {
            container.addForward(to: key, as: type, name: key.name, from: T.self)
        }
        return self
    }

    /// Makes the registration resolvable under another name too: the same registration (for a
    /// singleton, the same instance).
    ///
    /// - Parameters:
    ///   - name: The other name, such as `"default"`.
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    public func alias(_ name: String) -> Registration<T> {
        container.addForward(to: key, as: T.self, name: name, from: T.self)
        return self
    }

    /// Runs `hook` once for each instance the container creates (once in total for a
    /// singleton), after its properties are injected.
    ///
    /// - Parameters:
    ///   - hook: Receives the resolver and the new instance. An error it throws fails the
    ///     resolve (as ``FrostError/Code/factoryFailed``).
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    public func onCreate(_ hook: @escaping @Sendable (any Resolver, T) throws -> Void)
        -> Registration<T>
    {
        update { $0.adding(hook: hook) }
    }

    /// Runs `hook` when the container that created and caches an instance is disposed
    /// (`dispose()`): for a `.singleton`, a `.scoped` instance (at its child's `dispose()`) or
    /// a `.weak` one still alive, in reverse order of creation (an instance's dependencies
    /// after it), once.
    ///
    /// ```swift
    /// container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(Database.self)) }
    ///     .scope(.scoped)
    ///     .onDispose { uow in uow.rollbackIfOpen() }
    /// ```
    ///
    /// Transients are never tracked, and a registered instance or a provided key is the
    /// application's: `freeze()` rejects the hook on any of them, rather than accept a hook
    /// that never runs. An instance that `releaseCachedInstances()` released stays tracked:
    /// the container keeps it alive until `dispose()` runs its hooks.
    ///
    /// - Parameters:
    ///   - hook: Receives the instance.
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    public func onDispose(_ hook: @escaping @Sendable (T) -> Void) -> Registration<T> {
        update { $0.adding(disposeHook: .sync(hook)) }
    }

    /// Runs `hook`, which may suspend, when the container that created and caches an instance
    /// is disposed, as ``onDispose(_:)-7yban`` does: `await dispose()` waits
    /// for it.
    ///
    /// ```swift
    /// container.register(Database.self) { r async throws in try await Database.connect() }
    ///     .scope(.singleton)
    ///     .onDispose { db async in await db.close() }
    /// ```
    ///
    /// A synchronous `dispose()` cannot wait: from the first async hook it meets on, it runs
    /// the remaining hooks, in order, in a task it starts.
    ///
    /// - Parameters:
    ///   - hook: Receives the instance.
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    public func onDispose(_ hook: @escaping @Sendable (T) async -> Void) -> Registration<T> {
        update { $0.adding(disposeHook: .async(hook)) }
    }

    func update(_ change: (TypedComponent<T>) -> TypedComponent<T>) -> Registration<T> {
        updateInPlaceIfUnshared { component, _ in change(component) }
    }

    /// Replaces the registration's component with `change`'s, which may be the same one
    /// changed in place when it is unshared (the second argument: nothing but the
    /// registration's `Container` holds it).
    func updateInPlaceIfUnshared(_ change: (TypedComponent<T>, Bool) -> TypedComponent<T>)
        -> Registration<T>
    {
        container.registerSupplied(key, as: T.self)
        container.update(key) { component, isUnshared in
            // The component under this key was registered by this registration's generic
            // call: it is a TypedComponent<T> by construction.
            change(unsafeDowncast(component, to: TypedComponent<T>.self), isUnshared)
        }
        return self
    }
}

extension Registration where T: AnyObject {
    /// Injects a property after the initializer: resolves `V` (under `name`) and assigns it.
    ///
    /// - Parameters:
    ///   - property: A writable property of the instance, such as `\.delegate`.
    ///   - name: The name of the registration to inject, or `nil` for the unnamed one.
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    @inlinable
    public func inject<V>(
        _ property: any ReferenceWritableKeyPath<T, V> & Sendable,
        name: String? = nil
    ) -> Registration<T> {
        let writer = PropertyWriter()
        return inject(
            V.self, name: name, label: "property \(property)",
            injection: { resolver, instance throws(FrostError) in
                let value = try resolver.resolveInlined(V.self, name: name)
                let object = Unmanaged.passUnretained(instance).toOpaque()
                writer.write(value, to: object, of: T.self, at: property)
            },
            inFrame: { index in
                { frame, instance throws(FrostError) in
                    let value = try frame.property(V.self, at: index, name: name)
                    let object = instance.load(as: UnsafeMutableRawPointer.self)
                    writer.write(value, to: object, of: T.self, at: property)
                }
            })
    }

    /// Injects an optional property after the initializer: resolves `V` (under `name`) and
    /// assigns it.
    ///
    /// - Parameters:
    ///   - property: A writable optional property of the instance, such as `\.delegate`.
    ///   - name: The name of the registration to inject, or `nil` for the unnamed one.
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    @inlinable
    public func inject<V>(
        _ property: any ReferenceWritableKeyPath<T, V?> & Sendable,
        name: String? = nil
    ) -> Registration<T> {
        let writer = PropertyWriter()
        return inject(
            V.self, name: name, label: "property \(property)",
            injection: { resolver, instance throws(FrostError) in
                let value: V? = try resolver.resolveInlined(V.self, name: name)
                let object = Unmanaged.passUnretained(instance).toOpaque()
                writer.write(value, to: object, of: T.self, at: property)
            },
            inFrame: { index in
                { frame, instance throws(FrostError) in
                    let value: V? = try frame.property(V.self, at: index, name: name)
                    let object = instance.load(as: UnsafeMutableRawPointer.self)
                    writer.write(value, to: object, of: T.self, at: property)
                }
            })
    }

    /// Declares the dependency (so that freeze checks it) and adds the injection. The public
    /// `inject` is inlined into the caller so that the injection (the resolve, and the write
    /// through a ``PropertyWriter``: a direct store for a stored property) is specialized
    /// there: made here, unspecialized, the resolve went through `any Resolver`'s generic
    /// requirement and each write looked up the metadata of `V?`. Two forms of it: `injection`
    /// resolves through the resolver (the engine's creations), `inFrame` reads the dependency
    /// at the index it is given from the slot freeze bound it to (a creation through a
    /// ``Frame``: a transient at the top of a resolve or as a parameter).
    @usableFromInline
    func inject<V>(
        _ type: V.Type,
        name: String?,
        label: String,
        injection: @escaping @Sendable (any Resolver, T) throws -> Void,
        inFrame: @escaping (_ index: Int) -> FramedInjection
    ) -> Registration<T> {
        let dependency = Dependency(
            key: RegistrationKey(V.self, name: name), kind: .property, deferred: false,
            label: label)
        return update { component in
            component.adding(dependency: dependency, injection: injection, inFrame: inFrame)
        }
    }
}
