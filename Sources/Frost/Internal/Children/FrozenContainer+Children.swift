/// How a child container finds registrations: one **slot space** for a container and its
/// parents.
///
/// A root's slot space is its table's slots. A child's continues its parent's: the parent's
/// space comes first (same numbers), then the child's own table (keys the parent does not
/// know), from ``FrozenContainer/base``. So a slot number means the same key in a container
/// and in every child below it: the slots `freeze()` bound a parent's autowired parameters to
/// stay valid when the parent's registration is resolved through a child.
///
/// What a child registers for a key its parent knows goes to one of two places, never to a
/// table:
/// - a value for a key the parent declared with `provided` fills the child's **per-child
///   cell** of that key (``ContainerCells``), where `.scoped` instances live too. Each
///   per-child key of the space has an index, recorded in its slot's flags (``SlotFlags``);
/// - anything else **overrides** the parent's registration, by slot (``Overrides``).
///
/// Resolving slot `s` through a child: its own registration (own table or override) if it has
/// one, else the parent's, resolved in the child (``Target``).
extension FrozenContainer {
    /// The number of slots of this container's space: its parent's, then its own table's.
    var spaceSize: UInt32 { base + UInt32(table.capacity) }

    /// The slot array a bound-parameter frame reads: this container's table's, tagged (bit 0)
    /// when this is a child, whose frames must look each slot up through the container.
    var frameSlots: UnsafeRawPointer {
        let slots = table.count > 0 ? table.slotArray : UnsafeRawPointer(bitPattern: 64)!
        return isChild ? slots + 1 : slots
    }

    /// The slot of `key` in this container's space, or `PerfectHashTable.notFound`.
    func spaceSlot(for key: RegistrationKey) -> UInt32 {
        let own = table.slot(for: key)
        if own != PerfectHashTable.notFound { return base + own }
        return parent?.spaceSlot(for: key) ?? PerfectHashTable.notFound
    }

    /// The registration of `key` as this container sees it (own, override, or a parent's).
    func registration(for key: RegistrationKey) -> Component? {
        let slot = spaceSlot(for: key)
        guard slot != PerfectHashTable.notFound else { return nil }
        return registration(atSpaceSlot: slot).component
    }

    /// The `.weak` side cell of an own slot, if it has one.
    func weakCell(atOwnSlot slot: UInt32) -> Cell? {
        weakCells.isEmpty ? nil : weakCells[Int(slot)]
    }

    /// Where slot `slot` of this container's space is registered, as this container sees it:
    /// its own table, an override (its own or a parent child's), or the parent's table.
    /// Nothing is retained: this container holds every container on the way.
    @inline(__always)
    func place(ofSpaceSlot slot: UInt32) -> SlotPlace {
        var container = Unmanaged.passUnretained(self)
        while true {
            if let place = container._withUnsafeGuaranteedRef({
                $0.ownPlace(ofSpaceSlot: slot, in: container)
            }) {
                return place
            }
            container = container._withUnsafeGuaranteedRef { $0.parentReference.unsafelyUnwrapped }
        }
    }

    /// `slot`'s place when this container (`me`) registers it: in its own table or as an
    /// override of its parent's; `nil` when it is the parent's.
    @inline(__always)
    private func ownPlace(ofSpaceSlot slot: UInt32, in me: Unmanaged<FrozenContainer>)
        -> SlotPlace?
    {
        if slot >= base {
            let own = slot - base
            return SlotPlace(
                component: table.componentPointer(at: own),
                cell: weakCell(atOwnSlot: own) ?? table.cell(at: own),
                owner: me,
                flags: SlotFlags(table.flags(at: own))
            )
        }
        guard let overrides, let index = overrides.index(atParentSlot: slot) else { return nil }
        let component = overrides.components[index]
        let cells = cells.override(index)
        return SlotPlace(
            component: UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()),
            cell: component.kind == .weak ? cells.weakCell : cells.cell,
            owner: me,
            flags: overrides.flags[index]
        )
    }

    /// What this container has in slot `slot` of its space: its own registration, its
    /// override, or its parent's; with the cell the instance of a cached registration lives in,
    /// the container it belongs to, and its slot flags. For slow paths (freezing, releasing).
    func registration(atSpaceSlot slot: UInt32) -> (
        component: Component, cell: Cell, owner: FrozenContainer, flags: SlotFlags
    ) {
        let place = place(ofSpaceSlot: slot)
        return (
            Unmanaged<Component>.fromOpaque(place.component).takeUnretainedValue(), place.cell,
            place.owner.takeUnretainedValue(), place.flags
        )
    }

    /// The per-child cell of index `index` for a registration with these flags: this child's,
    /// for a `.scoped` instance; for a provided value, the nearest container's that supplies
    /// it (`nil` when none does).
    @inline(__always)
    func perChildCell(_ index: Int, _ flags: SlotFlags) -> Cell? {
        if flags.isProvided { return providedCell(index) }
        return isChild ? cells.perChild(index) : nil
    }

    /// What the engine needs to resolve slot `slot` in this container.
    func target(atSpaceSlot slot: UInt32) -> Target {
        let place = place(ofSpaceSlot: slot)
        let cell = place.flags.perChildIndex.map { perChildCell($0, place.flags) } ?? place.cell
        return Target(
            component: Unmanaged<Component>.fromOpaque(place.component).takeUnretainedValue(),
            cell: cell, owner: place.owner.takeUnretainedValue(), context: self)
    }

    /// The cell of the nearest container, from this one up, that supplies the provided key of
    /// per-child index `index`; `nil` when none does.
    func providedCell(_ index: Int) -> Cell? {
        var container = Unmanaged.passUnretained(self)
        while true {
            let cell: Cell?? = container._withUnsafeGuaranteedRef { current in
                guard current.isChild else { return .some(nil) }
                if index < current.cells.perChildCount, current.cells.perChild(index).peek() != nil
                {
                    return current.cells.perChild(index)
                }
                return nil
            }
            if let cell { return cell }
            container = container._withUnsafeGuaranteedRef { $0.parentReference.unsafelyUnwrapped }
        }
    }

    /// The per-child indices of the provided keys of this container's space (the others are
    /// `.scoped`). Slow: reads every slot on the way up; for `releaseCachedInstances()`.
    var providedIndices: Set<Int> {
        var indices: Set<Int> = []
        var container: FrozenContainer? = self
        while let current = container {
            var flags: [SlotFlags] = current.overrides?.flags ?? []
            for slot in 0..<UInt32(current.table.capacity)
            where current.table.inputIndex(of: slot) != nil {
                flags.append(SlotFlags(current.table.flags(at: slot)))
            }
            for flag in flags where flag.isProvided { indices.insert(flag.perChildIndex!) }
            container = current.parent
        }
        return indices
    }

    // MARK: Lookups in a child

    /// `_lookUp` in a child: its own table, then its parent's lookup with the child's
    /// overrides and per-child cells applied. A disposed child finds nothing (its slow path
    /// throws `.disposed`).
    func lookUpInChild(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        if cells.isDisposed { return .unknown }
        if table.count > 0 {
            let own = lookUp(type, name: name)
            if own.found { return own.addingToSlot(base) }
        }
        let found = parentReference.unsafelyUnwrapped._withUnsafeGuaranteedRef {
            $0._lookUp(type, name: name)
        }
        guard found.found else { return .unknown }
        return applyingChild(to: found)
    }

    /// `_lookUp(slot:)` in a child.
    func lookUpInChild(spaceSlot slot: UInt32) -> _ResolverLookup {
        if cells.isDisposed { return .unknown }
        if slot >= base { return lookUp(slot: slot - base).addingToSlot(base) }
        return applyingChild(
            to: parentReference.unsafelyUnwrapped._withUnsafeGuaranteedRef {
                $0._lookUp(slot: slot)
            })
    }

    /// What the parent's answer for a slot becomes in this child: its override, or its
    /// per-child cell (a `.scoped` instance or a provided value made or supplied here; `nil`,
    /// for the slow path, when none is), or the parent's cached instance as it is.
    private func applyingChild(to found: _ResolverLookup) -> _ResolverLookup {
        let slot = UInt32(truncatingIfNeeded: found.location)
        if let overrides, let index = overrides.index(atParentSlot: slot) {
            let component = overrides.components[index]
            let flags = overrides.flags[index]
            let box = component.caches ? cells.override(index).cell.read() : nil
            return _ResolverLookup(location: flags.location(slot: slot), box: box)
        }
        let flags = SlotFlags(found.flags)
        if let index = flags.perChildIndex {
            return _ResolverLookup(
                location: found.location, box: perChildCell(index, flags)?.read())
        }
        return found
    }

    /// What a bound parameter's slot holds, in a child (see `_BoundParameters.look(at:)`):
    /// the component when it is an autowired transient created through bound parameters (read
    /// nothing), or a `.scoped` one created the same way with its empty cell; else a cached
    /// instance to read (a singleton's, a registered one's, a `.scoped` instance or provided
    /// value of this child), or none of these (made through ``create(at:as:)``).
    func look(spaceSlot slot: UInt32) -> (
        box: UnsafeMutableRawPointer?, component: UnsafeRawPointer?, cell: UnsafeMutableRawPointer?
    ) {
        let place = place(ofSpaceSlot: slot)
        // Kept alive by its container, which this one holds; not retained here.
        unowned(unsafe) let component = Unmanaged<Component>.fromOpaque(place.component)
            .takeUnretainedValue()
        if let index = place.flags.perChildIndex {
            guard let cell = perChildCell(index, place.flags) else { return (nil, nil, nil) }
            if let box = cell.read() { return (box, nil, nil) }
            guard component.createsScopedDirectly else { return (nil, nil, nil) }
            return (nil, place.component, cell.address)
        }
        if component.createsDirectly, component.boundSlots != nil {
            return (nil, place.component, nil)
        }
        return (component.caches ? place.cell.read() : nil, nil, nil)
    }

    /// The per-child index of `key` when this container's space declares it `provided` (and
    /// no child on the way overrides it): where a child's value for it goes.
    func providedIndex(of key: RegistrationKey) -> Int? {
        let type = ObjectIdentifier(key.type.type)
        for provided in providedKeys where provided.type == type && provided.name == key.name {
            return provided.index
        }
        return nil
    }

    /// The provided keys of the space of a container with these registrations: its parent's,
    /// less those it overrides, and its own.
    static func providedKeys(
        parent: FrozenContainer?, table: PerfectHashTable, components: [Component],
        overrides: Overrides?
    ) -> [ProvidedKey] {
        var keys = parent?.providedKeys ?? []
        var own: [(key: RegistrationKey, flags: SlotFlags)] = []
        for slot in 0..<UInt32(table.capacity) {
            guard let index = table.inputIndex(of: slot) else { continue }
            own.append((components[index].key, SlotFlags(table.flags(at: slot))))
        }
        if let overrides {
            let overridden = Set(overrides.components.map(\.key))
            keys.removeAll { overridden.contains(RegistrationKey($0.type, name: $0.name)) }
            own += zip(overrides.components.map(\.key), overrides.flags).map { ($0, $1) }
        }
        for (key, flags) in own where flags.isProvided {
            keys.append(
                ProvidedKey(
                    type: ObjectIdentifier(key.type.type), name: key.name,
                    index: flags.perChildIndex!))
        }
        return keys
    }
}

/// A provided key of a container's space, and its per-child index: what
/// ``FrozenContainer/providedIndex(of:)`` looks through (a handful, by nature).
struct ProvidedKey {
    let type: ObjectIdentifier
    let name: String?
    let index: Int
}

/// Where a slot of a container's space is registered, as a child sees it (see
/// ``FrozenContainer/place(ofSpaceSlot:)``). Unretained: the containers on the way keep it all
/// alive while the container that found it is in use.
struct SlotPlace {
    /// The registration, a `Component`.
    let component: UnsafeRawPointer
    /// Where its instance is cached: the slot's cell, an override's, or a `.weak`
    /// registration's side cell.
    let cell: Cell
    /// The container the registration belongs to.
    let owner: Unmanaged<FrozenContainer>
    /// The slot's flags.
    let flags: SlotFlags
}

/// A child's registrations of keys its parent knows, by the parent's slot.
final class Overrides: Sendable {
    /// The overriding components, in registration order.
    let components: [Component]
    /// The slot flags of each (its per-child index, for a `.scoped` or provided one).
    let flags: [SlotFlags]
    /// The parent's slot of each.
    let slots: [UInt32]
    /// By parent slot: the index of its override, plus one (0: not overridden). Covers the
    /// parent's slot space.
    private let bySlot: [UInt32]

    init(components: [Component], slots: [UInt32], flags: [SlotFlags], spaceSize: UInt32) {
        self.components = components
        self.flags = flags
        self.slots = slots
        var bySlot = [UInt32](repeating: 0, count: Int(spaceSize))
        for (index, slot) in slots.enumerated() { bySlot[Int(slot)] = UInt32(index + 1) }
        self.bySlot = bySlot
    }

    /// The index of the override of the parent's slot `slot`, if there is one.
    @inline(__always)
    func index(atParentSlot slot: UInt32) -> Int? {
        guard Int(slot) < bySlot.count else { return nil }
        let entry = bySlot[Int(slot)]
        return entry == 0 ? nil : Int(entry - 1)
    }

    /// Their keys, for near misses.
    var keys: [RegistrationKey] { components.map(\.key) }
}

/// The bits a slot's flags carry (CFrost stores them; lookups return them above the slot
/// number): whether the slot's registration is per-child (bit 0: `.scoped`, provided), whether
/// it is a provided key (bit 1), and its per-child index (from bit 8).
struct SlotFlags {
    let raw: UInt32

    init(_ raw: UInt32) { self.raw = raw }

    /// The flags of a registration of `kind` with this per-child index (`nil` for a key that
    /// is not per-child).
    init(perChildIndex: Int?, kind: Scope.Kind) {
        guard let index = perChildIndex else {
            raw = 0
            return
        }
        raw = UInt32(index) << 8 | (kind == .provided ? 3 : 1)
    }

    /// The per-child index, for a per-child key.
    var perChildIndex: Int? { raw & 1 == 0 ? nil : Int(raw >> 8) }

    /// Whether the key is provided (by each child), not `.scoped`.
    var isProvided: Bool { raw & 2 != 0 }

    /// A lookup's location: `slot`, with these flags above it.
    func location(slot: UInt32) -> UInt { UInt(raw) << 32 | UInt(slot) }
}

extension _ResolverLookup {
    /// The flags of the slot found (see ``SlotFlags``).
    var flags: UInt32 { UInt32(truncatingIfNeeded: location >> 32) }

    /// This answer, with `offset` added to its slot (an own table's slot, in the space).
    func addingToSlot(_ offset: UInt32) -> _ResolverLookup {
        _ResolverLookup(location: location + UInt(offset), box: box)
    }
}
