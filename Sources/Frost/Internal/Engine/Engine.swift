/// The resolution engine both containers share. One verb per stage:
/// - **find**: a container's lookup answers where a registration is (a slot, an entry) and its
///   cached instance, if any (`_lookUp`, `PerfectHashTable.find`);
/// - **read**: a cached instance is copied out of its box without retaining the box
///   (``_readBox(_:as:)``, the one spelling of that read);
/// - **create**: an instance is made according to its registration's scope (``create(_:as:)``,
///   this type).
///
/// The rules it keeps (the design document's "Engine rules"):
/// - no lock is held while a factory, a hook or a custom storage runs; only a resolve of the
///   same cell waits for its creation, and a wait that would close a circle between threads
///   fails with `.cycle` (``Cell/begin(for:stale:)``);
/// - a cached instance is made once, and a resolve is never redone: the calling thread's path
///   (``ResolveContext``) finds cycles exactly and bounds the depth;
/// - a cached instance is read only under the reader's hazard pointer, so a concurrent
///   `releaseCachedInstances()` never frees one that is being read (``RetiredInstances``);
/// - a custom storage's answer is checked: it must be the registration's instance type.
enum Engine {
    /// The instance of `target`: read from its cell or created, according to its scope.
    ///
    /// A singleton, `.weak` or custom-scoped registration is made in the container it belongs
    /// to (`target.owner`) and resolves its dependencies there; a transient, `.graph` or
    /// `.scoped` one is made in the container the resolve is in (`target.context`, a child
    /// when resolved through one) and sees that container's registrations.
    static func create<T>(_ target: Target, as type: T.Type) throws(FrostError) -> T {
        let component = target.component
        if target.context.isDisposed || target.owner.isDisposed {
            throw disposed(component)
        }
        if component.isAsync { return try madeByAnAwaitedResolve(target, as: T.self) }
        if component.caches {
            return try cached(target, as: T.self, resolver: target.owner, tracker: target.owner)
        }
        switch component.kind {
        case .transient, .singleton:
            return try createTransient(
                unsafeDowncast(component, to: TypedComponent<T>.self), resolver: target.context)
        case .graph:
            return try graph(target, as: T.self)
        case .weak:
            return try weak(target, as: T.self)
        case .custom:
            return try custom(target, as: T.self)
        case .scoped:
            guard target.context.isChild, target.cell != nil else {
                throw FrostError(
                    .outsideChild, key: component.key, path: pathTo(component))
            }
            return try cached(target, as: T.self, resolver: target.context, tracker: target.context)
        case .provided:
            guard let box = target.cell?.read() else {
                throw FrostError(.notProvided, key: component.key, path: pathTo(component))
            }
            return _readBox(box, as: T.self)
        }
    }

    /// Makes a new instance of a transient registration, whose factory resolves from
    /// `resolver` (the container the resolve is in).
    @inline(__always)
    static func createTransient<T>(_ component: TypedComponent<T>, resolver: any Resolver)
        throws(FrostError) -> T
    {
        try ResolveContext.current.entering(component) { try component.make(resolver) }
    }

    /// Makes an instance of a registration that takes runtime arguments (never cached).
    static func create<T>(
        _ target: Target,
        as type: T.Type,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        let typed = unsafeDowncast(target.component, to: TypedComponent<T>.self)
        if target.context.isDisposed || target.owner.isDisposed { throw disposed(typed) }
        return try ResolveContext.current.entering(typed) {
            try typed.make(target.context, arguments: arguments, type: argumentType)
        }
    }

    // MARK: Scopes

    /// A singleton, a registered instance or a `.scoped` instance: created once, in its cell,
    /// by a factory that resolves from `resolver`; `tracker` runs its `.onDispose` hooks.
    private static func cached<T>(
        _ target: Target,
        as type: T.Type,
        resolver: any EngineHost,
        tracker: any EngineHost
    ) throws(FrostError) -> T {
        switch try cachedInstance(target, resolver: resolver, tracker: tracker) {
        case .read(let box): _readBox(box, as: T.self)
        case .made(let box): unsafeDowncast(box, to: Box<T>.self).value
        }
    }

    /// Makes the cached instance of `target` — a singleton's, a `.scoped` one's — unless it is
    /// made already: `bootstrap()`'s synchronous step.
    static func make(_ target: Target) throws(FrostError) {
        let component = target.component
        if target.context.isDisposed || target.owner.isDisposed { throw disposed(component) }
        if component.isAsync {
            guard target.cell?.peek() != nil else { throw asyncRequired(component) }
            return
        }
        let host = component.kind == .scoped ? target.context : target.owner
        _ = try cachedInstance(target, resolver: host, tracker: host)
    }

    /// What ``cachedInstance(_:resolver:tracker:)`` found.
    private enum CachedInstance {
        /// The box in the cell, from a protected read: copy its value out before reading any
        /// other cell.
        case read(UnsafeMutableRawPointer)
        /// The box this resolve made (or is finishing).
        case made(AnyObject)
    }

    /// The box of a cached registration's instance, read from its cell or made into it.
    private static func cachedInstance(
        _ target: Target,
        resolver: any EngineHost,
        tracker: any EngineHost
    ) throws(FrostError) -> CachedInstance {
        let context = ResolveContext.current
        let cell = target.cell.unsafelyUnwrapped
        switch cell.begin(for: context) {
        case .ready(let box):
            return .read(box)
        case .create:
            let box: AnyObject
            do {
                box = try makeBox(target.component, resolver: resolver, cell: cell, in: context)
            } catch {
                cell.end(for: context, publishing: nil)
                throw error
            }
            cell.end(for: context, publishing: box)
            tracker.created(target.component, box)
            return .made(box)
        case .own:
            // Its own resolve re-entered it while injecting its properties: the instance is
            // made, and is what the re-entry gets. Earlier (in its factory) it is a cycle.
            if let box = context.state.provisionalBox(for: cell.address) { return .made(box) }
            throw context.cycle(closedBy: target.component.key)
        case .cycle:
            throw crossThreadCycle(target.component, context)
        case .async:
            throw madeByAnotherTask(target.component)
        }
    }

    /// An async registration, resolved synchronously: its cached instance if an awaited
    /// resolve made it, else `.asyncRequired`.
    private static func madeByAnAwaitedResolve<T>(_ target: Target, as type: T.Type)
        throws(FrostError) -> T
    {
        let component = target.component
        var cell: Cell?
        switch component.kind {
        case .singleton: cell = target.cell
        case .scoped: cell = target.context.isChild ? target.cell : nil
        default: break
        }
        if let box = cell?.read() { return _readBox(box, as: T.self) }
        throw asyncRequired(component)
    }

    /// Constructs and finishes a boxed instance of `component` in `context`'s path. While it
    /// is being finished it is provisional: a re-entry of its cell on this thread gets it.
    static func makeBox(
        _ component: Component,
        resolver: any EngineHost,
        cell: Cell?,
        in context: ResolveContext
    ) throws(FrostError) -> AnyObject {
        try context.entering(component) {
            let box = try component.constructBox(resolver)
            guard component.finishes else { return box }
            guard let cell else {
                try component.finishBox(box, resolver)
                return box
            }
            let state = context.state
            state.provisional.append((cell.address, box))
            defer { state.provisional.removeLast() }
            try component.finishBox(box, resolver)
            return box
        }
    }

    /// A `.graph` registration: one instance per top-level resolve, shown to the resolve as
    /// soon as its factory returns (objects that point at each other through injected
    /// properties resolve).
    private static func graph<T>(_ target: Target, as type: T.Type) throws(FrostError) -> T {
        let context = ResolveContext.current
        let component = unsafeDowncast(target.component, to: TypedComponent<T>.self)
        let key = GraphKey(
            component: ObjectIdentifier(component), container: ObjectIdentifier(target.context))
        if context.depth > 0, let box = context.state.graph[key] {
            return unsafeDowncast(box, to: Box<T>.self).value
        }
        return try context.entering(component) {
            let instance = try component.construct(target.context)
            context.state.graph[key] = Box(instance)
            context.keepUntilTheResolveEnds()
            if component.finishes { try component.finish(instance, target.context) }
            return instance
        }
    }

    /// A `.weak` registration: the living instance, or a new one once the last holder let the
    /// previous one go. Its cell holds a ``WeakBox``; a dead one is replaced, then retired.
    private static func weak<T>(_ target: Target, as type: T.Type) throws(FrostError) -> T {
        let context = ResolveContext.current
        let component = target.component
        let cell = target.cell.unsafelyUnwrapped
        while true {
            var stale: UnsafeMutableRawPointer?
            if let box = cell.read() {
                if let object = Unmanaged<WeakBox>.fromOpaque(box).takeUnretainedValue().object {
                    return try cast(object, as: T.self, component)
                }
                stale = box
            }
            switch cell.begin(for: context, stale: stale) {
            case .ready:
                continue  // another thread made one meanwhile: read it (it may have died again)
            case .create:
                let object: AnyObject
                do {
                    object = try context.entering(component) {
                        let object = try component.constructObject(target.owner)
                        guard component.finishes else { return object }
                        let state = context.state
                        state.provisional.append((cell.address, WeakBox(object)))
                        defer { state.provisional.removeLast() }
                        try component.finishObject(object, target.owner)
                        return object
                    }
                } catch {
                    cell.end(for: context, publishing: nil)
                    throw error
                }
                if let replaced = cell.end(for: context, publishing: WeakBox(object)) {
                    target.owner.retired.retire(replaced, from: cell)
                }
                if component.disposes { target.owner.track(component, WeakBox(object)) }
                return try cast(object, as: T.self, component)
            case .own:
                if let box = context.state.provisionalBox(for: cell.address) as? WeakBox,
                    let object = box.object
                {
                    return try cast(object, as: T.self, component)
                }
                throw context.cycle(closedBy: component.key)
            case .cycle:
                throw crossThreadCycle(component, context)
            case .async:
                throw madeByAnotherTask(component)
            }
        }
    }

    /// A custom scope: the storage keeps the instance, under a key that names this container;
    /// what it answers is checked.
    private static func custom<T>(_ target: Target, as type: T.Type) throws(FrostError) -> T {
        let component = target.component
        let context = ResolveContext.current
        guard let storage = component.scope.storage else {
            preconditionFailure("a custom scope has a storage")
        }
        let key = ScopeKey(registration: component.key, container: target.owner.scopeOwner)
        let object: AnyObject
        do {
            object = try storage.instance(forKey: key) {
                try Engine.makeBox(component, resolver: target.owner, cell: nil, in: context)
            }
        } catch let error as FrostError {
            throw error
        } catch {
            throw FrostError(
                .factoryFailed, key: component.key, path: context.pathKeys + [component.key],
                detail: "the custom scope's storage (\(Swift.type(of: storage))) threw",
                underlying: error)
        }
        guard let box = object as? Box<T> else {
            throw FrostError(
                .typeMismatch, key: component.key, path: context.pathKeys + [component.key],
                detail: "its custom scope's storage (\(Swift.type(of: storage))) answered "
                    + "\(describe(object)) for \(key), not the instance it made")
        }
        return box.value
    }

    // MARK: Errors

    /// The path to `component`, about to be created: for an error that names it.
    static func pathTo(_ component: Component) -> [RegistrationKey] {
        let context = ResolveContext.current
        return context.depth > 0 ? context.pathKeys + [component.key] : []
    }

    /// The error of resolving through a disposed container.
    static func disposed(_ component: Component) -> FrostError {
        FrostError(.disposed, key: component.key, path: pathTo(component))
    }

    /// The error of resolving synchronously what only an awaited resolve can make.
    static func asyncRequired(_ component: Component) -> FrostError {
        FrostError(.asyncRequired, key: component.key, path: pathTo(component))
    }

    /// The error of a synchronous resolve that meets a creation an awaited resolve has begun:
    /// it cannot wait for it without maybe blocking the thread that creation needs.
    static func madeByAnotherTask(_ component: Component) -> FrostError {
        FrostError(
            .asyncRequired, key: component.key, path: pathTo(component),
            detail: "is being made by an awaited resolve in another task")
    }

    /// The error of a wait that would close a circle of threads waiting for each other.
    static func crossThreadCycle(_ component: Component, _ context: ResolveContext)
        -> FrostError
    {
        FrostError(
            .cycle, key: component.key, path: context.pathKeys + [component.key],
            detail: "another thread is creating it and waits, through other registrations, "
                + "for what this thread is creating")
    }

    /// `object`, a `.weak` registration's instance, as a `T`.
    private static func cast<T>(_ object: AnyObject, as type: T.Type, _ component: Component)
        throws(FrostError) -> T
    {
        if let value = object as? T { return value }
        throw FrostError(
            .typeMismatch, key: component.key,
            detail: "the weakly kept instance (\(describe(object))) is not a \(T.self)")
    }

    private static func describe(_ object: AnyObject) -> String {
        "an instance of \(String(reflecting: Swift.type(of: object)))"
    }
}

/// A registration found in a container, as the engine needs it. It lives for one resolve,
/// whose caller holds the containers, which hold the component: they are referenced without
/// retaining them.
struct Target {
    /// The registration.
    unowned(unsafe) let component: Component
    /// Where its instance is cached: a slot's cell, an entry's, a `.weak` registration's side
    /// cell, or, for a per-child key, the child's cell (for a provided key, the cell of the
    /// nearest child that supplies it: `nil` when none does).
    let cell: Cell?
    /// The container the registration belongs to: where a singleton, `.weak` or custom-scoped
    /// instance lives, and what its factory resolves from.
    unowned(unsafe) let owner: any EngineHost
    /// The container the resolve is in: what a transient, `.graph` or `.scoped` factory
    /// resolves from, and where a `.scoped` instance lives.
    unowned(unsafe) let context: any EngineHost
}

/// A container the engine resolves in: a ``FrozenContainer`` or a ``Container``.
protocol EngineHost: AnyObject, Resolver {
    /// Instances taken out of this container's cells, kept until no thread reads them.
    var retired: RetiredInstances { get }
    /// What tells this container's instances apart in a custom storage shared with others.
    var scopeOwner: UInt64 { get }
    /// The keys registered here, for near misses in error messages.
    var catalog: Catalog { get }
    /// Whether `key` is registered here or in a parent.
    func contains(_ key: RegistrationKey) -> Bool
    /// Whether this is a child container (one that `.scoped` instances belong to).
    var isChild: Bool { get }
    /// Whether `dispose()` ran.
    var isDisposed: Bool { get }
    /// Remembers, for `dispose()`, an instance of `component` whose creation just completed
    /// (its `Box`, or a `WeakBox` for a `.weak` registration).
    func track(_ component: Component, _ instance: AnyObject)
    /// Records the box of a singleton or `.scoped` instance whose creation just completed:
    /// for `dispose()` when it has hooks, in the log of singletons.
    func created(_ component: Component, _ box: AnyObject)
    /// What `component`'s declared dependency at `index` resolves to here (`nil`: nothing is
    /// registered for it), for the async engine's prefetch.
    func dependencyTarget(of component: Component, _ index: Int) -> Target?
}
