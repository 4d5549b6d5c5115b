/// The named keys of a frozen table, found by what a call site holds: the type's identity and
/// the 16 bytes of the `String` value it passes, without reading the name's characters.
///
/// A Swift string of up to 15 UTF-8 bytes (nearly every registration name: `"primary"`,
/// `"replica"`, `"named"`) is stored inline in those 16 bytes, and two equal ones have the same
/// bytes; a longer literal points at the same constant wherever it is written. So a resolve by
/// name compares two machine words here instead of hashing the name through the table's name
/// function (a named singleton cost 2.4 times the instructions of an unnamed one that way).
///
/// Equal bytes mean equal names: the index keeps each registered name alive, so a longer
/// string's storage cannot be freed and reused while it is here. Unequal bytes prove nothing (a
/// name built at run time, or canonically equivalent but spelled otherwise): the caller then
/// looks the name up by its characters (``PerfectHashTable/slot(identity:name:)``), as before.
struct NameIndex: Sendable {
    private struct Entry: Sendable {
        var identity: UInt64
        var name: (UInt64, UInt64)
        var slot: UInt32
    }

    /// Open addressing, linear probing, a power-of-two capacity at most half full; empty when
    /// the table has no named key.
    private let entries: [Entry?]
    private let shift: UInt64
    /// The registered names, kept so that their storage outlives every comparison.
    private let names: [String]

    static let empty = NameIndex(keys: [])

    /// An index of `keys`, each a named key's type identity, name and slot.
    init(keys: [(identity: UInt64, name: String, slot: UInt32)]) {
        guard !keys.isEmpty else {
            entries = []
            shift = 63
            names = []
            return
        }
        var capacity = 4
        while capacity < keys.count * 2 { capacity *= 2 }
        let shift = UInt64(64 - capacity.trailingZeroBitCount)
        var entries = [Entry?](repeating: nil, count: capacity)
        for key in keys {
            let entry = Entry(identity: key.identity, name: Self.bytes(of: key.name), slot: key.slot)
            var index = Self.index(entry.identity, entry.name, shift: shift)
            while entries[index] != nil { index = (index + 1) & (capacity - 1) }
            entries[index] = entry
        }
        self.entries = entries
        self.shift = shift
        self.names = keys.map(\.name)
    }

    /// The slot of the named key whose name has `name`'s bytes, or `nil` when no registered
    /// name has them (which does not mean the key is not registered).
    @inline(__always)
    func slot(identity: UInt64, name: String) -> UInt32? {
        guard !entries.isEmpty else { return nil }
        let bytes = Self.bytes(of: name)
        let mask = entries.count - 1
        return entries.withUnsafeBufferPointer { entries in
            var index = Self.index(identity, bytes, shift: shift)
            while let entry = entries[index] {
                if entry.identity == identity, entry.name == bytes { return entry.slot }
                index = (index + 1) & mask
            }
            return nil
        }
    }

    /// The two words a `String` value is made of (its inline bytes, or its count and flags and
    /// its storage's address): read, never dereferenced.
    @inline(__always)
    private static func bytes(of name: String) -> (UInt64, UInt64) {
        unsafeBitCast(name, to: (UInt64, UInt64).self)
    }

    @inline(__always)
    private static func index(_ identity: UInt64, _ name: (UInt64, UInt64), shift: UInt64) -> Int
    {
        let mixed =
            (identity ^ (name.0 &* 0x9E37_79B9_7F4A_7C15) ^ (name.1 &* 0xC2B2_AE3D_27D4_EB4F))
            &* 0x1656_67B1_9E37_79F9
        return Int(truncatingIfNeeded: mixed >> shift)
    }
}
