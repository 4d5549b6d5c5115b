import Testing

@testable import Frost

/// `resolveAll`'s index: each type's slots in registration order, whatever order the types
/// come in, for sizes around the sort's edges.
@Suite("The slots of each type")
struct SlotsByTypeTests {
    private final class A {}
    private final class B {}
    private final class C {}
    private final class D {}
    private final class E {}

    @Test(arguments: [0, 1, 2, 3, 4, 5, 17, 64, 1_000])
    func everyTypeKeepsItsSlotsInOrder(count: Int) {
        let types: [ObjectIdentifier] = [
            ObjectIdentifier(A.self), ObjectIdentifier(B.self), ObjectIdentifier(C.self),
            ObjectIdentifier(D.self), ObjectIdentifier(E.self),
        ]
        var generator = SystemRandomNumberGenerator()
        var registrations: [(type: ObjectIdentifier, slot: UInt32)] = []
        var expected: [ObjectIdentifier: [UInt32]] = [:]
        for slot in 0..<UInt32(count) {
            let type = types.randomElement(using: &generator)!
            registrations.append((type, slot * 3))
            expected[type, default: []].append(slot * 3)
        }
        let index = SlotsByType(registrations)
        for type in types {
            #expect(Array(index[type]) == expected[type, default: []])
        }
        #expect(index[ObjectIdentifier(Int.self)].isEmpty)
        #expect(SlotsByType()[types[0]].isEmpty)
    }
}
