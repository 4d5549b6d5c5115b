/// The identity of a registration: the type it is resolved as, and its name.
///
/// Hashing and equality use the type's identity, never its name string: building
/// `String(reflecting:)` costs about 530 ns, so it is done once per type at freeze time and
/// lazily in messages.
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

    /// The canonical key string: the qualified type name, plus `#name` for a named key.
    var canonicalName: String {
        Self.canonicalName(typeName: type.name, name: name)
    }

    static func canonicalName(typeName: String, name: String?) -> String {
        guard let name else { return typeName }
        return typeName + "#" + name
    }

    /// Appends the identity bytes the perfect hash is keyed by: the 8 bytes of the type's
    /// `ObjectIdentifier`, then, for a named key, `#` and the name's UTF-8 bytes. An unnamed
    /// key has exactly 8 bytes and a named one at least 9 (the name `""` is a name), so no two
    /// keys share their bytes.
    func appendIdentityBytes(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: type.bits) { bytes.append(contentsOf: $0) }
        if let name {
            bytes.append(0x23)  // "#": as PerfectHashTable.slot(identity:name:) assembles it
            bytes.append(contentsOf: name.utf8)
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

    /// The qualified type name (`String(reflecting:)`): slow, for keys and messages only.
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
