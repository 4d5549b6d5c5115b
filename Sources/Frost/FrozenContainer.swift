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
/// let request = try frozen.child { $0.register(instance: currentUser) }   // per request
/// ```
public final class FrozenContainer: Resolver, Sendable {
    /// The table of this container's own keys (for a child, the keys its parent does not
    /// know; a child with none shares an empty table).
    let table: PerfectHashTable
    /// Every own component, in registration order (as installed: autowired ones bound to
    /// their slots); keeps the slots' components alive.
    let components: [Component]
    /// The container this one is a child of.
    let parent: FrozenContainer?
    /// `parent`, unretained: what lookups through a child follow (`parent` keeps it alive).
    let parentReference: Unmanaged<FrozenContainer>?
    /// Whether this is a child: `.scoped` instances and provided values belong to it.
    let isChild: Bool
    /// The slot number of the own table's first slot, in this container's slot space: 0 for a
    /// root; for a child, its parent's ``spaceSize`` (see ``FrozenContainer+Children``).
    let base: UInt32
    /// The cells this container owns besides its table's.
    let cells: ContainerCells
    /// How many per-child keys (`.scoped`, provided) this container's slot space has: the
    /// number of per-child cells each of its children has.
    let perChildCount: Int
    /// A child's registrations of keys its parent knows.
    let overrides: Overrides?
    /// The cells of `.weak` registrations, by own slot (`nil` for others): a weak instance is
    /// kept apart from its slot's cell, which lookups read as a cached instance.
    let weakCells: [Cell?]
    /// The slots of each type's own registrations, in registration order: `resolveAll`.
    let slotsByType: [ObjectIdentifier: [UInt32]]
    /// The own keys, for error messages (a child adds its parent's).
    let ownCatalog: Catalog
    /// A process-wide unique number: handles and custom scopes tell containers apart by it.
    let generation: UInt64
    /// The provided keys of this container's space, for ``providedIndex(of:)``.
    let providedKeys: [ProvidedKey]

    init(
        table: PerfectHashTable,
        components: [Component],
        parent: FrozenContainer?,
        perChildCount: Int,
        overrides: Overrides?,
        slotsByType: [ObjectIdentifier: [UInt32]],
        catalog: Catalog,
        cells: ContainerCells
    ) {
        self.table = table
        self.components = components
        self.parent = parent
        self.parentReference = parent.map { Unmanaged.passUnretained($0) }
        self.isChild = parent != nil
        self.base = parent?.spaceSize ?? 0
        self.perChildCount = perChildCount
        self.overrides = overrides
        self.slotsByType = slotsByType
        self.ownCatalog = catalog
        self.generation = PerfectHashTable.nextGeneration()
        self.cells = cells
        self.providedKeys =
            components.isEmpty && overrides == nil
            ? parent?.providedKeys ?? []
            : Self.providedKeys(
                parent: parent, table: table, components: components, overrides: overrides)
        var weakCells: [Cell?] = []
        if components.contains(where: { $0.kind == .weak && $0.instance == nil }) {
            weakCells = [Cell?](repeating: nil, count: table.capacity)
            for slot in 0..<table.capacity {
                guard let index = table.inputIndex(of: UInt32(slot)),
                    components[index].kind == .weak, components[index].instance == nil
                else { continue }
                weakCells[slot] = Cell.allocate()
            }
        }
        self.weakCells = weakCells
    }

    deinit {
        for cell in weakCells { cell?.deallocate() }
        cells.deallocate()
    }

    /// The number of registrations (keys), `.implements` forwards and aliases included; a
    /// child counts its own, not its parent's.
    public var count: Int { components.count + (overrides?.components.count ?? 0) }

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
    ///   nested factories, ``FrostError/Code/factoryFailed`` when a factory on the path throws,
    ///   ``FrostError/Code/outsideChild`` or ``FrostError/Code/notProvided`` for a per-child
    ///   key resolved outside a child that supplies it, ``FrostError/Code/disposed`` after
    ///   ``dispose()-59wgz``.
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
        guard isChild else { return lookUp(type, name: name) }
        return lookUpInChild(type, name: name)
    }

    /// Implementation detail of autowiring: the registration in `slot` and its cached box. Do
    /// not call.
    ///
    /// - Parameters:
    ///   - slot: A slot of this container's slot space.
    /// - Returns: The slot and its cached box.
    public func _lookUp(slot: UInt32) -> _ResolverLookup {
        guard isChild else { return lookUp(slot: slot) }
        return lookUpInChild(spaceSlot: slot)
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
        // A transient made through bound parameters or by a closure: made by code specialized
        // in the caller.
        if let (frame, component) = rootFrame(for: lookup) {
            return try frame.makeAtRoot(component, as: T.self)
        }
        if !lookup.found { return try resolveMiss(T.self, name: name) }
        return try create(lookup, T.self)
    }

    /// A key with no registration here, by code specialized for `T` (not inlined): for a
    /// `Lazy` or `Provider`, whose conformance to ``DeferredResolving`` the compiler then
    /// knows, without the cast the general path makes.
    @inlinable
    @inline(never)
    func resolveMiss<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        if TypeKind.mayBeFrostType(T.self), let deferred = T.self as? any DeferredResolving.Type {
            return try resolveDeferred(deferred, as: T.self, name: name)
        }
        return try resolveUnregistered(T.self, name: name)
    }

    /// A `Lazy` or `Provider` over this container (`deferred`, not registered here), as
    /// ``resolveUnregistered(_:name:)`` makes it. `D` is `T`, opened from `T.self`: the code
    /// specialized for `T` makes it directly and casts nothing.
    @inlinable
    func resolveDeferred<D: DeferredResolving, T>(
        _ deferred: D.Type, as type: T.Type, name: String?
    ) throws(FrostError) -> T {
        try admitDeferred(D.self, name: name)
        let made = D.make(container: self, name: name, arguments: nil)
        // The same type (see above): a reinterpretation, not a conversion.
        return unsafeBitCast(made, to: T.self)
    }

    /// Throws what resolving `deferred` here fails with: `.disposed` after `dispose()`,
    /// `.notRegistered` when nothing registers its wrapped type under `name`.
    @usableFromInline
    func admitDeferred(_ deferred: any DeferredResolving.Type, name: String?) throws(FrostError) {
        if isDisposed { throw FrostError(.disposed, key: RegistrationKey(deferred, name: name)) }
        try checkWrappedRegistered(deferred, name: name)
    }

    /// For a top-level creation of a transient made through bound parameters or by a closure
    /// (``Component/createsAtRoot``): the frame it is made from, and its component; `nil` when
    /// the general path must run (a miss, a cached instance, another kind of registration, a
    /// disposed container).
    @usableFromInline
    func rootFrame(for lookup: _ResolverLookup) -> (_BoundParameters, UnsafeRawPointer)? {
        guard let component = rootComponent(for: lookup),
            Unmanaged<Component>.fromOpaque(component)._withUnsafeGuaranteedRef({
                $0.createsAtRoot
            })
        else { return nil }
        return (rootFrame(), component)
    }

    /// As ``rootFrame(for:)``, for a registration that takes runtime arguments and whose
    /// factory is called directly (``Component/takesArgumentsAtRoot``).
    @usableFromInline
    func argumentsFrame(for lookup: _ResolverLookup) -> (_BoundParameters, UnsafeRawPointer)? {
        guard let component = rootComponent(for: lookup),
            Unmanaged<Component>.fromOpaque(component)._withUnsafeGuaranteedRef({
                $0.takesArgumentsAtRoot
            })
        else { return nil }
        return (rootFrame(), component)
    }

    /// The registration a lookup found, for a creation at the top of a resolve: `nil` for a
    /// miss, a cached instance, or a registration of a disposed container (this one or, for a
    /// child, the parent that owns it).
    @inline(__always)
    private func rootComponent(for lookup: _ResolverLookup) -> UnsafeRawPointer? {
        guard lookup.found, lookup.box == nil, !cells.isDisposed else { return nil }
        let slot = UInt32(truncatingIfNeeded: lookup.location)
        // Kept alive by its container, which this one holds; not retained here.
        guard isChild else { return table.componentPointer(at: slot) }
        let place = place(ofSpaceSlot: slot)
        // A disposed parent's registration: the engine refuses it.
        guard !place.owner._withUnsafeGuaranteedRef({ $0.cells.isDisposed }) else { return nil }
        return place.component
    }

    /// The frame a creation at the top of a resolve starts from.
    @inline(__always)
    private func rootFrame() -> _BoundParameters {
        _BoundParameters(
            container: Unmanaged.passUnretained(self),
            slotArray: frameSlots,
            slots: nil,
            context: ResolveContext.current.opaque
        )
    }

    /// The general path of `_resolve` for a key found here (a miss went to `resolveMiss`): the
    /// cached instance, or an instance to create.
    @usableFromInline
    func create<T>(_ lookup: _ResolverLookup, _ type: T.Type) throws(FrostError) -> T {
        if let box = lookup.box { return _readBox(box, as: T.self) }
        return try create(at: UInt32(truncatingIfNeeded: lookup.location), as: T.self)
    }

    /// Creates (or reads) the instance in `slot` of this container's slot space, whose key is
    /// verified to be `T`'s. A transient of this container's own is made right here, with
    /// this container as its factory's resolver.
    func create<T>(at slot: UInt32, as type: T.Type) throws(FrostError) -> T {
        if !isChild {
            // Kept alive by `components`; not retained here.
            unowned(unsafe) let component = table.component(at: slot)
            if component.createsDirectly, !cells.isDisposed {
                return try Engine.createTransient(
                    unsafeDowncast(component, to: TypedComponent<T>.self), resolver: self)
            }
        }
        return try Engine.create(target(atSpaceSlot: slot), as: T.self)
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
    @inlinable
    public func _resolve<T>(
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        let lookup = _lookUp(ObjectIdentifier(T.self), name: name)
        // A factory with arguments, called by code specialized in the caller when the
        // arguments are the ones it takes.
        if let (frame, component) = argumentsFrame(for: lookup),
            let made = try frame.makeAtRoot(
                component, arguments: arguments, argumentType: argumentType, as: T.self)
        {
            return made
        }
        return try create(
            lookup, T.self, name: name, arguments: arguments, argumentType: argumentType)
    }

    /// The general path of `_resolve(_:name:arguments:argumentType:)`.
    @usableFromInline
    func create<T>(
        _ lookup: _ResolverLookup,
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        guard lookup.found else {
            return try resolveUnregistered(
                T.self, name: name, arguments: arguments, argumentType: argumentType)
        }
        return try Engine.create(
            target(atSpaceSlot: UInt32(truncatingIfNeeded: lookup.location)), as: T.self,
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
    ///   registered for `type` under `name` in this container's own table (a child's handle
    ///   does not reach its parent); for a `.singleton`, the errors of creating it.
    public func handle<T>(for type: T.Type, name: String? = nil) throws(FrostError) -> Handle<T> {
        let key = RegistrationKey(T.self, name: name)
        let slot = table.slot(for: key)
        guard slot != PerfectHashTable.notFound else {
            throw FrostError(.notRegistered, key: key, catalog: catalog)
        }
        guard table.component(at: slot).caches else {
            return Handle(slot: slot, generation: generation, held: nil)
        }
        // Created now, so that the handle can hold it (unless a concurrent
        // `releaseCachedInstances()` has already taken it again).
        let value = try create(at: base + slot, as: T.self)
        var held: Box<T>?
        if let box = table.cell(at: slot).read() {
            held = Unmanaged<Box<T>>.fromOpaque(box).takeUnretainedValue()
        }
        return withExtendedLifetime(value) {
            Handle(slot: slot, generation: generation, held: held)
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
        let lookup = lookUp(handle.slot, generation: handle.generation)
        if let box = lookup.box { return _readBox(box, as: T.self) }
        // A transient made through bound parameters or by a closure: made by code
        // specialized in the caller, as a resolve by type makes it.
        if let (frame, component) = rootFrame(for: lookup) {
            return try frame.makeAtRoot(component, as: T.self)
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

    /// A handle's slot as a lookup by type would answer it: its place in the slot space and
    /// the box cached there (a protected read); nothing found when the handle is another
    /// container's.
    @usableFromInline
    func lookUp(_ slot: UInt32, generation: UInt64) -> _ResolverLookup {
        guard generation == self.generation else { return .unknown }
        return _ResolverLookup(location: UInt(base + slot), box: table.cell(at: slot).read())
    }

    /// Whether `held` (a handle's held box, or `nil`) is still the box cached in its slot, and
    /// the handle is this container's. Compares addresses only: the handle owns `held`.
    @usableFromInline
    func holds(_ held: UnsafeMutableRawPointer?, at slot: UInt32, generation: UInt64) -> Bool {
        held != nil && generation == self.generation && table.cell(at: slot).peek() == held
    }

    /// The slow path of a handle: refused, or created.
    @usableFromInline
    func resolve<T>(handle: Handle<T>) throws(FrostError) -> T {
        guard handle.generation == generation else {
            throw FrostError(.foreignHandle, key: RegistrationKey(T.self, name: nil))
        }
        return try create(at: base + handle.slot, as: T.self)
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
        var container: FrozenContainer? = self
        while let current = container {
            for slot in current.slotsByType[ObjectIdentifier(T.self)] ?? [] {
                all.append(try create(at: slot, as: T.self))
            }
            container = current.parent
        }
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
        ownCatalog.contains(canonicalName: canonicalKey)
            || (parent?.contains(canonicalKey: canonicalKey) ?? false)
    }

    // MARK: Children, releasing, disposing

    /// Makes a child container: a request scope for a server, an override in a test.
    ///
    /// The child supplies the values its parent declared with `provided`, holds its own
    /// `.scoped` instances, and may register any key, its parent's included. Resolving through
    /// the child finds the child's registrations first, then the parent's, **in the child**:
    /// the parent's transient, `.graph` and `.scoped` factories see the child's registrations
    /// and provided values. The parent's singletons stay the parent's, made from the parent's
    /// registrations and shared with every child.
    ///
    /// ```swift
    /// container.provided(CurrentUser.self)
    /// container.autowire(TodoHandler.self, TodoHandler.init(service:user:))
    /// let app = try container.freeze()
    /// let request = try app.child { $0.register(instance: user) }   // per request: cheap
    /// let handler = try request.resolve(TodoHandler.self)
    /// request.dispose()
    /// ```
    ///
    /// A child that only supplies values, or registers keys its parent knows, builds no hash
    /// table; only keys its parent does not know get one. A child may have children of its
    /// own.
    ///
    /// - Parameters:
    ///   - configure: Registers the child's components.
    /// - Returns: The frozen child.
    /// - Throws: ``FrostError`` when freezing the child finds problems (a dependency missing
    ///   from both the child and this container, a child singleton on a transient of this
    ///   container, for instance), or what `configure` throws, wrapped.
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
        return try container.freezeChild()
    }

    /// Drops the cached instances of singletons, `.weak` registrations, `.scoped` instances (of
    /// a child) and custom scopes (not registered instances): the next resolve of each creates
    /// a new one.
    ///
    /// Safe while other threads resolve, through types and handles: an instance is released
    /// only once no thread can still be reading it (each read is announced through the reading
    /// thread's hazard pointer first), so no resolve ever gets an instance whose `deinit` ran.
    /// An instance another thread is reading right now is released by a later call, or with
    /// the container.
    ///
    /// No `.onDispose` hook runs. An instance whose registration has `.onDispose` hooks stays
    /// tracked for ``dispose()-59wgz``, which keeps it alive until then and runs its hooks with those
    /// of the instances made since. A custom scope's storage is emptied with
    /// ``ScopeStorage/removeAll()``, which forgets the instances of every container sharing it.
    public func releaseCachedInstances() {
        releaseCachedInstances(includingRegistered: false, perChild: true)
    }

    /// Drops the cached instances (and, when disposing, the registered ones: the fast path
    /// then finds nothing, and the slow one refuses), and a child's per-child ones if
    /// `perChild`.
    private func releaseCachedInstances(includingRegistered: Bool, perChild: Bool) {
        var taken: [(instance: UnsafeMutableRawPointer, cell: Cell)] = []
        var storages: [ObjectIdentifier: any ScopeStorage] = [:]
        func take(_ component: Component, _ cell: Cell) {
            if let storage = component.scope.storage {
                storages[ObjectIdentifier(storage)] = storage
            }
            guard includingRegistered || component.instance == nil,
                component.kind == .singleton || component.kind == .weak
                    || component.kind == .scoped || component.instance != nil
            else { return }
            if let instance = cell.take() { taken.append((instance, cell)) }
        }
        for slot in 0..<PerfectHashTable.Slot(table.capacity) {
            guard let index = table.inputIndex(of: slot) else { continue }
            take(components[index], weakCell(atOwnSlot: slot) ?? table.cell(at: slot))
        }
        for (index, component) in (overrides?.components ?? []).enumerated() {
            let cells = cells.override(index)
            take(component, component.kind == .weak ? cells.weakCell : cells.cell)
        }
        if isChild, perChild {
            // `.scoped` instances; provided values are the application's (dropped when
            // disposing).
            let provided = includingRegistered ? [] : providedIndices
            for index in 0..<perChildCount where !provided.contains(index) {
                let cell = cells.perChild(index)
                if let instance = cell.take() { taken.append((instance, cell)) }
            }
        }
        // Also tries again what an earlier call had to keep.
        if !taken.isEmpty {
            cells.retired.retire(taken)
        } else {
            cells.retiredIfAny?.retire([])
        }
        // The application's code: no lock is held.
        for storage in storages.values { storage.removeAll() }
    }

    /// Runs the `.onDispose` hooks of the instances this container created and caches — its
    /// singletons, `.scoped` instances (of a child) and `.weak` instances still alive, and
    /// those that ``releaseCachedInstances()`` released since they were made — in reverse
    /// order of creation (an instance's dependencies after it), once; then drops every
    /// instance it holds. Afterwards, resolving through this container throws
    /// ``FrostError/Code/disposed``.
    ///
    /// ```swift
    /// let request = try app.child { $0.register(instance: user) }
    /// defer { request.dispose() }
    /// ```
    ///
    /// A parent's `dispose()` does not reach its children, nor a child's its parent's
    /// instances. Registered instances are the application's: their hooks never run (the
    /// container only lets go of them). Transients are never tracked.
    ///
    /// A child lets go of its provided values and `.scoped` instances when it is itself freed
    /// (no resolve can be reading them then): `dispose()` costs a child no more than its hooks.
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
        guard cells.markDisposed() else { return }
        cells.disposal.runOnce()
        releaseAfterDisposal()
    }

    /// Drops the instances `dispose()` lets go of at once (a child's per-child ones go with
    /// it).
    func releaseAfterDisposal() {
        guard !isChild || !components.isEmpty || overrides != nil else { return }
        releaseCachedInstances(includingRegistered: true, perChild: !isChild)
    }
}

extension FrozenContainer: EngineHost {
    var scopeOwner: UInt64 { generation }

    var retired: RetiredInstances { cells.retired }

    var isDisposed: Bool { cells.isDisposed }

    func track(_ component: Component, _ instance: AnyObject) {
        cells.disposal.track(component, instance)
    }

    func created(_ component: Component, _ box: AnyObject) {
        if component.disposes { cells.disposal.track(component, box) }
        if component.kind == .singleton { cells.singletonLog.record(component, box) }
    }

    func dependencyTarget(of component: Component, _ index: Int) -> Target? {
        var slot = index < component.dependencySlots.count ? component.dependencySlots[index] : .max
        if slot == .max { slot = spaceSlot(for: component.dependencies[index].key) }
        guard slot != PerfectHashTable.notFound else { return nil }
        return target(atSpaceSlot: slot)
    }

    /// This container's keys and its parents', for near misses.
    var catalog: Catalog {
        guard let parent else { return ownCatalog }
        return Catalog(keys: ownCatalog.keys + (overrides?.keys ?? []), parent: parent.catalog)
    }

    /// Finds a registration of this container's table: by the type's identity, or identity
    /// and name. The location is the slot, with the slot's flags (``SlotFlags``) above it.
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
        return slot == PerfectHashTable.notFound ? .unknown : lookUp(slot: slot)
    }

    /// The registration in `slot` of this container's table, and its cached box.
    func lookUp(slot: UInt32) -> _ResolverLookup {
        _ResolverLookup(
            location: UInt(table.flags(at: slot)) << 32 | UInt(slot),
            box: table.cell(at: slot).read())
    }

    /// Whether `key` is registered here or in a parent.
    func contains(_ key: RegistrationKey) -> Bool {
        spaceSlot(for: key) != PerfectHashTable.notFound
    }

    /// A key with no registration here: a `Lazy`, `Provider` or `Optional` of a registered
    /// type, a key of the parent container, or an error naming what is close.
    @usableFromInline
    func resolveUnregistered<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        if isDisposed {
            throw FrostError(.disposed, key: RegistrationKey(T.self, name: name))
        }
        if let made = try makeUnregistered(T.self, name: name) { return made as! T }
        throw notRegistered(RegistrationKey(T.self, name: name))
    }

    /// A key with runtime arguments and no registration here: a `Lazy` or `Provider` that
    /// keeps the arguments, or an error.
    func resolveUnregistered<T>(
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        if isDisposed {
            throw FrostError(.disposed, key: RegistrationKey(T.self, name: name))
        }
        let captured = CapturedArguments(pointer: arguments, type: argumentType)
        if let made = try makeDeferred(T.self, name: name, arguments: captured) {
            return made as! T
        }
        throw notRegistered(RegistrationKey(T.self, name: name))
    }
}
