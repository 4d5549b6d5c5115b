/// The slots of each type's own registrations, in registration order: what `resolveAll` walks.
///
/// Built at freeze from every own registration, as one array sorted by type (registration
/// order kept among a type's registrations), and searched by bisection: no dictionary and no
/// array per type, which freeze would otherwise build for every registered type, whether or
/// not anything ever calls `resolveAll`.
struct SlotsByType: Sendable {
    /// Each registration's type, sorted; `slots[i]` is the slot of `types[i]`'s registration.
    private let types: [ObjectIdentifier]
    private let slots: [UInt32]

    /// No registrations.
    static let empty = SlotsByType(types: [], slots: [])

    private init(types: [ObjectIdentifier], slots: [UInt32]) {
        self.types = types
        self.slots = slots
    }

    /// The slots of `registrations` (each a type and its slot, in registration order).
    init(_ registrations: [(type: ObjectIdentifier, slot: UInt32)]) {
        // Sorted by type, then by position: a type's registrations stay in registration order.
        let order = registrations.indices.sorted {
            (registrations[$0].type, $0) < (registrations[$1].type, $1)
        }
        types = order.map { registrations[$0].type }
        slots = order.map { registrations[$0].slot }
    }

    /// The slots of `type`'s registrations, in registration order (empty when there are none).
    subscript(type: ObjectIdentifier) -> ArraySlice<UInt32> {
        // The first position whose type is not below `type`.
        var low = 0
        var high = types.count
        while low < high {
            let middle = low + (high - low) / 2
            if types[middle] < type { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < types.count, types[end] == type { end += 1 }
        return slots[low..<end]
    }
}
