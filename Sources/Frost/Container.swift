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
/// let frozen = try container.freeze()
/// ```
///
/// Registering a key that is already registered (the same type and name) replaces the earlier
/// registration; the replaced one is forgotten and never reaches the frozen table.
public final class Container: Resolver {
    /// A registration and, once resolved, its cached instance.
    final class Entry {
        var component: Component
        var cached: AnyObject?
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
    private var nextSequence = 0
    private var catalogCache: Catalog?

    /// Creates an empty container.
    public init() {}

    /// The number of registrations (keys), `.implements` forwards included.
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
    /// - Returns: The registration, to set its scope or the types it implements.
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        name: String? = nil,
        factory: @escaping @Sendable (any Resolver) throws -> T
    ) -> Registration<T> {
        let key = RegistrationKey(T.self, name: name)
        store(
            TypedComponent(key: key, scope: .transient, sequence: takeSequence(), factory: factory))
        return Registration(container: self, key: key)
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
        let key = RegistrationKey(T.self, name: name)
        let box = Box(instance)
        let component = TypedComponent(
            key: key,
            scope: .singleton,
            instance: box,
            sequence: takeSequence(),
            factory: { _ in box.value }
        )
        store(component)
        return Registration(container: self, key: key)
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

    // MARK: Freezing

    /// Validates every registration and compiles them into an immutable, thread-safe
    /// ``FrozenContainer``.
    ///
    /// The frozen container has its own caches: singletons resolved from this container
    /// before freezing are not carried over. Registrations made after freezing do not change
    /// it.
    ///
    /// - Returns: The frozen container.
    /// - Throws: ``FrostError`` with ``FrostError/Code/invalidRegistrations`` listing every
    ///   problem found, one error each.
    public func freeze() throws(FrostError) -> FrozenContainer {
        try Freezer(components: components).freeze()
    }

    // MARK: Internals

    private func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// The current registrations, in registration order.
    private var components: [Component] {
        order.compactMap { $0.replaced ? nil : $0.component }
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
        entry.cached = entry.component.instance
    }

    /// Registers `P` (under the name of `key`) as a forward to the registration `key`.
    func addForward<P, T>(to key: RegistrationKey, as type: P.Type, from base: T.Type) {
        guard P.self != T.self else { return }
        let forwardKey = RegistrationKey(P.self, name: key.name)
        let component = TypedComponent<P>(
            key: forwardKey,
            scope: .transient,
            sequence: takeSequence(),
            forwardsTo: key
        ) { resolver in
            let instance = try resolver.resolve(T.self, name: key.name)
            guard let cast = instance as? P else {
                throw FrostError(
                    .typeMismatch,
                    key: forwardKey,
                    detail: "registered with .implements, but an instance of "
                        + "\(String(reflecting: Swift.type(of: instance))) is not a "
                        + String(reflecting: P.self)
                )
            }
            return cast
        }
        store(component)
    }
}

@available(
    *, unavailable, message: "Container is for bootstrap on one thread: freeze() it to share it"
)
extension Container: Sendable {}

extension Container: ComponentStore {
    var catalog: Catalog {
        if let catalogCache { return catalogCache }
        let catalog = Catalog(
            keys: entries.values.map(\.component).sorted { $0.sequence < $1.sequence }.map(\.key))
        catalogCache = catalog
        return catalog
    }

    func lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        guard let entry = entries[RegistrationKey(type, name: name)] else { return .unknown }
        return _ResolverLookup(
            location: UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()),
            box: entry.cached.map { Unmanaged.passUnretained($0).toOpaque() }
        )
    }

    /// The entry a lookup found (kept alive by `entries` for the resolve's duration).
    func location(of lookup: _ResolverLookup) -> Entry? {
        guard lookup.location != _ResolverLookup.unknown.location,
            let pointer = UnsafeRawPointer(bitPattern: lookup.location)
        else { return nil }
        return Unmanaged<Entry>.fromOpaque(pointer).takeUnretainedValue()
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
}
