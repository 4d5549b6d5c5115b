/// Where an application registers its components at start-up, before it calls ``freeze()``.
///
/// A `Container` resolves too, through a Swift `Dictionary`: handy in tests and scripts, and the
/// baseline the benchmark measures ``FrozenContainer`` against — the lookup is the only thing
/// the two do differently. It is meant for one thread (bootstrap); freeze it to share it.
///
/// ```swift
/// let container = Container()
/// container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
/// container.register(instance: AppConfig(port: 8080))
/// container.register(Database.self, name: "replica") { r in
///     Replica(try r.resolve(AppConfig.self))
/// }
/// container.autowire(UserService.self, UserService.init(logger:db:))
/// let frozen = try container.freeze()
/// ```
///
/// Registering a key that is already registered (the same type and name) replaces the earlier
/// registration; the replaced one is forgotten and never reaches the frozen table. Resolving
/// from the container itself builds, on first use, what it resolves through; a registration
/// made after that starts its caches afresh (instances made so far stay alive until
/// ``dispose()-5eskj`` and a child made so far keeps seeing the registrations it was made with).
public final class Container: Resolver {
    // The stored properties are not checked for exclusive access at run time: a `Container` is
    // used on one thread, and the checks cost more than a child's whole configuration.

    /// Each current registration's position in `order`, for the first `indexed` of them.
    @exclusivity(unchecked) private var entries = KeyPositions()
    /// Every registration in registration order; `nil` where a later registration of the same
    /// key (or a value supplied for it) replaced one.
    @exclusivity(unchecked) private var order: [Component?] = []
    /// How many of `order`'s registrations `entries` covers. Registering appends to `order`
    /// alone; what needs a key's registration, or the current ones, indexes the rest first
    /// (``indexRegistrations()``), in one pass: registering N keys then freezing hashes each
    /// key once, into a table sized for them (``KeyPositions``), instead of once per insert
    /// and again each time the table grows.
    @exclusivity(unchecked) private var indexed = 0
    /// The scope of registrations that name none (`.transient` unless
    /// ``init(defaultScope:)`` says otherwise; a child takes its parent's).
    public let defaultScope: Scope
    /// The frozen container this one configures a child of, if any (see
    /// `FrozenContainer.child`).
    /// (Emptied while the container is its parent's spare configurator: see
    /// `FrozenContainer.child`.)
    @exclusivity(unchecked) private(set) var parent: FrozenContainer?
    /// The container this one is a child of (see ``child(_:)``), if any.
    let parentContainer: Container?
    /// For a child: the values it supplies for its parent's provided keys, in the per-child
    /// cells the child takes over (no registration is made for them). Made on the first one.
    @exclusivity(unchecked) private var supplied: SpaceCells?
    /// What this container resolves through: built on first use, dropped when a registration
    /// changes.
    @exclusivity(unchecked) private var current: _Space?
    /// What it resolved through before its registrations changed: disposed with it.
    @exclusivity(unchecked) private var earlier: [_Space] = []
    /// Whether ``dispose()`` ran.
    @exclusivity(unchecked) private var isDisposed = false

    /// Creates an empty container, whose registrations are `.transient` unless they name
    /// another scope.
    public init() {
        defaultScope = .transient
        parent = nil
        parentContainer = nil
    }

    /// Creates an empty container whose registrations have `defaultScope` unless they name
    /// another: `.graph` is Swinject's and Dip's default (one instance per top-level resolve),
    /// for code that comes from them.
    ///
    /// ```swift
    /// let container = Container(defaultScope: .graph)
    /// container.register(Logger.self) { _ in ConsoleLogger() }   // .graph
    /// container.register(Config.self) { _ in Config() }.scope(.singleton)
    /// ```
    ///
    /// A registration with runtime arguments stays transient (its instances are never kept),
    /// a registered instance is kept, and a child container takes this container's default.
    ///
    /// - Parameters:
    ///   - defaultScope: The scope of registrations that name none.
    public init(defaultScope: Scope) {
        self.defaultScope = defaultScope
        parent = nil
        parentContainer = nil
    }

    /// Creates a container that configures a child of `parent` (see `FrozenContainer.child`).
    init(parent: FrozenContainer) {
        defaultScope = parent.defaultScope
        self.parent = parent
        parentContainer = nil
    }

    /// Creates a child of `parent` that resolves through dictionaries (see ``child(_:)``).
    private init(parentContainer: Container) {
        defaultScope = parentContainer.defaultScope
        parent = nil
        self.parentContainer = parentContainer
    }

    deinit {
        supplied?.deallocate()
    }

    /// The number of registrations (keys), `.implements` forwards and aliases included.
    public var count: Int {
        indexRegistrations()
        return entries.count + (supplied?.filledIndices.count ?? 0)
    }

    // MARK: Registering

    /// Registers a factory for `type`.
    ///
    /// The factory receives a ``Resolver`` for its dependencies; use it rather than the
    /// container, so that Frost can follow the path and report cycles.
    ///
    /// - Parameters:
    ///   - type: The type to register under: a concrete type or a protocol.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - factory: Makes an instance. An error it throws reaches the caller of `resolve`
    ///     wrapped in ``FrostError`` (``FrostError/Code/factoryFailed``), with the dependency
    ///     path; a ``FrostError`` (from a resolve the factory made) passes through as it is.
    /// - Returns: The registration, to set its scope, forwards, injections and hooks.
    @inlinable
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        name: String? = nil,
        factory: @escaping @Sendable (any Resolver) throws -> T
    ) -> Registration<T> {
        // Whether `T` is kept as itself decided here, specialized for `T`; its class named by
        // the generic code (see `registerAutowired`).
        storeClosure(T.self, keptAsItself: _keptAsItself(T.self), name: name, factory: factory)
    }

    /// ``register(_:name:factory:)``'s registration, whose instances are kept as themselves
    /// when `keptAsItself` (a class's), else in boxes.
    @usableFromInline
    func storeClosure<T>(
        _ type: T.Type, keptAsItself: Bool, name: String?,
        factory: @escaping @Sendable (any Resolver) throws -> T
    ) -> Registration<T> {
        add(
            TypedComponent<T>(
                key: RegistrationKey(T.self, name: name), scope: defaultScope,
                factory: .closure(factory), keptAsItself: keptAsItself))
    }

    /// Registers an instance the application made: every resolve returns it.
    ///
    /// - Parameters:
    ///   - instance: The instance. Its static type is the key: write `instance as any Logger`
    ///     (or add `.implements(Logger.self)`) to resolve it through a protocol.
    ///   - name: A name, to register several instances of one type; `nil` for the unnamed one.
    /// - Returns: The registration, to add the types it implements.
    @inlinable
    @discardableResult
    public func register<T>(instance: T, name: String? = nil) -> Registration<T> {
        // Kept here, where `T` is known statically: a child that supplies a value per request
        // looks nothing up to keep it (and a class instance is kept as itself, unboxed).
        register(kept: _keep(instance), as: T.self, keptAsItself: _keptAsItself(T.self), name: name)
    }

    /// ``register(instance:name:)`` with the instance as a cell keeps it (``_keep(_:)``): a
    /// value for a provided key of the parent's fills the child's cell for it; anything else
    /// is a registration.
    @usableFromInline
    func register<T>(kept: AnyObject, as type: T.Type, keptAsItself: Bool, name: String?)
        -> Registration<T>
    {
        let key = RegistrationKey(T.self, name: name)
        // Unretained: this container holds its parent (a request's child supplies its values
        // here, once per request).
        if let parent = parent.map(Unmanaged.passUnretained),
            let (index, count) = parent._withUnsafeGuaranteedRef({ parent in
                parent.providedIndex(of: key).map { ($0, parent.perChildCount) }
            })
        {
            supply(kept, at: index, for: key, perChildCount: count)
            return Registration(container: self, key: key)
        }
        if let parentContainer, let index = parentContainer.space.providedIndex(of: key) {
            supply(kept, at: index, for: key, perChildCount: parentContainer.space.perChildCount)
            return Registration(container: self, key: key)
        }
        return add(instance: kept, of: key, as: T.self, keptAsItself: keptAsItself)
    }

    /// Registers `kept`, an instance of `T` as a cell keeps it, under `key`: a singleton whose
    /// cell is preset.
    private func add<T>(
        instance kept: AnyObject, of key: RegistrationKey, as type: T.Type, keptAsItself: Bool
    )
        -> Registration<T>
    {
        // Immutable, and handed out as every resolve of it hands it out.
        nonisolated(unsafe) let kept = kept
        return add(
            TypedComponent(
                key: key,
                scope: Singleton.scope,
                instance: kept,
                factory: .closure { _ in _kept(kept, as: T.self, itself: keptAsItself) },
                keptAsItself: keptAsItself
            )
        )
    }

    /// Declares a key each child container supplies: the current user, a request id. Resolving
    /// it through a child that registers it (`child { $0.register(instance: user) }`) gives the
    /// child's value, to the child's and to this container's transient, `.graph` and `.scoped`
    /// factories alike; `freeze()` counts it as registered, so what depends on it is checked
    /// at start-up.
    ///
    /// ```swift
    /// container.provided(CurrentUser.self)
    /// container.autowire(TodoHandler.self, TodoHandler.init(service:user:))
    /// // per request:
    /// try await frozen.withChild({ $0.register(instance: user) }) { request in
    ///     try await request.resolve(TodoHandler.self).handle()
    /// }
    /// ```
    ///
    /// Resolving it where no child supplies it throws ``FrostError/Code/notProvided``; a
    /// singleton, `.weak` or custom-scoped registration of this container may not depend on it
    /// (`freeze()` reports it as a captive dependency): it is made here, where no child's value
    /// is seen.
    ///
    /// - Parameters:
    ///   - type: The type each child supplies.
    ///   - name: A name, to provide several values of one type; `nil` for the unnamed one.
    /// - Returns: The registration, to add the types it implements.
    @discardableResult
    public func provided<T>(_ type: T.Type, name: String? = nil) -> Registration<T> {
        let key = RegistrationKey(T.self, name: name)
        return add(
            TypedComponent(
                key: key,
                scope: .provided,
                factory: .closure { _ in throw FrostError(.notProvided, key: key) }
            )
        )
    }

    // MARK: Resolving (through the dictionary)

    /// Resolves the registration of `type` under `name`, through the container's dictionary.
    ///
    /// (The unnamed form, `resolve(_:)`, is ``Resolver``'s.)
    ///
    /// - Parameters:
    ///   - type: The type to resolve, as it was registered.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError`` when nothing is registered for `type` under `name`, on a cycle,
    ///   or when a factory on the path throws.
    @inlinable
    public func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        try _Space.resolve(T.self, name: name, in: Unmanaged.passUnretained(space))
    }

    /// Resolves every registration of `type` (all names, the unnamed one included), in
    /// registration order, once per key, as ``resolve(_:name:)`` would: a child answers its
    /// own new keys first, then its parent's keys, each as the child sees it — a key the child
    /// registers again answers the child's registration (see `FrozenContainer.resolveAll(_:)`).
    ///
    /// - Parameters:
    ///   - type: The type whose registrations to resolve.
    /// - Returns: One instance per registration; empty when there is none.
    /// - Throws: ``FrostError`` when one of them fails to resolve.
    public func resolveAll<T>(_ type: T.Type) throws(FrostError) -> [T] {
        try space.instances(of: T.self)
    }

    /// Implementation detail of ``Resolver``: what this container resolves through (kept
    /// alive by it). Not API.
    public var _space: Unmanaged<_Space>? { Unmanaged.passUnretained(space) }

    /// What this container resolves through: its registrations over a dictionary, built on
    /// first use (by the code `freeze()` uses, without validating: what is missing is reported
    /// when it is resolved).
    @usableFromInline
    var space: _Space {
        if let current { return current }
        let copy = supplied?.copy()
        if registersNothing, let parentSpace {
            let space = _Space(
                childOf: parentSpace,
                cells: (copy ?? SpaceCells(perChildCount: 0)).completed(
                    perChildCount: parentSpace.perChildCount, overrides: 0),
                container: self)
            if isDisposed { space.runDisposal() }
            current = space
            return space
        }
        let parts: SpaceParts
        do {
            parts = try Freezer(
                components: components, parent: parentSpace, supplied: copy,
                lookupKind: .dictionary, validates: false, defaultScope: defaultScope
            ).parts()
        } catch {
            preconditionFailure("a dictionary container is built without validation: \(error)")
        }
        let space = _Space(parts: parts, container: self)
        if isDisposed { space.runDisposal() }
        current = space
        return space
    }

    /// The container this one's chain continues in: the frozen parent it configures a child
    /// of, or the container it is a child of.
    private var parentSpace: _Space? {
        parent ?? parentContainer?.space
    }

    // MARK: Children and disposing

    /// Makes a child of this container that resolves through dictionaries, as a
    /// ``FrozenContainer``'s child does through its table: the child's registrations first,
    /// then this container's, resolved in the child (see `FrozenContainer.child`).
    ///
    /// ```swift
    /// let request = try container.child { $0.register(instance: user) }
    /// ```
    ///
    /// ``withChild(_:_:)-6nsml`` makes a child, runs a body with it and disposes of it on
    /// every path.
    ///
    /// - Parameters:
    ///   - configure: Registers the child's components.
    /// - Returns: The child.
    /// - Throws: What `configure` throws.
    public func child(_ configure: (Container) throws -> Void) rethrows -> Container {
        let child = Container(parentContainer: self)
        try configure(child)
        return child
    }

    /// Runs the `.onDispose` hooks of the instances this container created and caches, in
    /// reverse order of creation, once; then drops every instance it holds. Afterwards,
    /// resolving through this container throws ``FrostError/Code/disposed`` (see
    /// `FrozenContainer.dispose()`, whose rules it keeps).
    ///
    /// A synchronous `dispose()` cannot await an async hook: from the first one it meets on,
    /// it runs the hooks left, in order, in a task, and waits for it unless it is called from
    /// code running in a task. In async code, write `await dispose()`: this synchronous form is
    /// unavailable there, so that a `defer` or a top-level `main.swift` cannot pick it by
    /// mistake.
    @available(
        *, noasync, message: "in async code, write `await dispose()`: it waits for async hooks"
    )
    public func dispose() {
        isDisposed = true
        current?.runDisposal()
        for space in earlier.reversed() { space.runDisposal() }
    }

    /// Runs the `.onDispose` hooks, awaiting the async ones, then drops the instances (see the
    /// synchronous ``dispose()``).
    nonisolated(nonsending)
        public func dispose() async
    {
        isDisposed = true
        await current?.runDisposalAwaiting()
        for space in earlier.reversed() { await space.runDisposalAwaiting() }
    }

    // MARK: Freezing

    /// Validates every registration and compiles them into an immutable, thread-safe
    /// ``FrozenContainer``.
    ///
    /// Freezing checks every dependency it can see without running a factory — autowired
    /// parameters, injected properties, `.implements` and aliases — and reports every missing
    /// registration (with the path that needs it), every cycle (with its members), every
    /// singleton that would keep a shorter-lived instance, and every registration whose
    /// lifetime cannot do what it asks (an `.onDispose` hook on instances that are never
    /// tracked, a value each child supplies needed where no child's value is seen), all in one
    /// error.
    ///
    /// The frozen container has its own caches: singletons resolved from this container
    /// before freezing are not carried over. Registrations made after freezing do not change
    /// it.
    ///
    /// - Returns: The frozen container.
    /// - Throws: ``FrostError`` with ``FrostError/Code/invalidRegistrations``; its
    ///   ``FrostError/problems`` lists every problem found, one error each.
    public func freeze() throws(FrostError) -> FrozenContainer {
        let copy = supplied?.copy()
        do {
            return FrozenContainer(
                parts: try Freezer(
                    components: components, parent: parent, supplied: copy,
                    lookupKind: .perfectHash, validates: true, defaultScope: defaultScope
                ).parts())
        } catch {
            copy?.deallocate()
            throw error
        }
    }

    /// Whether this container, which configured a child that has frozen, is as a new one
    /// configuring a child of the same parent is: nothing registered (the values it supplied
    /// went to the child), nothing resolved, not disposed.
    var isUnusedConfigurator: Bool {
        order.isEmpty && supplied == nil && current == nil && earlier.isEmpty
            && !isDisposed
    }

    /// Makes this unused configurator (``isUnusedConfigurator``) its parent's spare, which does
    /// not keep the parent alive; `parent` (the same) takes it back to configure a child.
    func releaseParent() { parent = nil }

    /// Makes this spare configurator configure a child of `parent` again (the parent that
    /// kept it).
    func configure(childOf parent: FrozenContainer) { self.parent = parent }

    /// ``freeze()`` for `FrozenContainer.child`, the last use of this container: the frozen
    /// child takes over the supplied values' cells.
    func freezeChild() throws(FrostError) -> FrozenContainer {
        let cells = supplied
        supplied = nil
        if registersNothing, let parent = parent.map(Unmanaged.passUnretained) {
            // Only values for provided keys, or nothing: no lookup, no validation. (The parent
            // unretained but by the child: this container holds it meanwhile.)
            return parent._withUnsafeGuaranteedRef { parent in
                FrozenContainer(
                    childOf: parent,
                    cells: (cells ?? parent.cellsForChild()).completed(
                        perChildCount: parent.perChildCount, overrides: 0))
            }
        }
        do {
            return FrozenContainer(
                parts: try Freezer(
                    components: components, parent: parent, supplied: cells,
                    lookupKind: .perfectHash, validates: true, defaultScope: defaultScope
                ).parts())
        } catch {
            supplied = cells
            throw error
        }
    }

    // MARK: Internals

    /// The current registrations, in registration order.
    var components: [Component] {
        indexRegistrations()
        return order.compactMap { $0 }
    }

    /// Whether no registration is current (values supplied for a parent's provided keys
    /// aside).
    private var registersNothing: Bool {
        indexRegistrations()
        return entries.isEmpty
    }

    /// Brings `entries` up to date with `order`: each registration not indexed yet replaces
    /// the earlier one of its key, if any (its place in `order` becomes `nil`).
    @inline(__always)
    private func indexRegistrations() {
        if indexed < order.count { indexNewRegistrations() }
    }

    /// ``indexRegistrations()`` when some are new.
    @inline(never)
    private func indexNewRegistrations() {
        entries.reserveCapacity(entries.count + order.count - indexed)
        for position in indexed..<order.count {
            guard let component = order[position] else { continue }
            if let replaced = entries.updateValue(position, forKey: component.key) {
                order[replaced] = nil
            }
        }
        indexed = order.count
    }

    /// Stores a new registration (replacing one under the same key) and returns its builder.
    @discardableResult
    func add<T>(_ component: TypedComponent<T>) -> Registration<T> {
        store(component)
        return Registration(container: self, key: component.key)
    }

    private func store(_ component: Component) {
        if supplied != nil, let replaced = takeSupplied(component.key) {
            Unmanaged<AnyObject>.fromOpaque(replaced).release()
        }
        // Indexed by key when something needs it (`indexRegistrations()`).
        order.append(component)
        registrationsChanged()
    }

    /// A registration changed: what this container resolves through is built again when next
    /// needed (what it made stays alive until ``dispose()``).
    private func registrationsChanged() {
        guard let current else { return }
        earlier.append(current)
        self.current = nil
    }

    /// Puts `box`, a child's value for the parent's provided key `key` (per-child index
    /// `index`), in the cell the frozen child will read, replacing an earlier registration of
    /// the key.
    private func supply(
        _ box: AnyObject, at index: Int, for key: RegistrationKey, perChildCount: Int
    ) {
        indexRegistrations()
        if !entries.isEmpty, let replaced = entries.removeValue(forKey: key) {
            order[replaced] = nil
        }
        let cells = supplied ?? newCells(perChildCount: perChildCount)
        supplied = cells
        cells.perChild(index).replace(with: box)
        registrationsChanged()
    }

    /// Empty per-child cells for the child this container configures: its frozen parent's
    /// spare block, if it has one.
    private func newCells(perChildCount: Int) -> SpaceCells {
        guard let parent = parent.map(Unmanaged.passUnretained) else {
            return SpaceCells(perChildCount: perChildCount)
        }
        return parent._withUnsafeGuaranteedRef { $0.cellsForChild() }
    }

    /// Takes the value supplied for `key` out of its cell (+1), if there is one.
    private func takeSupplied(_ key: RegistrationKey) -> UnsafeMutableRawPointer? {
        guard let supplied, let index = parentSpace?.providedIndex(of: key) else { return nil }
        return supplied.perChild(index).take()
    }

    /// Makes the value supplied for `key`, of type `T`, an ordinary registration, so that a
    /// ``Registration`` can change it.
    func registerSupplied<T>(_ key: RegistrationKey, as type: T.Type) {
        guard supplied != nil, let taken = takeSupplied(key) else { return }
        _ = add(
            instance: Unmanaged<AnyObject>.fromOpaque(taken).takeRetainedValue(), of: key,
            as: T.self, keptAsItself: _keptAsItself(T.self))
    }

    /// Changes the component under `key` in place (keeping its position). `change` is told
    /// whether this container alone holds the component (no container built from it shares
    /// it), so that it may change the component itself instead of a copy.
    func update(_ key: RegistrationKey, _ change: (Component, Bool) -> Component) {
        // A registration's modifiers (`.scope`, `.implements`, …) follow it: the registration
        // stored last, unless replaced, is the key's, found without hashing the key.
        let index: Int
        if let last = order.last, let component = last, component.key == key {
            index = order.count - 1
        } else {
            indexRegistrations()
            guard let found = entries[key] else { return }
            index = found
        }
        let isUnshared = isKnownUniquelyReferenced(&order[index])
        order[index] = change(order[index]!, isUnshared)
        registrationsChanged()
    }

    /// Registers `P` under `name` as a forward to the registration `key` (whose type is `T`):
    /// resolving it resolves that registration, with the same runtime arguments if any, and
    /// casts the instance to `P`.
    func addForward<P, T>(
        to key: RegistrationKey, as type: P.Type, name: String?, from base: T.Type
    ) {
        let forwardKey = RegistrationKey(P.self, name: name)
        guard forwardKey != key else { return }
        @Sendable func cast(_ instance: T) throws -> P {
            if let cast = instance as? P { return cast }
            throw FrostError(
                .typeMismatch,
                key: forwardKey,
                detail: "registered with .implements, but an instance of "
                    + "\(String(reflecting: Swift.type(of: instance))) is not a "
                    + String(reflecting: P.self)
            )
        }
        let component = TypedComponent<P>(
            key: forwardKey,
            scope: .transient,
            forwardsTo: key,
            dependencies: [Dependency(key: key, kind: .forward, deferred: false, label: "forward")],
            factory: .forward(
                { resolver in try cast(resolver.resolve(T.self, name: key.name)) },
                arguments: { resolver, arguments, argumentType in
                    guard let space = resolver._space?.takeUnretainedValue() else {
                        throw FrostError.takesNoArguments(
                            T.self, name: key.name, resolver: Swift.type(of: resolver))
                    }
                    return try cast(
                        space.resolve(
                            T.self, name: key.name, arguments: arguments,
                            argumentType: argumentType))
                }
            )
        )
        store(component)
    }

    /// Drops the cached instances of singletons, `.weak` and custom scopes (registered
    /// instances stay).
    func releaseCachedInstances() {
        current?.releaseCachedInstances(includingRegistered: false, perChild: true)
    }
}

@available(
    *, unavailable, message: "Container is for bootstrap on one thread: freeze() it to share it"
)
extension Container: Sendable {}
