/// The slots of each type's own registrations, in registration order: what `resolveAll` walks.
///
/// Built on a container's first `resolveAll` (``_Space/slotsByType``), not at freeze: most
/// containers never call it. One array sorted by type (registration order kept among a
/// type's registrations), searched by bisection: no dictionary and no array per type.
final class SlotsByType: Sendable {
    /// Each registration's type, sorted; `slots[i]` is the slot of `types[i]`'s registration.
    private let types: [ObjectIdentifier]
    private let slots: [UInt32]

    /// No registrations.
    convenience init() {
        self.init([])
    }

    /// The slots of `registrations` (each a type and its slot, in registration order).
    init(_ registrations: [(type: ObjectIdentifier, slot: UInt32)]) {
        // Sorted by type, then by position, so that a type's registrations stay in
        // registration order. A heapsort of its own: the standard library's sort makes its
        // first array of `Range<Int>` in a new process, whose metadata costs a cold start more
        // than this whole sort.
        var order = registrations.indices.map { (type: registrations[$0].type, position: $0) }
        order.withUnsafeMutableBufferPointer { order in
            func siftDown(_ start: Int, _ end: Int) {
                var parent = start
                while true {
                    var child = 2 * parent + 1
                    guard child < end else { return }
                    if child + 1 < end, order[child] < order[child + 1] { child += 1 }
                    guard order[parent] < order[child] else { return }
                    order.swapAt(parent, child)
                    parent = child
                }
            }
            for start in stride(from: order.count / 2 - 1, through: 0, by: -1) {
                siftDown(start, order.count)
            }
            for end in stride(from: order.count - 1, to: 0, by: -1) {
                order.swapAt(0, end)
                siftDown(0, end)
            }
        }
        types = order.map(\.type)
        slots = order.map { registrations[$0.position].slot }
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
