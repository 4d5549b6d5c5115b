/// Layer 1 of the engine: how a key finds its slot among one container's own registrations.
///
/// This is the only thing the two containers do differently: a frozen container looks a key up
/// through the cmph perfect hash (``PerfectHashTable``), a `Container` through a Swift
/// `Dictionary` (``DictionaryTable``). Both answer a slot of the same kind (``SlotArray``),
/// whose cell caches the instance, and everything after the lookup is shared.
enum Lookup: @unchecked Sendable {
    // @unchecked: both tables are immutable after installation, their cells atomic.
    case perfectHash(PerfectHashTable)
    case dictionary(DictionaryTable)
    /// No keys at all (a child that registers no key of its own): nothing to build or free.
    case none

    /// The slot of an unnamed key (by the type's identity) and the box cached in it (a protected
    /// read): `location` is the slot with its flags above it (``SlotFlags``), `UInt.max` when
    /// the key is not here.
    @inline(__always)
    func find(_ type: ObjectIdentifier) -> (location: UInt, box: UnsafeMutableRawPointer?) {
        switch self {
        case .perfectHash(let table):
            let found = table.find(identity: UInt64(UInt(bitPattern: type)))
            return (found.location, found.instance)
        case .dictionary(let table):
            let slot = table.slot(for: RegistrationKey(type, name: nil))
            guard slot != PerfectHashTable.notFound else { return (.max, nil) }
            return (location(of: slot), cell(at: slot).read())
        case .none:
            return (.max, nil)
        }
    }

    /// The slot of `key`, or `PerfectHashTable.notFound`.
    func slot(for key: RegistrationKey) -> UInt32 {
        switch self {
        case .perfectHash(let table): table.slot(for: key)
        case .dictionary(let table): table.slot(for: key)
        case .none: PerfectHashTable.notFound
        }
    }

    /// The slot of a named key, or `PerfectHashTable.notFound`.
    func slot(_ type: ObjectIdentifier, name: String) -> UInt32 {
        switch self {
        case .perfectHash(let table):
            table.slot(identity: UInt64(UInt(bitPattern: type)), name: name)
        case .dictionary(let table): table.slot(for: RegistrationKey(type, name: name))
        case .none: PerfectHashTable.notFound
        }
    }

    /// The number of keys.
    var count: Int {
        switch self {
        case .perfectHash(let table): table.count
        case .dictionary(let table): table.count
        case .none: 0
        }
    }

    /// The number of slots (a perfect hash may leave some empty).
    var capacity: Int {
        switch self {
        case .perfectHash(let table): table.capacity
        case .dictionary(let table): table.count
        case .none: 0
        }
    }

    /// The slot array; `nil` when there are no keys.
    var slotArray: SlotArray? {
        guard count > 0 else { return nil }
        switch self {
        case .perfectHash(let table): return table.slotsView
        case .dictionary(let table): return table.slotArray
        case .none: return nil
        }
    }

    /// The position, in the keys the table was built from, of the key in `slot`; `nil` for an
    /// empty slot.
    func inputIndex(of slot: UInt32) -> Int? {
        guard let slots = slotArray, Int(slot) < capacity else { return nil }
        return slots.inputIndex(of: slot)
    }

    /// Installs `component` in `slot` with its flags (its instance too, for a registered one).
    /// Only before the table is shared.
    func install(_ component: Component, at slot: UInt32, flags: UInt32) {
        switch self {
        case .perfectHash(let table): table.install(component, at: slot, flags: flags)
        case .dictionary(let table): table.install(component, at: slot, flags: flags)
        case .none: break  // an empty lookup has no slots, so none is installed
        }
    }

    /// A lookup's location: `slot` with its flags above it.
    func location(of slot: UInt32) -> UInt {
        slotArray.unsafelyUnwrapped.location(of: slot)
    }

    /// The cell of `slot`.
    @inline(__always)
    func cell(at slot: UInt32) -> Cell {
        slotArray.unsafelyUnwrapped.cell(at: slot)
    }

    /// The registration in `slot`, unretained (its container keeps it alive).
    @inline(__always)
    func componentPointer(at slot: UInt32) -> UnsafeRawPointer {
        slotArray.unsafelyUnwrapped.componentPointer(at: slot)
    }

    /// The flags of `slot`.
    @inline(__always)
    func flags(at slot: UInt32) -> SlotFlags {
        SlotFlags(slotArray.unsafelyUnwrapped.flags(at: slot))
    }

    /// How the identity function was built, for a description (`nil` for a dictionary).
    var identityFunction: (rung: Int, salted: Bool)? {
        guard case .perfectHash(let table) = self else { return nil }
        return table.identityFunction
    }
}
