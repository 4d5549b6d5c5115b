import Testing

@testable import Frost

/// `resolveAll`'s index: each type's slots in registration order, whatever order the types
/// come in and whatever the slots are (a perfect hash's slots follow no order), for sizes around
/// the sort's edges.
@Suite("The slots of each type")
struct SlotsByTypeTests {
    private final class A {}
    private final class B {}
    private final class C {}

    private static let types = [
        ObjectIdentifier(A.self), ObjectIdentifier(B.self), ObjectIdentifier(C.self),
    ]

    /// Sequences of type indices (into `types`): one type, alternating, in blocks, reversed
    /// blocks, and a longer mix; each registration gets a slot that falls as it goes.
    static let sequences: [[Int]] = [
        [], [0], [0, 0], [1, 0], [0, 1, 0], [2, 2, 2, 2],
        [0, 1, 0, 1, 0, 1], [2, 2, 1, 1, 0, 0], [0, 0, 0, 1, 1, 1, 2, 2, 2].reversed(),
        (0..<1_000).map { ($0 * 7 + $0 / 13) % 3 },
    ]

    @Test(arguments: sequences)
    func everyTypeKeepsItsSlotsInOrder(sequence: [Int]) {
        var registrations: [(type: ObjectIdentifier, slot: UInt32)] = []
        var expected: [[UInt32]] = Array(repeating: [], count: Self.types.count)
        for (position, type) in sequence.enumerated() {
            // Falling, and not a multiple of the position: no sort by slot can pass for one
            // by registration order.
            let slot = UInt32(sequence.count - position) * 5 + UInt32(position % 3)
            registrations.append((Self.types[type], slot))
            expected[type].append(slot)
        }
        let index = SlotsByType(registrations)
        for (type, slots) in zip(Self.types, expected) {
            #expect(Array(index[type]) == slots)
        }
        #expect(index[ObjectIdentifier(Int.self)].isEmpty)
        #expect(SlotsByType()[Self.types[0]].isEmpty)
    }
}
