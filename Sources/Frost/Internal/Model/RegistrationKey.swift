import Foundation

/// The identity of a registration: the type it is resolved as, and its name. This file is the
/// one place that says how a key is encoded.
///
/// - Hashing and equality use the type's identity and the name as Swift compares strings
///   (canonically equivalent spellings, NFC or NFD, are one name).
/// - The perfect-hash table is keyed by two byte forms: the **identity bytes** (what a resolve
///   hashes: the 8 bytes of the type's `ObjectIdentifier`, then `#` and the name's NFC UTF-8
///   bytes for a named key) and the **table name** (the mangled type name, then `#` and the
///   name). Both are unique per key: the mangled name tells apart types that print alike
///   (function types with and without `@escaping`), and costs a fraction of
///   `String(reflecting:)`. No resolve uses table names, so a frozen table makes them on its
///   first lookup by table name (``PerfectHashTable/slot(tableName:)``), not at freeze.
/// - The **readable name** (`String(reflecting:)`, then `#name`) is made only when a message or
///   a description is read.
struct RegistrationKey: Hashable, Sendable {
    /// The requested type (a concrete type or a protocol existential).
    let type: TypeIdentity
    /// The registration's name, or `nil` for the unnamed registration.
    let name: String?

    init(_ type: Any.Type, name: String?) {
        self.type = TypeIdentity(type)
        self.name = name
    }

    init(_ type: ObjectIdentifier, name: String?) {
        self.type = TypeIdentity(type)
        self.name = name
    }

    /// The hash a table of keys places a key by (the standard library's customization point
    /// behind `hashValue`, given the table's seed): what a `Container`'s ``KeyPositions`` and
    /// the dictionary an unfrozen `Container` resolves through use. An unnamed key, the common
    /// case, mixes its type's identity with the seed (SplitMix64's finalizer, a dozen
    /// instructions); `Hasher`, which a named key still goes through, costs about 400 per key.
    /// Equal keys hash alike: an unnamed key never equals a named one, and a named key hashes
    /// its name as `String` does (canonically equivalent spellings alike).
    func _rawHashValue(seed: Int) -> Int {
        guard name == nil else {
            var hasher = Hasher()
            hasher.combine(seed)
            hash(into: &hasher)
            return hasher.finalize()
        }
        var bits = type.bits ^ UInt64(UInt(bitPattern: seed))
        bits = (bits ^ (bits >> 30)) &* 0xbf58_476d_1ce4_e5b9
        bits = (bits ^ (bits >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int(truncatingIfNeeded: bits ^ (bits >> 31))
    }

    /// Whether the key's type is a `Lazy` or a `Provider`, which containers make for any
    /// registered type unless one registers it itself.
    var isDeferredType: Bool {
        TypeKind.mayBeFrostType(type.type) && type.type is any DeferredResolving.Type
    }

    /// The readable canonical key: the qualified type name, plus `#name` for a named key.
    /// Slow (`String(reflecting:)`): for messages and descriptions only.
    var canonicalName: String {
        guard let name else { return type.name }
        return type.name + "#" + name
    }

    /// Appends the identity bytes: the 8 bytes of the type's `ObjectIdentifier`, then, for a
    /// named key, `#` and the name's NFC UTF-8 bytes. An unnamed key has exactly 8 bytes and a
    /// named one at least 9 (the name `""` is a name), so no two keys share their bytes.
    func appendIdentityBytes(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: type.bits) { bytes.append(contentsOf: $0) }
        if let name {
            bytes.append(Self.nameSeparator)
            bytes.append(contentsOf: Self.canonicalUTF8(of: name))
        }
    }

    /// Appends the table name: the mangled type name (`typeName`, computed once per type by
    /// ``TypeIdentity/tableName``), then `#` and the name's NFC UTF-8 bytes.
    func appendTableName(_ typeName: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: typeName.utf8)
        if let name {
            bytes.append(Self.nameSeparator)
            bytes.append(contentsOf: Self.canonicalUTF8(of: name))
        }
    }

    /// `#`, between a type and a name in both byte forms (it never occurs in a mangled or
    /// qualified type name, so names cannot make keys of two types collide).
    static let nameSeparator: UInt8 = 0x23

    /// The UTF-8 bytes a name is hashed by: its NFC form, so that canonically equivalent
    /// spellings hash alike. ASCII (the common case) is NFC already and is returned as is.
    static func canonicalUTF8(of name: String) -> [UInt8] {
        var name = name
        if !isASCII(&name) { name = name.precomposedStringWithCanonicalMapping }
        return Array(name.utf8)
    }

    /// Whether every byte of `name` is ASCII (then it is NFC already).
    static func isASCII(_ name: inout String) -> Bool {
        name.withUTF8 { utf8 in
            var bits: UInt8 = 0
            for byte in utf8 { bits |= byte }
            return bits < 0x80
        }
    }
}

/// A metatype with identity-based equality.
///
/// Metatypes are immutable, process-global values, so sharing them across threads is safe;
/// `@unchecked Sendable` only says so to the compiler.
struct TypeIdentity: Hashable, @unchecked Sendable {
    let type: Any.Type

    init(_ type: Any.Type) { self.type = type }

    /// The type an `ObjectIdentifier(type)` identifies. `ObjectIdentifier.init(_: Any.Type)`
    /// stores the metatype's metadata pointer as is, so this reverses it exactly.
    init(_ identifier: ObjectIdentifier) {
        self.type = unsafeBitCast(identifier, to: Any.Type.self)
    }

    /// The type's identity as a 64-bit number: what a resolve by type hashes.
    var bits: UInt64 { UInt64(UInt(bitPattern: ObjectIdentifier(type))) }

    /// The type's name in the table: its mangled name (unique per type, cheap), or, for the
    /// rare type the runtime cannot mangle, its identity in hexadecimal.
    var tableName: String {
        _mangledTypeName(type) ?? "$" + String(bits, radix: 16)
    }

    /// The qualified type name (`String(reflecting:)`): slow, for messages only.
    var name: String { String(reflecting: type) }

    /// The unqualified type name, as a reader writes it.
    var shortName: String { String(describing: type) }

    static func == (lhs: Self, rhs: Self) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
    }
}
