/// The immutable container `Container.freeze()` returns: every registration compiled into a
/// perfect-hash table of slots.
///
/// Resolving by type hashes the type's 8-byte identity, checks the bound, compares the stored
/// key and reads the slot: no string is built, no lock is taken, no dynamic cast is made. A
/// `FrozenContainer` is `Sendable`; resolve from any number of threads. A singleton's factory
/// runs exactly once, even when many threads ask for it at the same moment; creating it blocks
/// only the resolves of that singleton, never another registration's.
///
/// ```swift
/// let frozen = try container.freeze()
/// let service = try frozen.resolve(UserService.self)
/// let replica = try frozen.resolve(Database.self, name: "replica")
/// let handle = try frozen.handle(for: UserService.self)   // slot found once
/// let fast = try frozen.resolve(handle)                     // no hashing at all
/// ```
public final class FrozenContainer: Resolver, Sendable {
    let table: PerfectHashTable
    /// Every component, in registration order (as installed: autowired ones bound to their
    /// slots); keeps the slots' components alive.
    let components: [Component]
    let catalog: Catalog
    /// The slots of each type's registrations, in registration order: `resolveAll`.
    let slotsByType: [ObjectIdentifier: [UInt32]]
    /// The container this one falls back to (for a child container).
    let parent: FrozenContainer?
    /// Instances taken out of the cells, kept until no thread reads them.
    let retired = RetiredInstances()
    /// The cells of `.weak` registrations, by slot (`nil` for others): a weak instance is kept
    /// apart from its slot's cell, which lookups read as a cached instance.
    private let weakCells: [Cell?]

    init(
        table: PerfectHashTable,
        components: [Component],
        catalog: Catalog,
        slotsByType: [ObjectIdentifier: [UInt32]],
        parent: FrozenContainer?
    ) {
        self.table = table
        self.components = components
        self.catalog = catalog
        self.slotsByType = slotsByType
        self.parent = parent
        var weakCells = [Cell?](repeating: nil, count: table.capacity)
        for slot in 0..<table.capacity {
            guard let index = table.inputIndex(of: UInt32(slot)),
                components[index].kind == .weak, components[index].instance == nil
            else { continue }
            weakCells[slot] = Cell.allocate()
        }
        self.weakCells = weakCells
    }

    deinit {
        for cell in weakCells { cell?.deallocate() }
    }

    /// The number of registrations (keys), `.implements` forwards and aliases included; a
    /// child's parent is not counted.
    public var count: Int { components.count }

    // MARK: Resolving

    /// Resolves the registration of `type` under `name`.
    ///
    /// (The unnamed form, `resolve(_:)`, is ``Resolver``'s, specialized in the caller.)
    ///
    /// - Parameters:
    ///   - type: The type to resolve, as it was registered.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    /// - Returns: The instance: the cached one for a singleton or a registered instance, a new
    ///   one for a transient registration.
    /// - Throws: ``FrostError`` with ``FrostError/Code/notRegistered`` when nothing is
    ///   registered for `type` under `name` (never another type's instance; the message lists
    ///   the names `type` is registered under), ``FrostError/Code/cycle`` when its factories
    ///   depend on themselves, ``FrostError/Code/depthLimit`` past ``Resolver/maximumDepth``
    ///   nested factories, ``FrostError/Code/factoryFailed`` when a factory on the path throws.
    @inlinable
    public func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        // Inlined into the caller, so the cached read is specialized for T: one perfect-hash
        // lookup in Frost, then a read of the box the table owns, without retaining it.
        let lookup = _lookUp(ObjectIdentifier(T.self), name: name)
        if let box = lookup.box { return _readBox(box, as: T.self) }
        return try _resolve(lookup, T.self, name: name)
    }

    /// Implementation detail of `resolve`: one perfect-hash lookup (by the type's 8-byte
    /// identity, or identity and name), verified, and the slot's cached box. Do not call.
    ///
    /// - Parameters:
    ///   - type: The identity of the requested type.
    ///   - name: The registration's name, or `nil`.
    /// - Returns: The slot and its cached box, or ``_ResolverLookup/unknown``.
    public func _lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        lookUp(type, name: name)
    }

    /// Implementation detail of autowiring: the registration in `slot` and its cached box. Do
    /// not call.
    ///
    /// - Parameters:
    ///   - slot: A slot of this container's table.
    /// - Returns: The slot and its cached box.
    public func _lookUp(slot: UInt32) -> _ResolverLookup {
        _ResolverLookup(location: UInt(slot), box: table.cell(at: slot).read())
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
    @inlinable
    public func _resolve<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?
    ) throws(FrostError) -> T {
        // An autowired transient with bound parameters: made by code specialized in the caller.
        if let (frame, component) = rootFrame(for: lookup) {
            return try frame.make(component, as: T.self)
        }
        return try create(lookup, T.self, name: name)
    }

    /// For a top-level creation of an autowired transient with bound parameters: the frame it
    /// is made from, and its component; `nil` when the general path must run (a miss, a cached
    /// instance, another kind of registration).
    @usableFromInline
    func rootFrame(for lookup: _ResolverLookup) -> (_BoundParameters, UnsafeRawPointer)? {
        guard lookup.found, lookup.box == nil else { return nil }
        // Kept alive by `components`; not retained here.
        unowned(unsafe) let component = table.component(
            at: PerfectHashTable.Slot(truncatingIfNeeded: lookup.location))
        guard component.createsDirectly, component.boundSlots != nil else { return nil }
        let frame = _BoundParameters(
            container: Unmanaged.passUnretained(self),
            slotArray: table.slotArray,
            slots: nil,
            context: ResolveContext.current.opaque
        )
        return (frame, UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()))
    }

    /// The general path of `_resolve`: a miss, or an instance to create.
    @usableFromInline
    func create<T>(_ lookup: _ResolverLookup, _ type: T.Type, name: String?) throws(FrostError)
        -> T
    {
        guard lookup.found else { return try resolveUnregistered(T.self, name: name) }
        if let box = lookup.box { return _readBox(box, as: T.self) }
        return try create(
            at: PerfectHashTable.Slot(truncatingIfNeeded: lookup.location), as: T.self)
    }

    /// Creates (or reads) the instance in `slot`, whose key is verified to be `T`'s. A
    /// transient is made right here, with this container as its factory's resolver.
    func create<T>(at slot: UInt32, as type: T.Type) throws(FrostError) -> T {
        // Kept alive by `components`; not retained here.
        unowned(unsafe) let component = table.component(at: slot)
        guard component.createsDirectly else {
            return try Engine.create(target(at: slot), as: T.self)
        }
        return try Engine.createTransient(
            unsafeDowncast(component, to: TypedComponent<T>.self), resolver: self)
    }

    /// What the engine needs to know about `slot`.
    func target(at slot: UInt32) -> Target {
        Target(
            component: table.component(at: slot),
            cell: weakCells[Int(slot)] ?? table.cell(at: slot),
            owner: self)
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
        let lookup = lookUp(ObjectIdentifier(T.self), name: name)
        guard lookup.found else {
            if let parent {
                return try parent._resolve(
                    T.self, name: name, arguments: arguments, argumentType: argumentType)
            }
            throw notRegistered(RegistrationKey(T.self, name: name))
        }
        return try Engine.create(
            target(at: UInt32(truncatingIfNeeded: lookup.location)), as: T.self,
            arguments: arguments, argumentType: argumentType)
    }

    // MARK: Handles

    /// Finds the slot of `type` (and `name`) once, so that later resolves skip hashing.
    ///
    /// For a `.singleton` registration, the singleton is created now if it does not exist yet,
    /// and the handle holds it (as it does a registered instance), so that
    /// ``withResolved(_:_:)`` reads it without reference counting.
    ///
    /// - Parameters:
    ///   - type: The type the handle resolves.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    /// - Returns: A handle valid for this container only.
    /// - Throws: ``FrostError`` with ``FrostError/Code/notRegistered`` when nothing is
    ///   registered for `type` under `name` in this container (a child's handle does not reach
    ///   its parent); for a `.singleton`, the errors of creating it.
    public func handle<T>(for type: T.Type, name: String? = nil) throws(FrostError) -> Handle<T> {
        let key = RegistrationKey(T.self, name: name)
        let slot = table.slot(for: key)
        guard slot != PerfectHashTable.notFound else {
            throw FrostError(.notRegistered, key: key, catalog: catalog)
        }
        guard table.component(at: slot).caches else {
            return Handle(slot: slot, generation: table.generation, held: nil)
        }
        // Created now, so that the handle can hold it (unless a concurrent
        // `releaseCachedInstances()` has already taken it again).
        let value = try create(at: slot, as: T.self)
        let cell = table.cell(at: slot)
        var held: Box<T>?
        if let box = cell.read() {
            held = Unmanaged<Box<T>>.fromOpaque(box).takeUnretainedValue()
        }
        return withExtendedLifetime(value) {
            Handle(slot: slot, generation: table.generation, held: held)
        }
    }

    /// Resolves through a handle: no hashing, one check that the handle is this container's,
    /// one slot read.
    ///
    /// The instance is returned owned, which costs a class instance a retain here and a
    /// release when the caller is done with it; in a hot loop, ``withResolved(_:_:)`` lends a
    /// singleton instead.
    ///
    /// - Parameters:
    ///   - handle: A handle made by this container's ``handle(for:name:)``.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError`` with ``FrostError/Code/foreignHandle`` when the handle was made
    ///   by another container, or the errors of `resolve` raised by factories.
    @inlinable
    public func resolve<T>(_ handle: Handle<T>) throws(FrostError) -> T {
        if let box = cachedBox(handle.slot, generation: handle.generation) {
            return _readBox(box, as: T.self)
        }
        return try resolve(handle: handle)
    }

    /// Lends `body` the instance a handle resolves, without the retain and release that
    /// returning it costs: for a `.singleton` or a registered instance, whose handle holds it,
    /// one check that it is still the cached one and a read of a stored reference, the cost of
    /// reading a stored property by hand.
    ///
    /// ```swift
    /// let logger = try frozen.handle(for: Logger.self)
    /// for line in lines { try frozen.withResolved(logger) { $0.log(line) } }
    /// ```
    ///
    /// Any other handle is resolved as ``resolve(_:)`` resolves it, and its instance lent the
    /// same way.
    ///
    /// - Parameters:
    ///   - handle: A handle made by this container's ``handle(for:name:)``.
    ///   - body: Runs once with the instance (it may keep it).
    /// - Returns: What `body` returns.
    /// - Throws: ``FrostError`` when ``resolve(_:)`` would throw it; whatever `body` throws.
    @inlinable
    public func withResolved<T, R>(_ handle: Handle<T>, _ body: (T) throws -> R) throws -> R {
        if holds(handle.heldAddress, at: handle.slot, generation: handle.generation) {
            return try body(handle.held.unsafelyUnwrapped.value)
        }
        return try body(resolve(handle))
    }

    /// The box cached in a handle's slot (a protected read), if the handle is this container's
    /// and its slot caches one.
    @usableFromInline
    func cachedBox(_ slot: UInt32, generation: UInt64) -> UnsafeMutableRawPointer? {
        guard generation == table.generation else { return nil }
        return table.cell(at: slot).read()
    }

    /// Whether `held` (a handle's held box, or `nil`) is still the box cached in its slot, and
    /// the handle is this container's. Compares addresses only: the handle owns `held`.
    @usableFromInline
    func holds(_ held: UnsafeMutableRawPointer?, at slot: UInt32, generation: UInt64) -> Bool {
        held != nil && generation == table.generation && table.cell(at: slot).peek() == held
    }

    /// The slow path of a handle: refused, or created.
    @usableFromInline
    func resolve<T>(handle: Handle<T>) throws(FrostError) -> T {
        guard handle.generation == table.generation else {
            throw FrostError(.foreignHandle, key: RegistrationKey(T.self, name: nil))
        }
        return try create(at: handle.slot, as: T.self)
    }

    // MARK: Everything of a type

    /// Resolves every registration of `type` (all names, the unnamed one included), in
    /// registration order; a child's own registrations come before its parent's.
    ///
    /// ```swift
    /// let plugins: [any Plugin] = try frozen.resolveAll(Plugin.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type whose registrations to resolve.
    /// - Returns: One instance per registration; empty when there is none.
    /// - Throws: ``FrostError`` when one of them fails to resolve.
    public func resolveAll<T>(_ type: T.Type) throws(FrostError) -> [T] {
        var all: [T] = []
        for slot in slotsByType[ObjectIdentifier(T.self)] ?? [] {
            if let box = table.cell(at: slot).read() {
                all.append(_readBox(box, as: T.self))
            } else {
                all.append(try create(at: slot, as: T.self))
            }
        }
        if let parent { all += try parent.resolveAll(T.self) }
        return all
    }

    // MARK: Lookups

    /// Whether a registration exists for `type` under `name` (here or in a parent).
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    /// - Returns: `true` when resolving it would find a registration.
    public func contains<T>(_ type: T.Type, name: String? = nil) -> Bool {
        contains(RegistrationKey(T.self, name: name))
    }

    /// Whether a registration exists under a canonical key: the qualified type name
    /// (`String(reflecting:)`), plus `#name` for a named registration.
    ///
    /// - Parameters:
    ///   - canonicalKey: A key such as `"MyApp.Database#replica"`.
    /// - Returns: `true` when a registration (here or in a parent) has that key.
    public func contains(canonicalKey: String) -> Bool {
        catalog.contains(canonicalName: canonicalKey)
            || (parent?.contains(canonicalKey: canonicalKey) ?? false)
    }

    // MARK: Children and releasing

    /// Makes a child container: its registrations shadow this container's, and everything
    /// else falls back to this one (a request scope for a server, an override in a test).
    ///
    /// Freezing the child builds a table of the child's registrations only; this container's
    /// table is untouched, and its singletons stay shared. This container's factories never
    /// see the child's registrations.
    ///
    /// ```swift
    /// let request = try frozen.child { c in c.register(instance: currentRequest) }
    /// ```
    ///
    /// - Parameters:
    ///   - configure: Registers the child's components.
    /// - Returns: The frozen child.
    /// - Throws: ``FrostError`` when freezing the child finds problems (a dependency missing
    ///   from both the child and this container, for instance), or what `configure` throws,
    ///   wrapped.
    public func child(_ configure: (Container) throws -> Void) throws(FrostError) -> FrozenContainer
    {
        let container = Container(parent: self)
        do {
            try configure(container)
        } catch let error as FrostError {
            throw error
        } catch {
            throw FrostError(
                .factoryFailed, key: nil, detail: "configuring a child container", underlying: error
            )
        }
        return try container.freeze()
    }

    /// Drops the cached instances of singletons, `.weak` registrations and custom scopes (not
    /// registered instances): the next resolve of each creates a new one.
    ///
    /// Safe while other threads resolve, through types and handles: an instance is released
    /// only once no thread can still be reading it (each read is announced through the reading
    /// thread's hazard pointer first), so no resolve ever gets an instance whose `deinit` ran.
    /// An instance another thread is reading right now is released by a later call, or with
    /// the container.
    public func releaseCachedInstances() {
        var taken: [(instance: UnsafeMutableRawPointer, cell: Cell)] = []
        var storages: [ObjectIdentifier: any ScopeStorage] = [:]
        for slot in 0..<PerfectHashTable.Slot(table.capacity) {
            guard let index = table.inputIndex(of: slot) else { continue }
            let component = components[index]
            if let storage = component.scope.storage {
                storages[ObjectIdentifier(storage)] = storage
            }
            guard component.instance == nil, component.kind == .singleton || component.kind == .weak
            else { continue }
            let cell = weakCells[Int(slot)] ?? table.cell(at: slot)
            if let instance = cell.take() { taken.append((instance, cell)) }
        }
        retired.retire(taken)
        // The application's code: no lock is held.
        for storage in storages.values { storage.removeAll() }
    }
}

extension FrozenContainer: EngineHost {
    var scopeOwner: UInt64 { table.generation }

    /// Finds a registration of this container: by the type's identity, or identity and name.
    @inline(__always)
    func lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        guard let name else {
            // A miss answers location UInt.max: what `_ResolverLookup.unknown` is.
            let found = table.find(identity: UInt64(UInt(bitPattern: type)))
            return _ResolverLookup(location: found.location, box: found.instance)
        }
        return lookUp(type, named: name)
    }

    /// A named lookup, kept out of line so that the unnamed one (the common case) stays a
    /// short function: no registers to save for the name's bytes.
    @inline(never)
    func lookUp(_ type: ObjectIdentifier, named name: String) -> _ResolverLookup {
        let slot = table.slot(identity: UInt64(UInt(bitPattern: type)), name: name)
        return slot == PerfectHashTable.notFound ? .unknown : _lookUp(slot: slot)
    }

    /// Whether `key` is registered here or in a parent.
    func contains(_ key: RegistrationKey) -> Bool {
        table.slot(for: key) != PerfectHashTable.notFound || (parent?.contains(key) ?? false)
    }

    /// The registration of `key` here or in a parent, if any.
    func registration(for key: RegistrationKey) -> Component? {
        let slot = table.slot(for: key)
        if slot != PerfectHashTable.notFound { return table.component(at: slot) }
        return parent?.registration(for: key)
    }

    /// A key with no registration here: a `Lazy` or `Provider` of a registered type, a key of
    /// the parent container, or an error naming what is close.
    func resolveUnregistered<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        if let deferred = try makeDeferred(T.self, name: name) { return deferred as! T }
        if let parent { return try parent.resolve(T.self, name: name) }
        throw notRegistered(RegistrationKey(T.self, name: name))
    }
}
