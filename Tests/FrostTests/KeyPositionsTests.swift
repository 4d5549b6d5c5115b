import Testing

@testable import Frost

/// `KeyPositions`, the table a `Container` finds its registrations' positions by: after any
/// sequence of insertions, replacements and removals (which shift entries back into the gap),
/// it answers exactly what a `Dictionary` would, for keys it holds and keys it does not.
@Suite("A container's table of positions by key")
struct KeyPositionsTests {
    /// Types and names enough to collide in a small table and to make it grow.
    static let keys: [RegistrationKey] = {
        let types: [Any.Type] = [
            Int.self, String.self, Double.self, Bool.self, Float.self, UInt8.self,
            [Int].self, Set<Int>.self, Int?.self, (Int, Int).self,
        ]
        var keys = types.map { RegistrationKey($0, name: nil) }
        for index in 0..<60 {
            keys.append(RegistrationKey(types[index % types.count], name: "n\(index)"))
        }
        return keys
    }()

    @Test(arguments: 0..<20)
    func answersAsADictionaryDoesThroughInsertionsAndRemovals(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        var table = KeyPositions()
        var reference: [RegistrationKey: Int] = [:]
        for step in 0..<2_000 {
            let key = Self.keys[Int(generator.next() % UInt64(Self.keys.count))]
            switch generator.next() % 4 {
            case 0:
                #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: key))
            case 1:
                table.reserveCapacity(table.count + Int(generator.next() % 8))
            default:
                #expect(
                    table.updateValue(step, forKey: key) == reference.updateValue(step, forKey: key)
                )
            }
            #expect(table.count == reference.count)
            #expect(table.isEmpty == reference.isEmpty)
        }
        for key in Self.keys { #expect(table[key] == reference[key]) }
        for key in Self.keys {
            #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: key))
        }
        #expect(table.isEmpty)
        #expect(table[Self.keys[0]] == nil)
    }

    @Test func anEmptyTableHoldsNothing() {
        var table = KeyPositions()
        #expect(table[Self.keys[0]] == nil)
        #expect(table.removeValue(forKey: Self.keys[0]) == nil)
        #expect(table.isEmpty)
        table.reserveCapacity(100)
        #expect(table[Self.keys[1]] == nil)
        #expect(table.count == 0)
    }
}
