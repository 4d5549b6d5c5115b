/// The engine for awaited resolves (`try await resolve(…)`). It keeps the synchronous engine's
/// rules, with one more: a task never blocks its thread. Only what needs awaiting runs here —
/// async and actor-isolated factories, and the waits for creations other tasks have begun;
/// everything synchronous runs in the synchronous engine, on the thread, with the awaited
/// resolve's context as the thread's (``ResolveContext/onThread(_:)``), so the path goes on.
///
/// Before a synchronous factory runs, what it declares it needs and only an awaited resolve can
/// make — async singletons and `.scoped` instances, wherever they sit in its declared graph —
/// is made first (``prefetch(for:in:context:)``); a synchronous factory that needs one it
/// does not declare (a closure's `r.resolve`) finds it made only if something made it before
/// (`bootstrap()`), and otherwise gets `.asyncRequired`.
extension Engine {
    /// The instance of `target`, for an awaited resolve running in `context`.
    nonisolated(nonsending)
        static func createAsync<T>(_ target: Target, as type: T.Type, in context: ResolveContext)
        async throws(FrostError) -> T
    {
        if let box = try await asyncBox(target, in: context) {
            return unsafeDowncast(box, to: Box<T>.self).value
        }
        return try context.onThread { () throws(FrostError) -> T in
            try create(target, as: T.self)
        }
    }

    /// For an async registration, the box of its instance, made or read; for a synchronous
    /// one, `nil`, once what its factory declares it needs and only an awaited resolve can
    /// make is made.
    nonisolated(nonsending)
        static func asyncBox(_ target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject?
    {
        let component = target.component
        if target.context.isDisposed || target.owner.isDisposed {
            throw FrostError(.disposed, key: component.key, path: context.path(to: component))
        }
        guard component.isAsync else {
            try await prefetch(for: component, in: target.resolvingHost, context: context)
            return nil
        }
        switch component.kind {
        case .singleton:
            return try await cachedAsync(target, resolver: target.owner, in: context)
        case .scoped:
            guard target.context.isChild, target.cell != nil else {
                throw FrostError(
                    .outsideChild, key: component.key, path: context.path(to: component))
            }
            return try await cachedAsync(target, resolver: target.context, in: context)
        case .graph:
            return try await graphAsync(target, in: context)
        case .transient:
            try context.enter(component)
            defer { context.leave() }
            return try await constructEntered(
                component, resolver: target.context, cell: nil, in: context)
        default:
            throw FrostError(
                .invalidRegistrations, key: component.key, path: context.path(to: component),
                detail: "an async factory can be .transient, .singleton, .scoped or .graph, "
                    + "not \(component.scope)")
        }
    }

    /// A singleton or `.scoped` instance with an async factory: made once in its cell, by a
    /// factory that resolves from `resolver`; while another resolve makes it, this one
    /// suspends (it never blocks its thread).
    nonisolated(nonsending)
        private static func cachedAsync(
            _ target: Target, resolver: any EngineHost, in context: ResolveContext
        ) async throws(FrostError) -> AnyObject
    {
        let component = target.component
        let cell = target.cell.unsafelyUnwrapped
        // Entered before any wait: a resolve that meets its own creation again is a cycle,
        // found in the path, not a wait for itself.
        try context.enter(component)
        defer { context.leave() }
        while true {
            let epoch = AsyncWaiters.epoch
            switch cell.beginAsync(for: context) {
            case .ready(let box):
                return Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue()
            case .create:
                let box: AnyObject
                do {
                    box = try await constructEntered(
                        component, resolver: resolver, cell: cell, in: context)
                } catch {
                    cell.end(for: context, publishing: nil)
                    throw error
                }
                cell.end(for: context, publishing: box)
                resolver.created(component, box)
                return box
            case .wait:
                await AsyncWaiters.wait(for: UnsafeMutableRawPointer(cell.pointer), since: epoch)
                context.stopWaiting()
            case .own:
                throw context.cycle(closedBy: component.key)
            case .cycle:
                throw FrostError(
                    .cycle, key: component.key, path: context.pathKeys,
                    detail: "another resolve is creating it and waits, through other "
                        + "registrations, for what this resolve is creating")
            }
        }
    }

    /// A `.graph` registration with an async factory: one instance per top-level resolve.
    nonisolated(nonsending)
        private static func graphAsync(_ target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject
    {
        let component = target.component
        let key = GraphKey(
            component: ObjectIdentifier(component), container: ObjectIdentifier(target.context))
        if context.depth > 0, let box = context.state.graph[key] { return box }
        try context.enter(component)
        defer { context.leave() }
        let box: AnyObject
        do {
            box = try await AsyncResolve.running(component, in: context) {
                try await component.constructBoxAsync(UncheckedResolver(target.context).resolver)
            }
        } catch {
            throw context.failure(error, in: component)
        }
        context.state.graph[key] = box
        context.keepUntilTheResolveEnds()
        if component.finishes {
            try context.onThread { () throws(FrostError) in
                do {
                    try component.finishBox(box, target.context)
                } catch {
                    throw context.failure(error, in: component)
                }
            }
        }
        return box
    }

    /// Runs `component`'s factory (entered last in `context`), awaiting it, then its property
    /// injection and hooks on the thread; while they run, a re-entry of `cell` gets the box.
    nonisolated(nonsending)
        private static func constructEntered(
            _ component: Component, resolver: any EngineHost, cell: Cell?,
            in context: ResolveContext
        ) async throws(FrostError) -> AnyObject
    {
        let box: AnyObject
        do {
            box = try await AsyncResolve.running(component, in: context) {
                try await component.constructBoxAsync(UncheckedResolver(resolver).resolver)
            }
        } catch {
            throw context.failure(error, in: component)
        }
        guard component.finishes else { return box }
        try context.onThread { () throws(FrostError) in
            let state = context.state
            if let cell { state.provisional.append((cell.address, box)) }
            defer { if cell != nil { state.provisional.removeLast() } }
            do {
                try component.finishBox(box, resolver)
            } catch {
                throw context.failure(error, in: component)
            }
        }
        return box
    }

    // MARK: Prefetch

    /// Makes what `component`'s synchronous factory declares it needs (through the
    /// registrations in `host`) and only an awaited resolve can make: every async singleton or
    /// `.scoped` registration in its declared graph not made yet, through the registrations
    /// not made yet on the way (a made instance's dependencies are not looked at).
    nonisolated(nonsending)
        static func prefetch(
            for component: Component, in host: any EngineHost, context: ResolveContext
        )
        async throws(FrostError)
    {
        guard !component.dependencies.isEmpty else { return }
        var seen: Set<ObjectIdentifier> = []
        // Entered, so that what fails while its dependencies are made names it in its path.
        try context.enter(component)
        defer { context.leave() }
        try await prefetchDependencies(of: component, in: host, context, &seen)
    }

    nonisolated(nonsending)
        private static func prefetchDependencies(
            of component: Component, in host: any EngineHost, _ context: ResolveContext,
            _ seen: inout Set<ObjectIdentifier>
        ) async throws(FrostError)
    {
        for index in component.dependencies.indices where !component.dependencies[index].deferred {
            guard let target = host.dependencyTarget(of: component, index) else { continue }
            let dependency = target.component
            guard seen.insert(ObjectIdentifier(dependency)).inserted,
                target.cell?.peek() == nil || !dependency.cachesInItsCell
            else { continue }
            if dependency.isAsync {
                // A transient one cannot be made for a synchronous factory: the factory reports
                // it (`.asyncRequired`, with its path).
                if dependency.cachesInItsCell { _ = try await asyncBox(target, in: context) }
                continue
            }
            try context.enter(dependency)
            defer { context.leave() }
            try await prefetchDependencies(of: dependency, in: target.resolvingHost, context, &seen)
        }
    }
}

extension Target {
    /// Where the registration's factory resolves its dependencies: the container it belongs
    /// to for one that lives there (a singleton, `.weak`, custom), the container the resolve is
    /// in for the others (transient, `.graph`, `.scoped`).
    var resolvingHost: any EngineHost {
        switch component.kind {
        case .transient, .graph, .scoped, .provided: context
        default: owner
        }
    }
}

extension Component {
    /// Whether the instance, once made, stays in its cell (a singleton's, a `.scoped` one's,
    /// a registered instance): a made one needs nothing made again.
    var cachesInItsCell: Bool { caches || kind == .scoped }
}

/// A resolver handed to an async factory, which runs on the task's executor: the containers
/// are used by one resolve at a time there (a `Container` by its one thread, a
/// `FrozenContainer` from anywhere).
struct UncheckedResolver: @unchecked Sendable {
    // @unchecked: see above; the factory's resolves run before the resolve that called it
    // goes on.
    let resolver: any Resolver

    init(_ resolver: any Resolver) {
        self.resolver = resolver
    }
}

extension ResolveContext {
    /// The keys of the path, with `component` after them: for an error about it, before it is
    /// entered.
    func path(to component: Component) -> [RegistrationKey] {
        depth > 0 ? pathKeys + [component.key] : []
    }
}
