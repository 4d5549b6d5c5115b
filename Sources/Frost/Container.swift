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
    /// A registration and, once resolved, its cached instance.
    final class Entry {
        var component: Component
        /// The boxed instance of a singleton or registered instance.
        var cached: AnyObject?
        /// The instance of a `.weak` registration, while someone holds it.
        weak var weakCached: AnyObject?
        /// Set when a later registration of the same key replaced this one.
        var replaced = false

        init(_ component: Component) {
            self.component = component
            self.cached = component.instance
        }
    }

    private(set) var entries: [RegistrationKey: Entry] = [:]
    /// Every entry in registration order, replaced ones included (and skipped when read).
    private var order: [Entry] = []
    private var catalogCache: Catalog?
    /// Whether a registration has the `.graph` scope; recomputed after a change.
    private var graphScopeCache: Bool?
    /// The frozen container this one's child registrations fall back to, if any.
    let parent: FrozenContainer?

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
        lookUp(type, name: name)
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
        try resolve(lookup, T.self, name: name)
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
        try resolve(T.self, name: name, arguments: arguments, argumentType: argumentType)
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
        graphScopeCache = nil
    }

    /// Changes the component under `key` in place (keeping its position), dropping its cache.
    func update(_ key: RegistrationKey, _ change: (Component) -> Component) {
        guard let entry = entries[key] else { return }
        entry.component = change(entry.component)
        entry.cached = entry.component.instance
        graphScopeCache = nil
        entry.weakCached = nil
    }

    /// Registers `P` under `name` as a forward to the registration `key` (whose type is `T`).
    func addForward<P, T>(
        to key: RegistrationKey, as type: P.Type, name: String?, from base: T.Type
    ) {
        let forwardKey = RegistrationKey(P.self, name: name)
        guard forwardKey != key else { return }
        let component = TypedComponent<P>(
            key: forwardKey,
            scope: .transient,
            forwardsTo: key,
            dependencies: [Dependency(key: key, deferred: false, label: "forward")],
            factory: .closure { resolver in
                let instance = try resolver.resolve(T.self, name: key.name)
                if let cast = instance as? P { return cast }
                throw FrostError(
                    .typeMismatch,
                    key: forwardKey,
                    detail: "registered with .implements, but an instance of "
                        + "\(String(reflecting: Swift.type(of: instance))) is not a "
                        + String(reflecting: P.self)
                )
            }
        )
        store(component)
    }

    /// Drops the cached instances of singletons, `.weak` and custom scopes (registered
    /// instances stay).
    func releaseCachedInstances() {
        for entry in entries.values {
            entry.cached = entry.component.instance
            entry.weakCached = nil
            entry.component.scope.storage?.removeAll()
        }
    }
}

@available(
    *, unavailable, message: "Container is for bootstrap on one thread: freeze() it to share it"
)
extension Container: Sendable {}

extension Container: ComponentStore {
    var catalog: Catalog {
        if let catalogCache { return catalogCache }
        let catalog = Catalog(keys: components.map(\.key))
        catalogCache = catalog
        return catalog
    }

    var hasGraphScope: Bool {
        if let graphScopeCache { return graphScopeCache }
        let answer = entries.values.contains { $0.component.scope.kind == .graph }
        graphScopeCache = answer
        return answer
    }

    func resolver(for resolution: Resolution<Container>) -> any Resolver {
        DictionaryResolver(resolution: resolution)
    }

    func lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        guard let entry = entries[RegistrationKey(type, name: name)] else { return .unknown }
        return _ResolverLookup(
            location: UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()),
            box: entry.cached.map { Unmanaged.passUnretained($0).toOpaque() }
        )
    }

    func lookUp(slot: UInt32) -> _ResolverLookup {
        .unknown  // a dictionary has no slots: autowired parameters resolve by type here
    }

    var fallback: FrozenContainer? { parent }

    /// The entry a lookup found (kept alive by `entries` for the resolve's duration).
    func location(of lookup: _ResolverLookup) -> Entry {
        Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: lookup.location)!)
            .takeUnretainedValue()
    }

    func cachedBox(at entry: Entry) -> AnyObject? {
        entry.cached
    }

    func component(at entry: Entry) -> Component {
        entry.component
    }

    func createCached(at entry: Entry, in resolution: Resolution<Container>) throws(FrostError)
        -> AnyObject
    {
        if let cached = entry.cached { return cached }
        let box = try resolution.makeBox(entry.component)
        entry.cached = box
        return box
    }

    func weakInstance(
        at entry: Entry,
        in resolution: Resolution<Container>,
        make: () throws(FrostError) -> AnyObject
    ) throws(FrostError) -> AnyObject {
        if let living = entry.weakCached { return living }
        let instance = try make()
        entry.weakCached = instance
        return instance
    }
}
