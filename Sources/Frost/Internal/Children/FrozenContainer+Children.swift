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

    /// What this container has in slot `slot` of its space: its own registration, its
    /// override, or its parent's; with the cell the instance of a cached registration lives in,
    /// the container it belongs to, and its per-child index if it has one.
    func registration(atSpaceSlot slot: UInt32) -> (
        component: Component, cell: Cell, owner: FrozenContainer, perChild: Int?
    ) {
        if slot >= base {
            let own = slot - base
            let component = table.component(at: own)
            return (
                component, weakCell(atOwnSlot: own) ?? table.cell(at: own), self,
                SlotFlags(table.flags(at: own)).perChildIndex
            )
        }
        if let overrides, let index = overrides.index(atParentSlot: slot) {
            let component = overrides.components[index]
            let cells = cells.override(index)
            return (
                component, component.kind == .weak ? cells.weakCell : cells.cell, self,
                overrides.perChild[index]
            )
        }
        return parent.unsafelyUnwrapped.registration(atSpaceSlot: slot)
    }

    /// What the engine needs to resolve slot `slot` in this container.
    func target(atSpaceSlot slot: UInt32) -> Target {
        let found = registration(atSpaceSlot: slot)
        var cell: Cell? = found.cell
        if let index = found.perChild {
            switch found.component.kind {
            case .scoped: cell = isChild ? cells.perChild(index) : nil
            case .provided: cell = providedCell(index)
            default: break
            }
        }
        return Target(component: found.component, cell: cell, owner: found.owner, context: self)
    }

    /// The cell of the nearest container, from this one up, that supplies the provided key of
    /// per-child index `index`; `nil` when none does.
    func providedCell(_ index: Int) -> Cell? {
        var container: FrozenContainer? = self
        while let current = container, current.isChild {
            if index < current.cells.perChildCount, current.cells.perChild(index).peek() != nil {
                return current.cells.perChild(index)
            }
            container = current.parent
        }
        return nil
    }

    /// The kind of the per-child key with index `index` (`.scoped` or `.provided`).
    func perChildKind(_ index: Int) -> Scope.Kind? {
        var container: FrozenContainer? = self
        while let current = container {
            if let kind = current.ownPerChildKinds[index] { return kind }
            container = current.parent
        }
        return nil
    }

    /// The per-child keys this container's own registrations (table and overrides) define,
    /// by index.
    var ownPerChildKinds: [Int: Scope.Kind] {
        var kinds: [Int: Scope.Kind] = [:]
        for slot in 0..<UInt32(table.capacity) {
            guard table.inputIndex(of: slot) != nil,
                let index = SlotFlags(table.flags(at: slot)).perChildIndex
            else { continue }
            kinds[index] = table.component(at: slot).kind
        }
        for (index, perChild) in (overrides?.perChild ?? []).enumerated() {
            if let perChild { kinds[perChild] = overrides!.components[index].kind }
        }
        return kinds
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
        let found = parent.unsafelyUnwrapped._lookUp(type, name: name)
        guard found.found else { return .unknown }
        return applyingChild(to: found)
    }

    /// `_lookUp(slot:)` in a child.
    func lookUpInChild(spaceSlot slot: UInt32) -> _ResolverLookup {
        if cells.isDisposed { return .unknown }
        if slot >= base { return lookUp(slot: slot - base).addingToSlot(base) }
        return applyingChild(to: parent.unsafelyUnwrapped._lookUp(slot: slot))
    }

    /// What the parent's answer for a slot becomes in this child: its override, or its
    /// per-child cell (a `.scoped` instance or a provided value made or supplied here; `nil`,
    /// for the slow path, when none is), or the parent's cached instance as it is.
    private func applyingChild(to found: _ResolverLookup) -> _ResolverLookup {
        let slot = UInt32(truncatingIfNeeded: found.location)
        if let overrides, let index = overrides.index(atParentSlot: slot) {
            let component = overrides.components[index]
            let flags = SlotFlags(perChildIndex: overrides.perChild[index])
            let box = component.caches ? cells.override(index).cell.read() : nil
            return _ResolverLookup(location: flags.location(slot: slot), box: box)
        }
        if let index = SlotFlags(found.flags).perChildIndex {
            return _ResolverLookup(location: found.location, box: cells.perChild(index).read())
        }
        return found
    }

    /// What a bound parameter's slot holds, in a child: the component when it is an autowired
    /// transient created through bound parameters (read nothing), else a cached instance to
    /// read (a singleton's, a registered one's, a `.scoped` instance or provided value of this
    /// child), or neither (made through ``create(at:as:)``).
    func look(spaceSlot slot: UInt32) -> (
        box: UnsafeMutableRawPointer?, component: UnsafeRawPointer?
    ) {
        let found = registration(atSpaceSlot: slot)
        let component = found.component
        if let index = found.perChild {
            guard isChild, component.kind == .scoped || providedCell(index) != nil else {
                return (nil, nil)
            }
            let cell = component.kind == .scoped ? cells.perChild(index) : providedCell(index)!
            return (cell.read(), nil)
        }
        if component.createsDirectly, component.boundSlots != nil {
            return (nil, UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()))
        }
        guard component.caches else { return (nil, nil) }
        return (found.cell.read(), nil)
    }
}

/// A child's registrations of keys its parent knows, by the parent's slot.
final class Overrides: Sendable {
    /// The overriding components, in registration order.
    let components: [Component]
    /// The per-child index of each, for a `.scoped` or provided one.
    let perChild: [Int?]
    /// By parent slot: the index of its override, plus one (0: not overridden). Covers the
    /// parent's slot space.
    private let bySlot: [UInt32]

    init(components: [Component], slots: [UInt32], perChild: [Int?], spaceSize: UInt32) {
        self.components = components
        self.perChild = perChild
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
/// number): whether the slot's registration is per-child (`.scoped`, provided), and its
/// per-child index.
struct SlotFlags {
    let raw: UInt32

    init(_ raw: UInt32) { self.raw = raw }

    init(perChildIndex: Int?) {
        raw = perChildIndex.map { UInt32($0) << 8 | 1 } ?? 0
    }

    /// The per-child index, for a per-child key.
    var perChildIndex: Int? { raw & 1 == 0 ? nil : Int(raw >> 8) }

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
