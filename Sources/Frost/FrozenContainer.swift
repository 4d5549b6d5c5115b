import Synchronization

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
/// let body = try await frozen.withChild({ $0.register(instance: user) }) { request in
///     try await request.resolve(TodoHandler.self).handle()   // per request, then disposed
/// }
/// ```
public final class FrozenContainer: _Space, Resolver, @unchecked Sendable {
    // @unchecked: restated from `_Space`, whose state is immutable but for its cells (CFrost's
    // atomic protocols) and atomics.
    /// What ``bootstrap()`` makes, found on its first call.
    let bootstrapPlanStorage = LazyObject<BootstrapPlan>()
    /// A `Container` that configured a child of this one and is free again (no one else holds
    /// it, and nothing was registered on it but values for provided keys, which the child took
    /// over), retained; 0 when there is none. The next ``child(_:)`` configures its child with
    /// it instead of making one: a request's child costs one object fewer.
    private let spareConfigurator = Atomic<UInt>(0)
    /// The block of per-child cells a freed child of this one gave back, emptied (its
    /// address), or 0: the next child takes it instead of allocating one (see
    /// ``cellsForChild()``).
    private let spareCells = Atomic<UInt>(0)

    init(parts: SpaceParts) {
        super.init(parts: parts, container: nil)
    }

    init(childOf parent: _Space, cells: SpaceCells) {
        super.init(childOf: parent, cells: cells, container: nil)
    }

    deinit {
        let spare = spareConfigurator.load(ordering: .acquiring)
        if spare != 0 {
            Unmanaged<Container>.fromOpaque(UnsafeRawPointer(bitPattern: spare)!).release()
        }
        let cells = spareCells.load(ordering: .acquiring)
        if cells != 0 {
            Cell(raw: UnsafeMutableRawPointer(bitPattern: cells)!).deallocateArray(count: 0)
        }
    }

    /// Empty per-child cells for a child of this container: the block a freed child gave
    /// back, or a new one. (A request's child costs one allocation fewer.)
    func cellsForChild() -> SpaceCells {
        let spare = spareCells.exchange(0, ordering: .acquiring)
        guard spare != 0 else { return SpaceCells(perChildCount: perChildCount) }
        return SpaceCells(
            perChildCount: perChildCount,
            reusing: Cell(raw: UnsafeMutableRawPointer(bitPattern: spare)!))
    }

    /// Frees `cells`, a freed child's, keeping their per-child block, emptied, for the next
    /// child when none is kept already.
    func freeChildCells(_ cells: SpaceCells) {
        guard cells.perChildCount == perChildCount else { return cells.deallocate() }
        cells.deallocate { block in
            spareCells.compareExchange(
                expected: 0, desired: UInt(bitPattern: block.address), ordering: .releasing
            ).exchanged
        }
    }

    /// The container that configures a child of this one: the spare one, or a new one.
    func takeConfigurator() -> Container {
        let spare = spareConfigurator.exchange(0, ordering: .acquiring)
        guard spare != 0 else { return Container(parent: self) }
        let container = Unmanaged<Container>.fromOpaque(UnsafeRawPointer(bitPattern: spare)!)
            .takeRetainedValue()
        // Checked again: a weak reference the application kept may have used it meanwhile.
        guard container.isUnusedConfigurator else { return Container(parent: self) }
        container.configure(childOf: self)
        return container
    }

    /// Keeps `container`, which configured a child that has frozen, as the spare, when no one
    /// else holds it and it is as a new one is (and no other is kept already).
    func offer(_ container: consuming Container) {
        var container = container
        guard isKnownUniquelyReferenced(&container), container.parent === self,
            container.isUnusedConfigurator
        else { return }
        container.releaseParent()
        let spare = UInt(bitPattern: Unmanaged.passRetained(container).toOpaque())
        if !spareConfigurator.compareExchange(expected: 0, desired: spare, ordering: .releasing)
            .exchanged
        {
            Unmanaged<Container>.fromOpaque(UnsafeRawPointer(bitPattern: spare)!).release()
        }
    }

    /// Its perfect-hash table (a child that registers no new key shares an empty one).
    var table: PerfectHashTable { perfectHash ?? PerfectHashTable.empty }

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
        try _Space.resolve(T.self, name: name, in: Unmanaged.passUnretained(self))
    }

    // MARK: Handles

    /// Finds the slot of `type` (and `name`) once, so that later resolves skip hashing.
    ///
    /// For a `.singleton` registration, the singleton is created now if it does not exist yet,
    /// and the handle holds it (as it does a registered instance), so that
    /// ``withResolved(_:_:)`` reads it without reference counting.
    ///
    /// A child's handle finds what resolving through the child finds: the child's own
    /// registrations, its overrides and the values it supplies, then its parent's.
    ///
    /// - Parameters:
    ///   - type: The type the handle resolves.
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    /// - Returns: A handle valid for this container only.
    /// - Throws: ``FrostError`` with ``FrostError/Code/notRegistered`` when nothing is
    ///   registered for `type` under `name` here or in a parent; for a `.singleton`, the
    ///   errors of creating it.
    public func handle<T>(for type: T.Type, name: String? = nil) throws(FrostError) -> Handle<T> {
        let key = RegistrationKey(T.self, name: name)
        let slot = chainSlot(for: key)
        guard slot != PerfectHashTable.notFound else {
            throw FrostError(.notRegistered, key: key, catalog: catalog)
        }
        let place = place(of: slot)
        guard place.registration.caches else {
            return Handle(slot: slot, generation: generation, held: nil, epoch: .max)
        }
        // Created now, so that the handle can hold it (unless a concurrent
        // `releaseCachedInstances()` has already taken it again). The count of releases is
        // read first: a release after it makes the handle read the slot again.
        let epoch = isChild ? UInt.max : cacheEpoch.load(ordering: .sequentiallyConsistent)
        let value = try create(atChainSlot: slot, as: T.self)
        var held: AnyObject?
        if let box = place.cell.read() {
            held = Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue()
        }
        return withExtendedLifetime(value) {
            Handle(slot: slot, generation: generation, held: held, epoch: epoch)
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
        let found = find(chainSlot: handle.slot, generation: handle.generation)
        if let box = found.box { return _readBox(box, as: T.self) }
        // A transient made through bound parameters or by a closure: made by code
        // specialized in the caller, as a resolve by type makes it.
        if let (frame, component) = rootFrame(for: found) {
            return try frame.makeAtRoot(component, as: T.self)
        }
        return try resolve(handle: handle)
    }

    /// Lends `body` the instance a handle resolves, without the retain and release that
    /// returning it costs: for a `.singleton` or a registered instance, whose handle holds it,
    /// one check that it is still the cached one (of a root: that nothing was released since
    /// the handle was made, one load and one comparison, inlined into the caller) and a read
    /// of a stored reference, the cost of reading a stored property by hand.
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
        // A root's handle, made since the last release: what it holds is what the slot keeps.
        if handle.epoch == cacheEpoch.load(ordering: .relaxed), handle.generation == generation {
            return try body(_kept(handle.held.unsafelyUnwrapped, as: T.self))
        }
        if holds(handle.heldAddress, at: handle.slot, generation: handle.generation) {
            return try body(_kept(handle.held.unsafelyUnwrapped, as: T.self))
        }
        return try body(resolve(handle))
    }

    /// Whether `held` (a handle's held box, or `nil`) is still the box cached in its slot, and
    /// the handle is this container's. Compares addresses only: the handle owns `held`.
    @usableFromInline
    func holds(_ held: UnsafeMutableRawPointer?, at slot: UInt32, generation: UInt64) -> Bool {
        // Once `dispose()` began, nothing is lent: the resolve throws `.disposed`.
        guard let held, generation == self.generation, !isDisposed else { return false }
        guard !isChild else { return childHolds(held, at: slot) }
        return ownCell(at: slot).peek() == held
    }

    /// ``holds(_:at:generation:)`` in a child, out of line: a root's check saves no register.
    @inline(never)
    private func childHolds(_ held: UnsafeMutableRawPointer, at slot: UInt32) -> Bool {
        place(of: slot).cell.peek() == held
    }

    /// The slow path of a handle: refused, or created.
    @usableFromInline
    func resolve<T>(handle: Handle<T>) throws(FrostError) -> T {
        guard handle.generation == generation else {
            throw FrostError(.foreignHandle, key: RegistrationKey(T.self, name: nil))
        }
        return try create(atChainSlot: handle.slot, as: T.self)
    }

    // MARK: Everything of a type

    /// Resolves every registration of `type` (all names, the unnamed one included), in
    /// registration order, once per key, as ``resolve(_:name:)`` would: a child answers its
    /// own new keys first, then its parent's keys, each as the child sees it — a key the
    /// child registers again answers the child's registration, in its parent's place.
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
        try instances(of: T.self)
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
        var space: _Space? = self
        while let current = space {
            if current.ownCatalog?.contains(canonicalName: canonicalKey) == true { return true }
            space = current.parent
        }
        return false
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
    /// let body = try await request.resolve(TodoHandler.self).handle()
    /// await request.dispose()
    /// ```
    ///
    /// ``withChild(_:_:)-5buqx`` does the same and disposes of the child on every path,
    /// a thrown error and a cancelled task included: prefer it.
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
        let container = takeConfigurator()
        do {
            try configure(container)
        } catch let error as FrostError {
            throw error
        } catch {
            throw FrostError(
                .factoryFailed, key: nil, detail: "configuring a child container", underlying: error
            )
        }
        let child = try container.freezeChild()
        offer(container)
        return child
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

    /// Runs the `.onDispose` hooks of the instances this container created and caches — its
    /// singletons, `.scoped` instances (of a child) and `.weak` instances still alive, and
    /// those that ``releaseCachedInstances()`` released since they were made — in reverse
    /// order of creation (an instance's dependencies after it), once; then drops every
    /// instance it holds. From the moment it begins, resolving through this container throws
    /// ``FrostError/Code/disposed``, and an instance whose creation finishes afterwards is not
    /// handed out: its hooks run at once. It does not wait for creations in flight.
    ///
    /// ```swift
    /// let line = try app.withChild({ $0.register(instance: job) }) { scope in
    ///     try scope.resolve(JobRunner.self).run()
    /// }   // disposed on every path
    /// ```
    ///
    /// Every caller returns once the hooks of every instance that existed when disposal began
    /// have run: a second call (sync or awaited) waits for the first. A parent's `dispose()`
    /// does not reach its children, nor a child's its parent's instances; a child of a
    /// disposed container refuses what that container would have supplied, and still resolves
    /// what a live container above it supplies. Registered instances are the application's:
    /// the container only lets go of them (`freeze()` rejects `.onDispose` on one). Transients
    /// are never tracked.
    ///
    /// A child lets go of its provided values and `.scoped` instances when it is itself freed
    /// (no resolve can be reading them then): `dispose()` costs a child no more than its hooks.
    ///
    /// A synchronous `dispose()` cannot await an async hook: from the first one it meets on,
    /// it runs the hooks left, in order, in a task, and waits for that task — unless it is
    /// called from code running in a task, where it returns without waiting. In async code,
    /// write `await dispose()`: this synchronous form is unavailable there, so that a `defer`
    /// or a top-level `main.swift` cannot pick it by mistake.
    @available(
        *, noasync, message: "in async code, write `await dispose()`: it waits for async hooks"
    )
    public func dispose() {
        runDisposal()
    }
}
