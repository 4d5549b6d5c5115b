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
    /// A registration and the cells its cached instance lives in.
    final class Entry {
        var component: Component
        /// The cached instance (singleton, registered instance), which lookups read; owned.
        let cell = Cell.allocate()
        /// A `.weak` registration's instance (a ``WeakBox``), apart from `cell`; owned.
        let weakCell = Cell.allocate()
        /// Set when a later registration of the same key replaced this one.
        var replaced = false

        init(_ component: Component) {
            self.component = component
            if let instance = component.instance { cell.preset(instance) }
        }

        deinit {
            cell.deallocate()
            weakCell.deallocate()
        }

        /// Drops the cached instances. A `Container` is used on one thread: nothing reads them
        /// concurrently.
        func dropCache() {
            for cell in [cell, weakCell] {
                if let instance = cell.take() {
                    Unmanaged<AnyObject>.fromOpaque(instance).release()
                }
            }
        }
    }

    private(set) var entries: [RegistrationKey: Entry] = [:]
    /// Every entry in registration order, replaced ones included (and skipped when read).
    private var order: [Entry] = []
    private var catalogCache: Catalog?
    /// The frozen container this one's child registrations fall back to, if any.
    let parent: FrozenContainer?
    /// What tells this container's instances apart in a shared custom-scope storage.
    let scopeOwner = PerfectHashTable.nextGeneration()
    /// Instances taken out of cells (a dead `.weak` box's), kept until no thread reads them.
    let retired = RetiredInstances()

    /// Creates an empty container.
    public init() {
        parent = nil
    }

    /// Creates a container whose registrations shadow `parent`'s (see `FrozenContainer.child`).
    init(parent: FrozenContainer) {
        self.parent = parent
    }

    /// The number of registrations (keys), `.implements` forwards and aliases included.
    public var count: Int { entries.count }

    // MARK: Registering

    /// Registers a factory for `type`.
    ///
    /// The factory receives a ``Resolver`` for its dependencies; use it rather than the
    /// container, so that Frost can follow the path and report cycles.
    ///
    /// - Parameters:
    ///   - type: The type to register under: a concrete type or a protocol.
    ///   - name: A name, to register several components of one type; `nil` for the unnamed one.
    ///   - factory: Makes an instance. Errors it throws reach the caller of `resolve` wrapped
    ///     in ``FrostError`` (``FrostError/Code/factoryFailed``), with the dependency path.
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
    @discardableResult
    public func register<T>(instance: T, name: String? = nil) -> Registration<T> {
        let box = Box(instance)
        return add(
            TypedComponent(
                key: RegistrationKey(T.self, name: name),
                scope: .singleton,
                instance: box,
                factory: .closure { _ in box.value }
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

    /// Implementation detail of `resolve`: one dictionary lookup. Do not call.
    ///
    /// - Parameters:
    ///   - type: The identity of the requested type.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The entry and its cached box, or ``_ResolverLookup/unknown``.
    public func _lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        guard let entry = entries[RegistrationKey(type, name: name)] else { return .unknown }
        return _ResolverLookup(
            location: UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()),
            box: entry.cell.read()
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
        guard let entry = entries[RegistrationKey(T.self, name: name)] else {
            if let parent {
                return try parent._resolve(
                    T.self, name: name, arguments: arguments, argumentType: argumentType)
            }
            throw notRegistered(RegistrationKey(T.self, name: name))
        }
        return try Engine.create(
            target(of: entry), as: T.self, arguments: arguments, argumentType: argumentType)
    }

    /// The entry a lookup found (kept alive by `entries` for the resolve's duration).
    private func entry(at lookup: _ResolverLookup) -> Entry {
        Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: lookup.location)!)
            .takeUnretainedValue()
    }

    private func target(of entry: Entry) -> Target {
        let cell = entry.component.kind == .weak ? entry.weakCell : entry.cell
        return Target(component: entry.component, cell: cell, owner: self)
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
        try Freezer(components: components, parent: parent).freeze()
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
        let entry = Entry(component)
        entries.updateValue(entry, forKey: component.key)?.replaced = true
        order.append(entry)
        catalogCache = nil
    }

    /// Changes the component under `key` in place (keeping its position), dropping its cache.
    func update(_ key: RegistrationKey, _ change: (Component) -> Component) {
        guard let entry = entries[key] else { return }
        entry.component = change(entry.component)
        entry.dropCache()
        if let instance = entry.component.instance { entry.cell.preset(instance) }
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
    }
}

@available(
    *, unavailable, message: "Container is for bootstrap on one thread: freeze() it to share it"
)
extension Container: Sendable {}

extension Container: EngineHost {
    var catalog: Catalog {
        if let catalogCache { return catalogCache }
        let catalog = Catalog(keys: components.map(\.key))
        catalogCache = catalog
        return catalog
    }

    /// Whether `key` is registered here or in the parent.
    func contains(_ key: RegistrationKey) -> Bool {
        entries[key] != nil || (parent?.contains(key) ?? false)
    }

    /// A key with no registration here: a `Lazy` or `Provider` of a registered type, a key of
    /// the parent container, or an error naming what is close.
    func resolveUnregistered<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        if let deferred = try makeDeferred(T.self, name: name) { return deferred as! T }
        if let parent { return try parent.resolve(T.self, name: name) }
        throw notRegistered(RegistrationKey(T.self, name: name))
    }
}
