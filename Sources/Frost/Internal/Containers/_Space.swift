import Foundation
import Synchronization

/// Implementation detail of Frost's containers: what resolving sees of a container — its own
/// registrations found through its lookup, the chain of containers it is a child of, and what
/// it keeps (cached instances, a child's per-child values, its disposal). Not API: a name that
/// starts with `_` is not API. It is public only so that `resolve`, inlined into your code, can
/// read a cached instance with code specialized for its type.
///
/// A ``FrozenContainer`` is one, whose lookup is a perfect hash; a ``Container`` resolves
/// through one it builds on first use, whose lookup is a `Dictionary`. Everything else —
/// reading, creating, children, disposal — is this code.
///
/// **The slot chain.** A root's slots are its lookup's. A child's continue its parent's: the
/// parent's chain comes first (same numbers), then the child's own lookup (keys the parent
/// does not know), from ``base``. So a slot number means the same key in a container and in
/// every child below it, and the slots a parent's autowired parameters are bound to stay valid
/// when the parent's registration is resolved through a child. What a child registers for a
/// key its parent knows goes to one of two places, never to its lookup: a value for a key the
/// parent declared `provided` fills the child's **per-child cell** of that key (where `.scoped`
/// instances live too; each per-child key of the chain has an index, in its slot's flags), and
/// anything else **overrides** the parent's registration, by slot (``Overrides``).
///
/// **One walk.** Every question a container is asked — resolve, handle, contains, resolveAll,
/// description, bootstrap, the disposed checks — finds a slot (``find(_:name:)``,
/// ``chainSlot(for:)``) and then where that slot's registration lives as this container sees
/// it (``place(of:)``, ``target(at:)``): its own registration, its override, or its parent's,
/// resolved in this container.
public class _Space: @unchecked Sendable {
    // @unchecked: after init, everything is immutable but the cells (CFrost's atomic
    // protocols), the disposal state (atomics) and the lazily made helpers (installed once,
    // atomically).

    // MARK: Layer 1: the lookup of its own keys

    /// How this container's own keys find their slots.
    let lookup: Lookup
    /// Whether the lookup holds any key (a child that registers nothing asks only its
    /// parent's).
    let hasOwnKeys: Bool
    /// The lookup's table, for a frozen container: what a resolve by type calls directly.
    let perfectHash: PerfectHashTable?
    /// Whether a lookup by type is one call to ``perfectHash``: a frozen root's.
    let findsDirectly: Bool
    /// Whether a lookup by type is one call to the parent's ``perfectHash``, then, for a
    /// per-child key, a read of this child's cell: a request's child (one that registers
    /// nothing, of a frozen root).
    let findsInParent: Bool
    /// The lookup's slots (`nil` when it has none).
    let slots: SlotArray?
    /// The slot array a frame reads: the lookup's, tagged (bit 0) when this is a child, whose
    /// frames must look each slot up through the chain; for a child that registers nothing
    /// and whose parent is a root (a request's), the root's, tagged (bit 1) so that only the
    /// per-child keys (its `.scoped` instances, the values it supplies) are looked up.
    let frameSlots: UnsafeRawPointer

    // MARK: Layer 4: registrations and the chain

    /// Every own component, in registration order (as installed: dependencies bound to their
    /// slots); keeps the slots' components alive.
    let components: [Component]
    /// A child's registrations of keys its parent knows.
    let overrides: Overrides?
    /// The container this one is a child of.
    let parent: _Space?
    /// `parent`, unretained: what lookups through a child follow (`parent` keeps it alive).
    @usableFromInline let parentReference: Unmanaged<_Space>?
    /// Whether this is a child: `.scoped` instances and provided values belong to it.
    @usableFromInline let isChild: Bool
    /// The slot number of the own lookup's first slot in this container's chain: 0 for a root;
    /// for a child, its parent's ``chainSize``.
    let base: UInt32
    /// How many per-child keys (`.scoped`, provided) this container's chain has: the number of
    /// per-child cells each of its children has.
    let perChildCount: Int
    /// The provided keys of this container's chain, for ``providedIndex(of:)`` (`nil`: its
    /// parent's, unchanged).
    let providedKeys: [ProvidedKey]?
    /// The per-child and override cells.
    let cells: SpaceCells
    /// The side cells of `.weak` registrations: a block of one cell per own slot (used by the
    /// `.weak` ones only), or `nil` when no registration here keeps its instance weakly. A weak
    /// instance is kept apart from its slot's cell, which lookups read as a cached instance.
    /// (One block, not an array of optional cells, whose type a new process makes at run
    /// time.)
    let weakCells: Cell?
    /// The own lookup's slot of each of ``components``, by position (registration order).
    let ownSlots: [UInt32]
    /// ``slotsByType``, once built.
    private let slotsByTypeStorage = LazyObject<SlotsByType>()
    /// The own keys (and overrides'), for error messages; `nil` when there are none.
    let ownCatalog: Catalog?
    /// A process-wide unique number: handles and custom scopes tell containers apart by it.
    @usableFromInline let generation: UInt64
    /// Counts what may empty this container's cells (``releaseCachedInstances()``, the start of
    /// `dispose()`): a root's handle holding an instance lends it while the count is the one it
    /// was made at, without reading the cell (see ``FrozenContainer/withResolved(_:_:)``).
    @usableFromInline let cacheEpoch = Atomic<UInt>(0)
    /// Whether a resolve here may have to await: an async factory is registered in this
    /// container's chain. When none is, an awaited resolve is the synchronous one; when one
    /// is, each registration's ``AwaitPlan`` says what it must await.
    @usableFromInline let mayAwait: Bool
    /// Whether this container's chain registers a `Lazy` or `Provider` type itself (under any
    /// name): a resolve of that type then finds the registration before making one (see
    /// ``resolveDeferred(_:in:)``). Almost never: a container makes them for any registered
    /// type.
    @usableFromInline let registersDeferredTypes: Bool
    /// The plans of its own slots, when its chain registers something async (see
    /// ``compileAwaitPlans()``); set once, at the end of `init`.
    private(set) var awaitPlans: [AwaitPlan] = []
    /// Whether an awaited resolve of its parent's slots follows the parent's plans (see
    /// ``inheritsPlans(isChild:overrides:plans:parentReachesChildKeys:)``); set once, at the
    /// end of `init`.
    private(set) var inheritsPlans = false
    /// Whether a registration of this container's chain declares a dependency bound to no slot
    /// whose key the chain does not know (``declaresOpenDependencies(_:)``), which a key a
    /// child adds may answer; set once, in `init`.
    private(set) var reachesChildKeys = false
    /// The scope of registrations that name none, which children's registrations take.
    let defaultScope: Scope
    /// For a `Container`'s space: the container, which factories resolving here receive.
    @usableFromInline unowned(unsafe) let container: Container?

    // MARK: State (see _Space+Disposal.swift)

    /// ``Phase/open``, then the other phases of a disposal, in order.
    let disposalPhase = Atomic<Int>(Phase.open)
    /// The newest ``DisposalRecord`` (+1), ``Disposal/closed``, or 0.
    let disposalHead = Atomic<UInt>(0)
    /// How many records of `.weak` instances the disposal list holds, and how many were alive
    /// when it was last pruned.
    let weakRecords = Atomic<Int>(0)
    let weakRecordsAlive = Atomic<Int>(0)
    /// Instances taken out of cells that another thread may still be reading.
    let retiredStorage = LazyObject<RetiredInstances>()
    /// The singletons made here, in order: made when the container registers one (an eager
    /// lifetime's registration), `nil` otherwise (a request's child).
    let singletonLog: SingletonLog?
    /// The weak reference its `Lazy`s and `Provider`s share (``reference``).
    let referenceStorage = LazyObject<ContainerReference>()
    /// Serializes pruning the disposal list with its walk.
    let pruning = LazyObject<NSLock>()
    /// The thread running this container's synchronous `.onDispose` hooks, if any.
    let disposingThread = Atomic<UInt>(0)

    /// A child that registers nothing of its own, at most values for its parent's provided
    /// keys (`cells`, completed for the parent's chain): what every request makes, built
    /// without a lookup, a catalog or a validation.
    init(childOf parent: _Space, cells: SpaceCells, container: Container?) {
        defaultScope = parent.defaultScope
        lookup = .none
        hasOwnKeys = false
        perfectHash = nil
        findsDirectly = false
        findsInParent = parent.findsDirectly
        slots = nil
        frameSlots =
            parent.isChild || parent.slots == nil
            ? UnsafeRawPointer(bitPattern: 65)! : parent.frameSlots + 2
        components = []
        overrides = nil
        self.parent = parent
        parentReference = Unmanaged.passUnretained(parent)
        isChild = true
        base = parent.chainSize
        perChildCount = parent.perChildCount
        self.cells = cells
        weakCells = nil
        ownSlots = []
        ownCatalog = nil
        generation = PerfectHashTable.nextGeneration()
        mayAwait = parent.mayAwait
        registersDeferredTypes = parent.registersDeferredTypes
        reachesChildKeys = parent.reachesChildKeys
        providedKeys = nil
        singletonLog = nil
        self.container = container
        inheritsPlans = true
    }

    init(parts: SpaceParts, container: Container?) {
        defaultScope = parts.defaultScope
        lookup = parts.lookup
        hasOwnKeys = parts.lookup.count > 0
        if case .perfectHash(let table) = parts.lookup {
            perfectHash = table
        } else {
            perfectHash = nil
        }
        slots = parts.lookup.slotArray
        findsDirectly = perfectHash != nil && parts.parent == nil
        findsInParent = false
        let frameSlots = slots?.address ?? UnsafeRawPointer(bitPattern: 64)!
        self.frameSlots = parts.parent == nil ? frameSlots : frameSlots + 1
        components = parts.components
        overrides = parts.overrides
        parent = parts.parent
        parentReference = parts.parent.map { Unmanaged.passUnretained($0) }
        isChild = parts.parent != nil
        base = parts.parent?.chainSize ?? 0
        perChildCount = parts.perChildCount
        cells = parts.cells
        ownSlots = parts.ownSlots
        ownCatalog = parts.catalog
        generation = PerfectHashTable.nextGeneration()
        self.container = container
        mayAwait =
            (parts.parent?.mayAwait ?? false) || parts.components.contains(where: \.isAsync)
            || (parts.overrides?.components.contains(where: \.isAsync) ?? false)
        registersDeferredTypes =
            (parts.parent?.registersDeferredTypes ?? false)
            // Closures, not key paths: applying `\.key.isDeferredType` checks exclusivity and
            // retains, about 160 instructions per registration.
            || parts.components.contains { $0.key.isDeferredType }
            || (parts.overrides?.components.contains { $0.key.isDeferredType } ?? false)
        providedKeys =
            parts.components.isEmpty && parts.overrides == nil
            ? nil
            : Self.providedKeys(
                parent: parts.parent, lookup: parts.lookup, components: parts.components,
                overrides: parts.overrides)
        weakCells =
            parts.components.contains { $0.lifetime.keepsWeakly }
            ? Cell.allocateArray(count: parts.lookup.capacity) : nil
        singletonLog =
            parts.components.contains { $0.lifetime.isEager }
                || (parts.overrides?.components.contains { $0.lifetime.isEager } ?? false)
            ? SingletonLog() : nil
        reachesChildKeys =
            (parts.parent?.reachesChildKeys ?? false)
            || declaresOpenDependencies(parts.components)
            || declaresOpenDependencies(parts.overrides?.components ?? [])
        awaitPlans = compileAwaitPlans()
        inheritsPlans = Self.inheritsPlans(
            isChild: isChild, overrides: overrides, plans: awaitPlans,
            parentReachesChildKeys: parts.parent?.reachesChildKeys ?? false)
    }

    deinit {
        weakCells?.deallocateArray(count: lookup.capacity)
        if findsInParent {
            // A request's child: its root (a frozen container) keeps the block for the next.
            let cells = cells
            parentReference.unsafelyUnwrapped._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: FrozenContainer.self).freeChildCells(cells)
            }
        } else {
            cells.deallocate()
        }
        releaseDisposalRecords()
    }

    /// What a factory resolving here receives: this frozen container, or the `Container`
    /// whose space this is.
    @usableFromInline
    final var resolver: any Resolver {
        if let container { return container }
        return unsafeDowncast(self, to: FrozenContainer.self)
    }

    /// Implementation detail of ``Resolver``: this container. Not API.
    @inlinable
    public final var _space: Unmanaged<_Space>? { Unmanaged.passUnretained(self) }

    /// The number of slots of this container's chain: its parent's, then its own.
    final var chainSize: UInt32 { base + UInt32(lookup.capacity) }

    // MARK: Disposed (the door itself: _Space+Disposal.swift)

    /// The phases of ``disposalPhase``.
    enum Phase {
        static let open = 0
        static let disposing = 1
        static let disposingAndWaited = 2
        static let done = 3
    }

    /// Whether `dispose()` began.
    @usableFromInline
    final var isDisposed: Bool {
        disposalPhase.load(ordering: .sequentiallyConsistent) != Phase.open
    }

    /// Whether `dispose()` finished: every hook it took ran.
    final var isDisposalDone: Bool {
        disposalPhase.load(ordering: .sequentiallyConsistent) == Phase.done
    }

    // MARK: Find

    /// The slot of `type` (and `name`) and the box cached there, if any: one lookup here, and,
    /// for a child, its parent's with the child's overrides and per-child cells applied. A
    /// disposed container finds nothing (its slow path throws `.disposed`).
    @usableFromInline
    final func find(_ type: ObjectIdentifier, name: String?) -> Found {
        if findsDirectly, name == nil {
            let found = perfectHash.unsafelyUnwrapped.find(identity: UInt64(UInt(bitPattern: type)))
            return Found(location: found.location, box: found.instance)
        }
        return findSlowly(type, name: name)
    }

    /// ``find(_:name:)`` for all but a frozen root's lookup by type: kept out of line, so that
    /// the common case saves no registers.
    @inline(never)
    private final func findSlowly(_ type: ObjectIdentifier, name: String?) -> Found {
        if findsDirectly, let name {
            // A frozen root's named lookup: ``findOwn(_:named:)``'s, inlined.
            // The table read twice, not bound: a binding is retained across the call.
            let found = PerfectHashTable.find(
                in: perfectHash.unsafelyUnwrapped.cTable,
                smallNames: perfectHash.unsafelyUnwrapped.takesSmallNames,
                identity: UInt64(UInt(bitPattern: type)), name: name)
            return Found(location: found.location, box: found.instance)
        }
        guard isChild else { return findOwn(type, name: name) }
        guard !isDisposed else { return .missing }
        if findsInParent, name == nil {
            // ``findInChain(_:name:)``'s walk, one step long.
            let found = parentReference.unsafelyUnwrapped._withUnsafeGuaranteedRef {
                $0.perfectHash.unsafelyUnwrapped.find(identity: UInt64(UInt(bitPattern: type)))
            }
            let own = Found(location: found.location, box: found.instance)
            return own.found ? applyingChild(to: own) : .missing
        }
        return findInChain(type, name: name)
    }

    /// The lookup of an own key.
    @inline(__always)
    final func findOwn(_ type: ObjectIdentifier, name: String?) -> Found {
        guard let name else {
            if let perfectHash {
                let found = perfectHash.find(identity: UInt64(UInt(bitPattern: type)))
                return Found(location: found.location, box: found.instance)
            }
            let found = lookup.find(type)
            return Found(location: found.location, box: found.box)
        }
        return findOwn(type, named: name)
    }

    /// A named lookup, kept out of line so that the unnamed one (the common case) stays a
    /// short function: no registers to save for the name's bytes.
    @inline(never)
    final func findOwn(_ type: ObjectIdentifier, named name: String) -> Found {
        if perfectHash != nil {
            // The table read twice, not bound: a binding is retained across the call.
            let found = PerfectHashTable.find(
                in: perfectHash.unsafelyUnwrapped.cTable,
                smallNames: perfectHash.unsafelyUnwrapped.takesSmallNames,
                identity: UInt64(UInt(bitPattern: type)), name: name)
            return Found(location: found.location, box: found.instance)
        }
        let slot = lookup.slot(type, name: name)
        return slot == PerfectHashTable.notFound ? .missing : foundOwn(slot: slot)
    }

    /// An own slot and the box cached there.
    final func foundOwn(slot: UInt32) -> Found {
        Found(
            location: slots.unsafelyUnwrapped.location(of: slot),
            box: ownCell(at: slot).read())
    }

    /// The cell of own slot `slot`.
    @inline(__always)
    final func ownCell(at slot: UInt32) -> Cell {
        slots.unsafelyUnwrapped.cell(at: slot)
    }

    /// ``find(_:name:)`` in a child: its own lookup, then its parent's.
    final func findInChain(_ type: ObjectIdentifier, name: String?) -> Found {
        if hasOwnKeys {
            let own = findOwn(type, name: name)
            if own.found { return own.adding(base) }
        }
        let found = parentReference.unsafelyUnwrapped._withUnsafeGuaranteedRef {
            $0.findForChild(type, name: name)
        }
        guard found.found else { return .missing }
        return applyingChild(to: found)
    }

    /// What a child's walk asks of this container: its answer, whether or not it was disposed
    /// (what a disposed container holds is refused where it is read).
    final func findForChild(_ type: ObjectIdentifier, name: String?) -> Found {
        isChild ? findInChain(type, name: name) : findOwn(type, name: name)
    }

    /// The box of chain slot `slot` as this container sees it, for a handle made by this
    /// container (`generation`); nothing found for another container's handle.
    @usableFromInline
    final func find(chainSlot slot: UInt32, generation: UInt64) -> Found {
        guard generation == self.generation else { return .missing }
        guard isChild else { return foundOwn(slot: slot) }
        guard !isDisposed else { return .missing }
        return findForChild(chainSlot: slot)
    }

    /// ``find(chainSlot:generation:)`` along a child's walk.
    final func findForChild(chainSlot slot: UInt32) -> Found {
        if slot >= base { return foundOwn(slot: slot - base).adding(base) }
        return applyingChild(
            to: parentReference.unsafelyUnwrapped._withUnsafeGuaranteedRef {
                $0.findForChild(chainSlot: slot)
            })
    }

    /// What the parent's answer for a slot becomes in this child: its override, or its
    /// per-child cell (a `.scoped` instance or a provided value made or supplied here; `nil`,
    /// for the slow path, when none is), or the parent's cached instance as it is.
    private final func applyingChild(to found: Found) -> Found {
        let slot = found.slot
        if let overrides, let index = overrides.index(atParentSlot: slot) {
            let component = overrides.components[index]
            let box = component.caches ? cells.override(index).cell.read() : nil
            return Found(location: overrides.flags[index].location(slot: slot), box: box)
        }
        let flags = found.flags
        if let index = flags.perChildIndex {
            return Found(location: found.location, box: perChildCell(index, flags)?.read())
        }
        return found
    }

    /// The slot of `key` in this container's chain, or `PerfectHashTable.notFound`.
    final func chainSlot(for key: RegistrationKey) -> UInt32 {
        if hasOwnKeys {
            let own = lookup.slot(for: key)
            if own != PerfectHashTable.notFound { return base + own }
        }
        return parent?.chainSlot(for: key) ?? PerfectHashTable.notFound
    }

    // MARK: Where a slot lives

    /// Where chain slot `slot` is registered, as this container sees it: its own lookup, an
    /// override (its own or a parent child's), or the parent's lookup. Nothing is retained:
    /// this container holds every container on the way.
    @inline(__always)
    final func place(of slot: UInt32) -> Place {
        var space = Unmanaged.passUnretained(self)
        while true {
            if let place = space._withUnsafeGuaranteedRef({ $0.ownPlace(of: slot, in: space) }) {
                return place
            }
            space = space._withUnsafeGuaranteedRef { $0.parentReference.unsafelyUnwrapped }
        }
    }

    /// `slot`'s place when this container (`me`) registers it: in its own lookup or as an
    /// override of its parent's; `nil` when it is the parent's.
    @inline(__always)
    private final func ownPlace(of slot: UInt32, in me: Unmanaged<_Space>) -> Place? {
        if slot >= base {
            let own = slot - base
            let slots = slots.unsafelyUnwrapped
            return Place(
                component: slots.componentPointer(at: own),
                cell: slots.cell(at: own),
                // One per own slot when any, which a caller that does not need it
                // (``look(chainSlot:)``) never reads.
                weakCell: weakCells?.advanced(by: Int(own)),
                owner: me,
                flags: SlotFlags(slots.flags(at: own))
            )
        }
        guard let overrides, let index = overrides.index(atParentSlot: slot) else { return nil }
        let component = overrides.components[index]
        let cells = cells.override(index)
        return Place(
            component: UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()),
            cell: cells.cell, weakCell: cells.weakCell, owner: me, flags: overrides.flags[index])
    }

    /// What the engine needs to resolve chain slot `slot` in this container: the registration
    /// as this container sees it, and where its lifetime keeps the instance here.
    final func target(at slot: UInt32) -> Target {
        let place = place(of: slot)
        let component = place.registration
        let (cell, holder) = component.lifetime.cell(of: place, seenFrom: self)
        return Target(
            component: component, cell: cell, owner: place.owner.takeUnretainedValue(),
            context: self, holder: holder)
    }

    /// The per-child cell of index `index` for a registration with these flags, for a read:
    /// this child's, for a `.scoped` instance; for a provided value, the nearest container's
    /// that supplies it. `nil` when none does, or when the supplier was disposed.
    @inline(__always)
    final func perChildCell(_ index: Int, _ flags: SlotFlags) -> Cell? {
        if flags.isProvided {
            guard let supplier = supplier(of: index),
                !supplier.space._withUnsafeGuaranteedRef({ $0.isDisposed })
            else { return nil }
            return supplier.cell
        }
        return isChild ? cells.perChild(index) : nil
    }

    /// The nearest container, from this one up, that supplies the provided key of per-child
    /// index `index`, and its cell; `nil` when none does.
    final func supplier(of index: Int) -> (cell: Cell, space: Unmanaged<_Space>)? {
        var space = Unmanaged.passUnretained(self)
        while true {
            let found: (cell: Cell, space: Unmanaged<_Space>)?? = space._withUnsafeGuaranteedRef {
                current in
                guard current.isChild else { return .some(nil) }
                if index < current.cells.perChildCount, current.cells.perChild(index).peek() != nil
                {
                    return (current.cells.perChild(index), space)
                }
                return nil
            }
            if let found { return found }
            space = space._withUnsafeGuaranteedRef { $0.parentReference.unsafelyUnwrapped }
        }
    }

    /// What the engine needs for `component`'s declared dependency at `index`, here; `nil`
    /// when nothing is registered for it.
    final func dependencyTarget(of component: Component, _ index: Int) -> Target? {
        var slot = component.dependencySlot(at: index)
        if slot == .max { slot = chainSlot(for: component.dependencies[index].key) }
        guard slot != PerfectHashTable.notFound else { return nil }
        return target(at: slot)
    }

    // MARK: Resolving

    /// What every resolve by type inlines into its caller: one lookup, and a read of the
    /// cached instance, specialized for `T`; the general path otherwise. `space` is not
    /// retained: the resolver the caller holds keeps it alive.
    @inlinable
    @inline(__always)
    static func resolve<T>(_ type: T.Type, name: String?, in space: Unmanaged<_Space>)
        throws(FrostError) -> T
    {
        let found = space._withUnsafeGuaranteedRef { $0.find(ObjectIdentifier(T.self), name: name) }
        if let box = found.box { return _readBox(box, as: T.self) }
        return try resolve(found, T.self, name: name, in: space)
    }

    /// Resolves chain slot `slot` (a `Provider`'s, found when it was made) as a resolve by
    /// type that finds it does, without hashing.
    @inlinable
    @inline(__always)
    static func resolve<T>(
        _ type: T.Type, chainSlot slot: UInt32, name: String?, in space: Unmanaged<_Space>
    ) throws(FrostError) -> T {
        let found = space._withUnsafeGuaranteedRef {
            $0.find(chainSlot: slot, generation: $0.generation)
        }
        if let box = found.box { return _readBox(box, as: T.self) }
        return try resolve(found, T.self, name: name, in: space)
    }

    /// What a `Lazy` keeps of chain slot `slot`: the box of the instance the slot caches, as
    /// it is (shared, immutable), or a new box of the instance made as a resolve by type makes
    /// it.
    @inlinable
    static func resolveBox<T>(
        _ type: T.Type, chainSlot slot: UInt32, name: String?, in space: Unmanaged<_Space>
    ) throws(FrostError) -> AnyObject {
        let found = space._withUnsafeGuaranteedRef {
            $0.find(chainSlot: slot, generation: $0.generation)
        }
        // Retained before any other protected read can let it go.
        if let box = found.box { return Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue() }
        return _keep(try resolve(found, T.self, name: name, in: space))
    }

    /// The general path of a resolve, from code that holds the container unretained.
    @inlinable
    static func resolve<T>(
        _ found: Found, _ type: T.Type, name: String?, in space: Unmanaged<_Space>
    )
        throws(FrostError) -> T
    {
        if let (frame, component) = space._withUnsafeGuaranteedRef({ $0.rootFrame(for: found) }) {
            return try frame.makeAtRoot(component, as: T.self)
        }
        // Through the unretained reference: a container that a `Lazy` or `Provider` refers to
        // weakly counts its references in a side table, where every retain is a slow one.
        let made = space._withUnsafeGuaranteedRef { space in
            Result { () throws(FrostError) -> T in
                found.found
                    ? try space.create(found, T.self) : try space.resolveMiss(T.self, name: name)
            }
        }
        return try made.get()
    }

    /// The general path of a resolve: a miss (an error, or a `Lazy`, `Provider` or `Optional`
    /// made on the spot), or the registration found, made by code specialized in the caller
    /// when it is a transient, by the engine otherwise.
    @inlinable
    final func resolve<T>(_ found: Found, _ type: T.Type, name: String?) throws(FrostError) -> T {
        if let (frame, component) = rootFrame(for: found) {
            return try frame.makeAtRoot(component, as: T.self)
        }
        if !found.found { return try resolveMiss(T.self, name: name) }
        return try create(found, T.self)
    }

    /// The awaited resolve's general path, when this container's chain registers something
    /// async: what needs no await runs as in a synchronous resolve, on the thread; an async
    /// factory, or a creation another task has begun, is awaited.
    @usableFromInline
    nonisolated(nonsending)
        final func resolveAwaiting<T>(_ found: Found, _ type: T.Type, name: String?)
        async throws(FrostError) -> T
    {
        guard found.found else { return try await resolveMissAwaiting(T.self, name: name) }
        if let box = found.box { return _readBox(box, as: T.self) }
        let target = target(at: found.slot)
        return try await AwaitedResolve.withContext { context throws(FrostError) -> T in
            if let box = try await Engine.resolveAwaiting(target, in: context) {
                return _kept(box, as: T.self)
            }
            return try context.onThread { () throws(FrostError) -> T in
                try Engine.resolve(target, as: T.self, in: context)
            }
        }
    }

    /// A resolve by type and name, from code not specialized for `T` (a frame's unbound
    /// parameter, a `Container`'s resolve).
    final func resolveByType<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        let found = find(ObjectIdentifier(T.self), name: name)
        if let box = found.box { return _readBox(box, as: T.self) }
        return try resolve(found, T.self, name: name)
    }

    /// The cached instance a lookup found, or the engine's creation.
    @usableFromInline
    final func create<T>(_ found: Found, _ type: T.Type) throws(FrostError) -> T {
        if let box = found.box { return _readBox(box, as: T.self) }
        return try create(atChainSlot: found.slot, as: T.self)
    }

    /// Creates (or reads) the instance in chain slot `slot`, whose key is verified to be
    /// `T`'s, through the engine.
    final func create<T>(atChainSlot slot: UInt32, as type: T.Type) throws(FrostError) -> T {
        let target = target(at: slot)
        return try ResolveContext.continuing { context throws(FrostError) -> T in
            try Engine.resolve(target, as: T.self, in: context)
        }
    }

    /// For a top-level creation of a transient made by a closure or through bound parameters
    /// (``Component/createsAtRoot``): the frame it is made from, and its component; `nil` when
    /// the general path must run (a miss, a cached instance, another kind of registration, a
    /// disposed container, a resolve that may continue an async factory's).
    @usableFromInline
    final func rootFrame(for found: Found) -> (Frame, UnsafeRawPointer)? {
        guard let component = rootComponent(for: found),
            Unmanaged<Component>.fromOpaque(component)._withUnsafeGuaranteedRef({
                $0.createsAtRoot
            })
        else { return nil }
        return (frame(in: .current), component)
    }

    /// As ``rootFrame(for:)``, for a registration that takes runtime arguments and whose
    /// factory is called directly (``Component/takesArgumentsAtRoot``).
    @usableFromInline
    final func argumentsFrame(for found: Found) -> (Frame, UnsafeRawPointer)? {
        guard let component = rootComponent(for: found),
            Unmanaged<Component>.fromOpaque(component)._withUnsafeGuaranteedRef({
                $0.takesArgumentsAtRoot
            })
        else { return nil }
        return (frame(in: .current), component)
    }

    /// The registration a lookup found, for a creation at the top of a resolve: `nil` for a
    /// miss, a cached instance, a registration of a disposed container, or while an async
    /// factory runs somewhere (the general path then decides whose path this continues).
    @inline(__always)
    private final func rootComponent(for found: Found) -> UnsafeRawPointer? {
        guard found.found, found.box == nil, !AwaitedResolve.factoriesRun else { return nil }
        guard isChild else {
            return isDisposed
                ? nil
                : slots.unsafelyUnwrapped.componentPointer(at: found.slot)
        }
        let place = place(of: found.slot)
        guard !place.owner._withUnsafeGuaranteedRef({ $0.isDisposed }) else { return nil }
        return place.component
    }

    /// The frame a creation at the top of a resolve in this container starts from.
    @inline(__always)
    final func frame(in context: ResolveContext) -> Frame {
        Frame(
            space: Unmanaged.passUnretained(self), slotArray: frameSlots, slots: nil,
            context: context.opaque)
    }

    /// What a bound parameter's slot holds, in a child (see `Frame.look(at:)`): the component
    /// when it is a transient made through the frame (read nothing), or a `.scoped` one made
    /// the same way with its empty cell; else a cached instance to read (a singleton's, a
    /// registered one's, a `.scoped` instance or provided value of this child), or none of
    /// these (made through ``create(atChainSlot:as:)``). A registration of a disposed
    /// container is none of these: the engine refuses it.
    final func look(chainSlot slot: UInt32) -> (
        box: UnsafeMutableRawPointer?, component: UnsafeRawPointer?, cell: UnsafeMutableRawPointer?
    ) {
        let place = place(of: slot)
        guard !place.owner._withUnsafeGuaranteedRef({ $0.isDisposed }) else {
            return (nil, nil, nil)
        }
        // Kept alive by its container, which this one holds; not retained here.
        let component = Unmanaged<Component>.fromOpaque(place.component)
        if let index = place.flags.perChildIndex {
            guard let cell = perChildCell(index, place.flags) else { return (nil, nil, nil) }
            if let box = cell.read() { return (box, nil, nil) }
            guard component._withUnsafeGuaranteedRef({ $0.makesOncePerChild }) else {
                return (nil, nil, nil)
            }
            return (nil, place.component, cell.address)
        }
        let (createsAtRoot, caches) = component._withUnsafeGuaranteedRef {
            ($0.createsAtRoot, $0.caches)
        }
        if createsAtRoot { return (nil, place.component, nil) }
        return (caches ? place.cell.read() : nil, nil, nil)
    }

    // MARK: Runtime arguments

    /// A resolve with runtime arguments (a pointer to a tuple of `argumentType`, valid during
    /// the call): by code specialized in the caller when the registration takes them directly.
    @inlinable
    final func resolve<T>(
        _ type: T.Type, name: String?, arguments: UnsafeRawPointer, argumentType: Any.Type
    ) throws(FrostError) -> T {
        let found = find(ObjectIdentifier(T.self), name: name)
        if let (frame, component) = argumentsFrame(for: found),
            let made = try frame.makeAtRoot(
                component, arguments: arguments, argumentType: argumentType, as: T.self)
        {
            return made
        }
        return try create(
            found, T.self, name: name, arguments: arguments, argumentType: argumentType)
    }

    /// A resolve with runtime arguments from code that holds the container unretained.
    @inlinable
    static func resolve<T>(
        _ type: T.Type, name: String?, arguments: UnsafeRawPointer, argumentType: Any.Type,
        in space: Unmanaged<_Space>
    ) throws(FrostError) -> T {
        let found = space._withUnsafeGuaranteedRef { $0.find(ObjectIdentifier(T.self), name: name) }
        if let (frame, component) = space._withUnsafeGuaranteedRef({ $0.argumentsFrame(for: found) }
        ),
            let made = try frame.makeAtRoot(
                component, arguments: arguments, argumentType: argumentType, as: T.self)
        {
            return made
        }
        let made = space._withUnsafeGuaranteedRef { space in
            Result { () throws(FrostError) -> T in
                try space.create(
                    found, T.self, name: name, arguments: arguments, argumentType: argumentType)
            }
        }
        return try made.get()
    }

    /// The general path of a resolve with runtime arguments.
    @usableFromInline
    final func create<T>(
        _ found: Found, _ type: T.Type, name: String?, arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        guard found.found else {
            return try resolveUnregistered(
                T.self, name: name, arguments: arguments, argumentType: argumentType)
        }
        let target = target(at: found.slot)
        return try ResolveContext.continuing { context throws(FrostError) -> T in
            try target.checkOpen(in: context)
            let typed = unsafeDowncast(target.component, to: TypedComponent<T>.self)
            return try context.entering(typed) {
                try typed.make(target.context.resolver, arguments: arguments, type: argumentType)
            }
        }
    }

    // MARK: Everything of a type, contains

    /// Every registration of `type` this container answers for, each key once: its own (new
    /// keys), then its parent's as this container sees them (a key it overrides answers its
    /// override).
    final func instances<T>(of type: T.Type) throws(FrostError) -> [T] {
        var all: [T] = []
        var space: _Space? = self
        while let current = space {
            for slot in current.slotsByType[ObjectIdentifier(T.self)] {
                all.append(try create(atChainSlot: slot, as: T.self))
            }
            space = current.parent
        }
        return all
    }

    /// The slots of each type's own registrations, in registration order: `resolveAll`'s
    /// index, built on its first use.
    final var slotsByType: SlotsByType {
        slotsByTypeStorage.get {
            SlotsByType(
                components.indices.map {
                    (ObjectIdentifier(components[$0].key.type.type), base + ownSlots[$0])
                })
        }
    }

    /// Whether `key` is registered here or in a parent.
    final func contains(_ key: RegistrationKey) -> Bool {
        chainSlot(for: key) != PerfectHashTable.notFound
    }

    /// This container's keys and its parents', for near misses.
    final var catalog: Catalog {
        guard let ownCatalog else { return parent?.catalog ?? Catalog.empty }
        guard let parent, ownCatalog.parent == nil else { return ownCatalog }
        return Catalog(keys: ownCatalog.keys, parent: parent.catalog)
    }

    // MARK: Provided keys

    /// The per-child index of `key` when this container's chain declares it `provided` (and
    /// no child on the way overrides it): where a child's value for it goes.
    final func providedIndex(of key: RegistrationKey) -> Int? {
        guard let providedKeys else { return parent?.providedIndex(of: key) }
        let type = ObjectIdentifier(key.type.type)
        for provided in providedKeys where provided.type == type && provided.name == key.name {
            return provided.index
        }
        return nil
    }

    /// The provided keys of the chain of a container with these registrations: its parent's,
    /// less those it overrides, and its own.
    private static func providedKeys(
        parent: _Space?, lookup: Lookup, components: [Component], overrides: Overrides?
    ) -> [ProvidedKey] {
        var keys = parent?.allProvidedKeys ?? []
        func add(_ key: RegistrationKey, _ flags: SlotFlags) {
            guard flags.isProvided else { return }
            keys.append(
                ProvidedKey(
                    type: ObjectIdentifier(key.type.type), name: key.name,
                    index: flags.perChildIndex!))
        }
        if let overrides {
            let overridden = Set(overrides.components.map(\.key))
            keys.removeAll { overridden.contains(RegistrationKey($0.type, name: $0.name)) }
        }
        for slot in 0..<UInt32(lookup.capacity) {
            guard let index = lookup.inputIndex(of: slot) else { continue }
            add(components[index].key, lookup.flags(at: slot))
        }
        if let overrides {
            for (component, flags) in zip(overrides.components, overrides.flags) {
                add(component.key, flags)
            }
        }
        return keys
    }

    /// The provided keys of this container's chain.
    private final var allProvidedKeys: [ProvidedKey] {
        providedKeys ?? parent?.allProvidedKeys ?? []
    }

    /// The per-child indices of the provided keys of this container's chain (the others are
    /// `.scoped`). Slow: reads every slot on the way up; for releasing.
    final var providedIndices: Set<Int> {
        var indices: Set<Int> = []
        var space: _Space? = self
        while let current = space {
            var flags: [SlotFlags] = current.overrides?.flags ?? []
            for slot in 0..<UInt32(current.lookup.capacity)
            where current.lookup.inputIndex(of: slot) != nil {
                flags.append(current.lookup.flags(at: slot))
            }
            for flag in flags where flag.isProvided { indices.insert(flag.perChildIndex!) }
            space = current.parent
        }
        return indices
    }

    // MARK: Everything registered here

    /// Every registration this container makes itself, in registration order: its own, then
    /// its overrides of its parent's keys (what a description lists, what bootstrap makes).
    final var registrations: [(component: Component, slot: UInt32)] {
        // Each component's slot, by its index in registration order: one pass over the
        // slots, no sort.
        var slotOfIndex = [UInt32](repeating: .max, count: components.count)
        for slot in 0..<UInt32(lookup.capacity) {
            guard let index = lookup.inputIndex(of: slot) else { continue }
            slotOfIndex[index] = base + slot
        }
        var registrations: [(component: Component, slot: UInt32)] = []
        registrations.reserveCapacity(components.count + (overrides?.components.count ?? 0))
        for (index, slot) in slotOfIndex.enumerated() where slot != .max {
            registrations.append((components[index], slot))
        }
        if let overrides {
            for (component, slot) in zip(overrides.components, overrides.slots) {
                registrations.append((component, slot))
            }
        }
        return registrations
    }
}

/// What a lookup answers: the slot found, with its flags above it (``SlotFlags``), or
/// `UInt.max` for nothing; and the box cached there (a protected read: copy its value out
/// before reading another cell).
@usableFromInline
struct Found {
    @usableFromInline let location: UInt
    @usableFromInline let box: UnsafeMutableRawPointer?

    @usableFromInline
    init(location: UInt, box: UnsafeMutableRawPointer?) {
        self.location = location
        self.box = box
    }

    /// Whether a registration was found.
    @usableFromInline var found: Bool { location != .max }

    /// Nothing found.
    @usableFromInline static var missing: Found { Found(location: .max, box: nil) }

    /// The slot found.
    var slot: UInt32 { UInt32(truncatingIfNeeded: location) }

    /// The flags of the slot found.
    var flags: SlotFlags { SlotFlags(UInt32(truncatingIfNeeded: location >> 32)) }

    /// This answer with `offset` added to its slot (an own slot, in the chain).
    func adding(_ offset: UInt32) -> Found {
        Found(location: location + UInt(offset), box: box)
    }
}

/// Where a slot of a container's chain is registered, as a container sees it (see
/// ``_Space/place(of:)``). Unretained: the containers on the way keep it all alive while the
/// container that found it is in use.
struct Place {
    /// The registration, a `Component`.
    let component: UnsafeRawPointer
    /// The slot's cell (or the override's): a cached instance.
    let cell: Cell
    /// The slot's cell in its container's weak side block (`nil` when the container keeps
    /// nothing weakly): what a `.weak` registration keeps its instance in; unused by others.
    let weakCell: Cell?
    /// The container the registration belongs to.
    let owner: Unmanaged<_Space>
    /// The slot's flags.
    let flags: SlotFlags

    /// The registration, unretained.
    var registration: Component {
        Unmanaged<Component>.fromOpaque(component).takeUnretainedValue()
    }
}

/// A provided key of a container's chain, and its per-child index: what
/// ``_Space/providedIndex(of:)`` looks through (a handful, by nature).
struct ProvidedKey {
    let type: ObjectIdentifier
    let name: String?
    let index: Int
}

/// What a container is built from (``Freezer``).
struct SpaceParts {
    var defaultScope: Scope
    var lookup: Lookup
    var components: [Component]
    var parent: _Space?
    var perChildCount: Int
    var overrides: Overrides?
    /// The own lookup's slot of each of `components`, by position.
    var ownSlots: [UInt32]
    var catalog: Catalog
    var cells: SpaceCells
}

/// The bits a slot's flags carry (CFrost stores them; lookups return them above the slot
/// number): whether the slot's registration is per-child (bit 0: `.scoped`, provided), whether
/// it is a provided key (bit 1), and its per-child index (from bit 8).
struct SlotFlags {
    let raw: UInt32

    init(_ raw: UInt32) { self.raw = raw }

    /// The flags of a registration with this per-child index, provided or not (`nil` for a key that
    /// is not per-child).
    init(perChildIndex: Int?, provided: Bool) {
        guard let index = perChildIndex else {
            raw = 0
            return
        }
        raw = UInt32(index) << 8 | (provided ? 3 : 1)
    }

    /// The per-child index, for a per-child key.
    var perChildIndex: Int? { raw & 1 == 0 ? nil : Int(raw >> 8) }

    /// Whether the key is provided (by each child), not `.scoped`.
    var isProvided: Bool { raw & 2 != 0 }

    /// A lookup's location: `slot`, with these flags above it.
    func location(slot: UInt32) -> UInt { UInt(raw) << 32 | UInt(slot) }
}
