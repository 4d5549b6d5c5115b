/// Layer 2 of the engine: one resolve of a registration found in a container. A container's
/// lookup and its chain (``_Space``) find the registration and what its lifetime keeps
/// (a ``Target``); the registration's lifetime (`Internal/Lifetimes`) reads or makes the
/// instance, through the create-once machine (``Creation``) when it keeps one. One verb per
/// stage: **find** (a key's slot), **read** (a kept instance, ``_readBox(_:as:)``), **create**
/// (a new one), **dispose**.
///
/// The awaited resolve is the synchronous one until something must be awaited: what needs no
/// await runs here, on the thread, in the resolve's context; only an async (or actor-isolated)
/// factory, or a creation another task has begun, makes it suspend. Cycle, depth and path
/// tracking are one ``ResolveContext`` however a resolve waits.
enum Engine {
    /// The instance of `target` for a synchronous resolve running in `context`.
    static func resolve<T>(_ target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        try target.checkOpen(in: context)
        let component = target.component
        if component.isAsync {
            // Only an awaited resolve runs its factory; what it made, a synchronous one reads.
            if let box = component.lifetime.madeInstance(of: target) {
                return _readBox(box, as: T.self)
            }
            // This resolve is making it (a `Lazy` read in its own factory): a cycle.
            if context.isEntered(component) { throw context.cycle(closedBy: component.key) }
            throw asyncRequired(component, context, bootstrapMakesIt: component.isMadeAtBootstrap)
        }
        return try component.lifetime.instance(of: target, as: T.self, in: context)
    }

    /// The boxed instance of `target` for an awaited resolve running in `context`, when its
    /// factory is async; `nil` for a synchronous factory, once what it declares it needs and
    /// only an awaited resolve can make is made (the caller then resolves synchronously).
    nonisolated(nonsending)
        static func resolveAwaiting(_ target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject?
    {
        try target.checkOpen(in: context)
        let component = target.component
        guard component.isAsync else {
            try await prepareDependencies(of: component, in: target.maker, context: context)
            return nil
        }
        return try await component.lifetime.instanceAwaiting(of: target, in: context)
    }

    /// Runs `component`'s async factory (entered last in `context`) with `resolver`, then,
    /// on the thread, its property injection and hooks; `showing` sees the box before it is
    /// finished (a `.graph` instance is shown to its own resolve then).
    nonisolated(nonsending)
        static func makeAwaiting(
            _ component: Component, resolver: any Resolver, in context: ResolveContext,
            showing: (AnyObject) -> Void = { _ in }
        ) async throws(FrostError) -> AnyObject
    {
        let box: AnyObject
        do {
            box = try await AwaitedResolve.running(component, in: context) {
                try await component.constructBoxAwaiting(resolver)
            }
        } catch {
            throw context.failure(error, in: component)
        }
        showing(box)
        guard component.typed.finishesBox(box, of: component) else { return box }
        try context.onThread { () throws(FrostError) in
            do {
                try component.finishBox(box, resolver)
            } catch {
                throw context.failure(error, in: component)
            }
        }
        return box
    }

    // MARK: What a synchronous factory needs first

    /// Makes what `component`'s synchronous factory declares it needs (through the
    /// registrations `host` sees) and only an awaited resolve can make: every async
    /// registration whose instance is kept (a singleton, a `.scoped` one) in its declared
    /// graph, not made yet, through the registrations not made yet on the way.
    nonisolated(nonsending)
        static func prepareDependencies(
            of component: Component, in host: _Space, context: ResolveContext
        ) async throws(FrostError)
    {
        guard !component.dependencies.isEmpty, host.mayAwait else { return }
        // The component itself is seen where it is made: an instance that injects it back
        // (the delegate pattern) is not walked again.
        var seen: Set<Walked> = [Walked(component, in: host)]
        // On the path as a passage, so that what fails while its dependencies are made names
        // it (it is constructed later, by the synchronous resolve).
        try context.enterPassage(component)
        defer { context.leave() }
        try await prepare(dependenciesOf: component, in: host, context, &seen)
    }

    nonisolated(nonsending)
        private static func prepare(
            dependenciesOf component: Component, in host: _Space, _ context: ResolveContext,
            _ seen: inout Set<Walked>
        ) async throws(FrostError)
    {
        for index in component.dependencies.indices where !component.dependencies[index].deferred {
            guard let target = host.dependencyTarget(of: component, index) else { continue }
            let dependency = target.component
            let keeps = target.cell != nil
            // Seen by registration and the container that makes it: one `.scoped` key is made
            // in each child that a registration on the way is made in.
            guard seen.insert(Walked(dependency, in: target.maker)).inserted,
                !keeps || target.cell?.peek() == nil
            else { continue }
            if dependency.isAsync {
                // One made on every resolve cannot be handed to a synchronous factory: the
                // factory reports it (`.asyncRequired`, with its path).
                if keeps { _ = try await resolveAwaiting(target, in: context) }
                continue
            }
            // A passage: named in an error's path, not a construction (none happens here);
            // a real cycle is closed by the synchronous resolve, `seen` ends this walk.
            try context.enterPassage(dependency)
            defer { context.leave() }
            try await prepare(dependenciesOf: dependency, in: target.maker, context, &seen)
        }
    }

    /// A registration a walk of the declared graph has met, with the container that makes
    /// it there (`nil`: the container the resolve is in, for a plan compiled before any
    /// resolve): what ``prepareDependencies(of:in:context:)`` and the await plans
    /// (`AwaitPlan.swift`) remember.
    struct Walked: Hashable {
        let component: ObjectIdentifier
        let maker: ObjectIdentifier?

        init(_ component: Component, in maker: _Space?) {
            self.component = ObjectIdentifier(component)
            self.maker = maker.map(ObjectIdentifier.init)
        }
    }

    // MARK: Errors

    /// The error of resolving synchronously what only an awaited resolve can make; its advice
    /// names `bootstrap()` only when `bootstrap()` would make it (a root's singleton, not a
    /// child's value).
    static func asyncRequired(
        _ component: Component, _ context: ResolveContext, bootstrapMakesIt: Bool = true
    ) -> FrostError {
        FrostError(
            .asyncRequired, key: component.key, path: context.path(to: component),
            advisesBootstrap: bootstrapMakesIt)
    }

    /// The error of a synchronous resolve that meets a creation an awaited resolve has begun:
    /// it cannot wait for it without maybe blocking the thread that creation needs.
    static func madeByAnotherTask(_ component: Component) -> FrostError {
        FrostError(
            .asyncRequired, key: component.key, path: ResolveContext.current.path(to: component),
            detail: "is being made by an awaited resolve in another task")
    }

    /// The error of a wait that would close a circle of resolves waiting for each other.
    static func crossResolveCycle(_ component: Component, _ context: ResolveContext)
        -> FrostError
    {
        FrostError(
            .cycle, key: component.key, path: context.pathKeys + [component.key],
            detail: "another resolve is creating it and waits, through other registrations, "
                + "for what this resolve is creating")
    }
}

/// A registration found in a container, as the engine needs it. It lives for one resolve,
/// whose caller holds the containers, which hold the component: they are referenced without
/// retaining them.
struct Target {
    /// The registration.
    unowned(unsafe) let component: Component
    /// Where its lifetime keeps its instance here: a slot's cell, an override's, a `.weak`
    /// registration's side cell, a child's cell for a `.scoped` one, the supplying
    /// container's for a provided one (`nil`: none keeps it, or none supplies it).
    let cell: Cell?
    /// The container the registration belongs to: where a singleton, `.weak` or
    /// custom-scoped instance is made, from its registrations.
    unowned(unsafe) let owner: _Space
    /// The container the resolve is in: where a transient, `.graph` or `.scoped` instance is
    /// made, seeing its registrations and provided values.
    unowned(unsafe) let context: _Space
    /// The container whose cell `cell` is, when another than `owner` and `context` (the one
    /// that supplies a provided value): a disposed one supplies nothing.
    unowned(unsafe) let holder: _Space?

    /// The registration, unretained.
    var componentPointer: UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque())
    }

    /// Where the factory resolves its dependencies: where the instance is made.
    var maker: _Space {
        component.lifetime.madeWhereRegistered ? owner : context
    }

    /// Throws `.disposed` when a container it needs was disposed: the one the resolve is in,
    /// the one the registration belongs to, the one that supplies the value.
    func checkOpen(in context: ResolveContext) throws(FrostError) {
        if self.context.isDisposed || owner.isDisposed || holder?.isDisposed == true {
            throw FrostError(.disposed, key: component.key, path: context.path(to: component))
        }
    }
}
