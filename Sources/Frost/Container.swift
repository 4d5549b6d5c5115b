/// Where an application registers its components at start-up, before it calls ``freeze()``.
///
/// A `Container` resolves too, through a Swift `Dictionary`: handy in tests and scripts, and the
/// baseline the benchmark measures ``FrozenContainer`` against. It is meant for one thread
/// (bootstrap); freeze it to share it.
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
/// registration; the replaced one is forgotten and never reaches the frozen table.
public final class Container: Resolver {
    /// A registration and the cells its cached instance lives in (made on first use: a
    /// container that only configures a child never resolves).
    final class Entry {
        var component: Component
        /// The container the registration is in.
        unowned let owner: Container
        private var cellStorage: Cell?
        private var weakCellStorage: Cell?
        /// Set when a later registration of the same key replaced this one.
        var replaced = false

        init(_ component: Component, owner: Container) {
            self.component = component
            self.owner = owner
        }

        deinit {
            cellStorage?.deallocate()
            weakCellStorage?.deallocate()
        }

        /// The cached instance (singleton, registered instance), which lookups read; owned.
        var cell: Cell {
            if let cellStorage { return cellStorage }
            let cell = Cell.allocate()
            if let instance = component.instance { cell.preset(instance) }
            cellStorage = cell
            return cell
        }

        /// A `.weak` registration's instance (a ``WeakBox``), apart from `cell`; owned.
        var weakCell: Cell {
            if let weakCellStorage { return weakCellStorage }
            let cell = Cell.allocate()
            weakCellStorage = cell
            return cell
        }

        /// Drops the cached instances (a registered instance stays). A `Container` is used on
        /// one thread: nothing reads them concurrently.
        func dropCache() {
            for cell in [cellStorage, weakCellStorage].compactMap({ $0 }) {
                if let instance = cell.take() {
                    Unmanaged<AnyObject>.fromOpaque(instance).release()
                }
            }
            if let instance = component.instance { cellStorage?.preset(instance) }
        }
    }

    // The stored properties are not checked for exclusive access at run time: a `Container` is
    // used on one thread, and the checks cost more than a child's whole configuration.

    @exclusivity(unchecked) private(set) var entries: [RegistrationKey: Entry] = [:]
    /// Every entry in registration order, replaced ones included (and skipped when read).
    @exclusivity(unchecked) private var order: [Entry] = []
    @exclusivity(unchecked) private var catalogCache: Catalog?
    /// The frozen container this one configures a child of, if any (see
    /// `FrozenContainer.child`).
    let parent: FrozenContainer?
    /// The container this one is a child of (see ``child(_:)``), if any.
    let parentContainer: Container?
    /// What tells this container's instances apart in a shared custom-scope storage.
    let scopeOwner = PerfectHashTable.nextGeneration()
    @exclusivity(unchecked) private var retiredStorage: RetiredInstances?
    /// The head of the ``Disposal`` list of this container's instances with `.onDispose`
    /// hooks, made on first use.
    @exclusivity(unchecked) private var disposalHead: Cell?
    /// A child's `.scoped` instances, by registration.
    @exclusivity(unchecked) private var scopedCells: [ObjectIdentifier: Cell] = [:]
    /// For a container that configures a frozen parent's child: the values it supplies for
    /// the parent's provided keys, in the per-child cells the frozen child takes over (no
    /// registration is made for them). Made on the first one.
    @exclusivity(unchecked) private var supplied: ContainerCells?
    /// Whether ``dispose()`` ran.
    @exclusivity(unchecked) private(set) var isDisposed = false

    /// Creates an empty container.
    public init() {
        parent = nil
        parentContainer = nil
    }

    /// Creates a container that configures a child of `parent` (see `FrozenContainer.child`).
    init(parent: FrozenContainer) {
        self.parent = parent
        parentContainer = nil
    }

    /// Creates a child of `parent` that resolves through dictionaries (see ``child(_:)``).
    private init(parentContainer: Container) {
        parent = nil
        self.parentContainer = parentContainer
    }

    deinit {
        if !scopedCells.isEmpty {
            for cell in scopedCells.values { cell.deallocate() }
        }
        supplied?.deallocate()
        if let disposalHead {
            Disposal(head: disposalHead).releaseRecords()
            disposalHead.deallocate()
        }
    }

    /// The number of registrations (keys), `.implements` forwards and aliases included.
    public var count: Int { entries.count + (supplied?.filledIndices.count ?? 0) }

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
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        name: String? = nil,
        factory: @escaping @Sendable (any Resolver) throws -> T
    ) -> Registration<T> {
        add(
            TypedComponent(
                key: RegistrationKey(T.self, name: name),
                scope: .transient,
                factory: .closure(factory)
            )
        )
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
        // Boxed here, where the box's type is known statically: a child that supplies a
        // value per request looks nothing up to make it.
        _register(box: Box(instance), name: name)
    }

    /// Implementation detail of ``register(instance:name:)``. Do not call.
    @usableFromInline
    func _register<T>(box: Box<T>, name: String?) -> Registration<T> {
        let key = RegistrationKey(T.self, name: name)
        if let parent, let index = parent.providedIndex(of: key) {
            supply(box, at: index, for: key)
            return Registration(container: self, key: key)
        }
        return add(
            TypedComponent(
                key: key,
                scope: .singleton,
                instance: box,
                factory: .closure { _ in box.value }
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
    /// let request = try frozen.child { $0.register(instance: user) }
    /// ```
    ///
    /// Resolving it where no child supplies it throws ``FrostError/Code/notProvided``; a
    /// singleton of this container may not depend on it (`freeze()` reports it as a captive
    /// dependency): it would keep the value of whichever child came first.
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
    public func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        try _resolve(_lookUp(ObjectIdentifier(T.self), name: name), T.self, name: name)
    }

    /// Implementation detail of `resolve`: one dictionary lookup (here, then in the parent of a
    /// child). Do not call.
    ///
    /// - Parameters:
    ///   - type: The identity of the requested type.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The entry and its cached box, or ``_ResolverLookup/unknown``.
    public func _lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        guard !isDisposed, let entry = entry(for: RegistrationKey(type, name: name)) else {
            return .unknown
        }
        return _ResolverLookup(
            location: UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()),
            box: entry.component.caches ? entry.cell.read() : nil
        )
    }

    /// Implementation detail of `resolve`: a miss (an error) or an instance to create. Do not
    /// call.
    ///
    /// - Parameters:
    ///   - lookup: The answer of ``_lookUp(_:name:)`` for `type` and `name`.
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The instance.
    /// - Throws: ``FrostError``, as ``resolve(_:name:)`` does.
    public func _resolve<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?
    ) throws(FrostError) -> T {
        guard lookup.found else { return try resolveUnregistered(T.self, name: name) }
        if let box = lookup.box { return _readBox(box, as: T.self) }
        return try Engine.create(target(of: entry(at: lookup)), as: T.self)
    }

    /// Implementation detail of `resolve(_:name:arguments:)`. Do not call.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The registration's name, or `nil`.
    ///   - arguments: Points to a tuple of type `argumentType`, valid during the call.
    ///   - argumentType: The tuple's type.
    /// - Returns: A new instance.
    /// - Throws: ``FrostError``.
    public func _resolve<T>(
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        guard let entry = entry(for: RegistrationKey(T.self, name: name)) else {
            if let parent {
                return try parent._resolve(
                    T.self, name: name, arguments: arguments, argumentType: argumentType)
            }
            let captured = CapturedArguments(pointer: arguments, type: argumentType)
            if let made = try makeDeferred(T.self, name: name, arguments: captured) {
                return made as! T
            }
            throw notRegistered(RegistrationKey(T.self, name: name))
        }
        return try Engine.create(
            target(of: entry), as: T.self, arguments: arguments, argumentType: argumentType)
    }

    /// The entry of `key`: this container's, or, in a child, the nearest parent's.
    func entry(for key: RegistrationKey) -> Entry? {
        if let entry = entries[key] { return entry }
        return parentContainer?.entry(for: key)
    }

    /// The entry a lookup found (kept alive by its container for the resolve's duration).
    func entry(at lookup: _ResolverLookup) -> Entry {
        Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: lookup.location)!)
            .takeUnretainedValue()
    }

    /// What the engine needs to resolve `entry` here: a `.scoped` instance lives in this
    /// container (a child's), a provided key found in a parent was not supplied by a child.
    func target(of entry: Entry) -> Target {
        let component = entry.component
        let cell: Cell?
        switch component.kind {
        case .weak: cell = entry.weakCell
        case .scoped: cell = isChild ? scopedCell(for: component) : nil
        case .provided: cell = nil
        default: cell = entry.cell
        }
        return Target(component: component, cell: cell, owner: entry.owner, context: self)
    }

    /// The cell of this child's `.scoped` instance of `component`.
    private func scopedCell(for component: Component) -> Cell {
        let id = ObjectIdentifier(component)
        if let cell = scopedCells[id] { return cell }
        let cell = Cell.allocate()
        scopedCells[id] = cell
        return cell
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
    /// `FrozenContainer.dispose()`).
    ///
    /// A synchronous `dispose()` cannot wait for an async hook: from the first one it meets
    /// on, it runs the hooks left, in order, in a task it starts; `await dispose()` waits for
    /// every hook.
    /// In async code, write `await dispose()`: this synchronous form is unavailable there, so
    /// that a `defer` or a top-level `main.swift` cannot pick it by mistake and leave async
    /// hooks running after it returns.
    @available(
        *, noasync, message: "in async code, write `await dispose()`: it waits for async hooks"
    )
    public func dispose() {
        guard !isDisposed else { return }
        markDisposed()
        if let disposalHead { Disposal(head: disposalHead).runOnce() }
        releaseCachedInstances()
    }

    /// Refuses resolves from now on.
    func markDisposed() {
        isDisposed = true
    }

    // MARK: Freezing

    /// Validates every registration and compiles them into an immutable, thread-safe
    /// ``FrozenContainer``.
    ///
    /// Freezing checks every dependency it can see without running a factory — autowired
    /// parameters, injected properties, `.implements` and aliases — and reports every missing
    /// registration (with the path that needs it), every cycle (with its members) and every
    /// singleton that would keep a shorter-lived instance, all in one error.
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
            return try Freezer(components: components, parent: parent, supplied: copy).freeze()
        } catch {
            copy?.deallocate()
            throw error
        }
    }

    /// ``freeze()`` for `FrozenContainer.child`, the last use of this container: the frozen
    /// child takes over the supplied values' cells.
    func freezeChild() throws(FrostError) -> FrozenContainer {
        let cells = supplied
        supplied = nil
        do {
            return try Freezer(components: components, parent: parent, supplied: cells).freeze()
        } catch {
            supplied = cells
            throw error
        }
    }

    // MARK: Internals

    /// The current registrations, in registration order.
    var components: [Component] {
        order.compactMap { $0.replaced ? nil : $0.component }
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
        let entry = Entry(component, owner: self)
        entries.updateValue(entry, forKey: component.key)?.replaced = true
        order.append(entry)
        catalogCache = nil
    }

    /// Puts `box`, a child's value for the parent's provided key `key` (per-child index
    /// `index`), in the cell the frozen child will read, replacing an earlier registration of
    /// the key.
    private func supply(_ box: AnyObject, at index: Int, for key: RegistrationKey) {
        if !entries.isEmpty, let replaced = entries.removeValue(forKey: key) {
            replaced.replaced = true
            catalogCache = nil
        }
        let cells =
            supplied ?? ContainerCells(perChildCount: parent.unsafelyUnwrapped.perChildCount)
        supplied = cells
        cells.perChild(index).replace(with: box)
    }

    /// Takes the value supplied for `key` out of its cell (+1), if there is one.
    private func takeSupplied(_ key: RegistrationKey) -> UnsafeMutableRawPointer? {
        guard let supplied, let index = parent?.providedIndex(of: key) else { return nil }
        return supplied.perChild(index).take()
    }

    /// The value supplied for `key`, if there is one.
    private func suppliedBox(for key: RegistrationKey) -> UnsafeMutableRawPointer? {
        guard let supplied, let index = parent?.providedIndex(of: key) else { return nil }
        return supplied.perChild(index).peek()
    }

    /// Makes the value supplied for `key`, of type `T`, an ordinary registration, so that a
    /// ``Registration`` can change it.
    func registerSupplied<T>(_ key: RegistrationKey, as type: T.Type) {
        guard supplied != nil, let taken = takeSupplied(key) else { return }
        let box = Unmanaged<Box<T>>.fromOpaque(taken).takeRetainedValue()
        add(
            TypedComponent(
                key: key, scope: .singleton, instance: box, factory: .closure { _ in box.value }))
    }

    /// Changes the component under `key` in place (keeping its position), dropping its cache.
    func update(_ key: RegistrationKey, _ change: (Component) -> Component) {
        guard let entry = entries[key] else { return }
        entry.dropCache()
        entry.component = change(entry.component)
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
                    try cast(
                        resolver._resolve(
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
        for entry in entries.values where entry.component.instance == nil {
            entry.dropCache()
            entry.component.scope.storage?.removeAll()
        }
        for cell in scopedCells.values {
            if let instance = cell.take() { Unmanaged<AnyObject>.fromOpaque(instance).release() }
        }
    }
}

@available(
    *, unavailable, message: "Container is for bootstrap on one thread: freeze() it to share it"
)
extension Container: Sendable {}

extension Container: EngineHost {
    var catalog: Catalog {
        if let catalogCache { return catalogCache }
        let catalog = Catalog(
            keys: components.map(\.key), parent: parentContainer?.catalog ?? parent?.catalog)
        catalogCache = catalog
        return catalog
    }

    var retired: RetiredInstances {
        if let retiredStorage { return retiredStorage }
        let retired = RetiredInstances()
        retiredStorage = retired
        return retired
    }

    var isChild: Bool { parentContainer != nil || parent != nil }

    func track(_ component: Component, _ instance: AnyObject) {
        Disposal(head: disposalList).track(component, instance)
    }

    func created(_ component: Component, _ box: AnyObject) {
        if component.disposes { track(component, box) }
    }

    /// The head of the list of instances with `.onDispose` hooks, made on first use.
    var disposalList: Cell {
        if let disposalHead { return disposalHead }
        let head = Cell.allocate()
        disposalHead = head
        return head
    }

    func dependencyTarget(of component: Component, _ index: Int) -> Target? {
        guard let entry = entry(for: component.dependencies[index].key) else { return nil }
        return target(of: entry)
    }

    /// Whether `key` is registered here or in a parent.
    func contains(_ key: RegistrationKey) -> Bool {
        entry(for: key) != nil || (parent?.contains(key) ?? false)
    }

    /// A key with no registration here: a `Lazy`, `Provider` or `Optional` of a registered
    /// type, a key of the frozen parent, or an error naming what is close.
    func resolveUnregistered<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        if isDisposed {
            throw FrostError(.disposed, key: RegistrationKey(T.self, name: name))
        }
        if let box = suppliedBox(for: RegistrationKey(T.self, name: name)) {
            return _readBox(box, as: T.self)
        }
        if let made = try makeUnregistered(T.self, name: name) { return made as! T }
        if let parent { return try parent.resolve(T.self, name: name) }
        throw notRegistered(RegistrationKey(T.self, name: name))
    }
}
