/// The kind of a type, as the Swift runtime's metadata records it (stable ABI: the first word
/// of a type's metadata), and what else one read of its metadata tells.
///
/// Registration asks these questions of every autowired parameter and every stored property
/// of a registered class. A dynamic cast to a protocol would answer them too, but the first
/// cast of a type to a protocol searches every conformance record in the process: about
/// 80,000 instructions in a fresh server process, most of the cost of registering there. So
/// a cast runs only for a type these reads cannot rule out.
@usableFromInline
enum TypeKind: Equatable {
    case existential
    case value
    case other

    static func of(_ type: Any.Type) -> TypeKind {
        switch rawKind(of: type) {
        case existentialKind: .existential
        case structKind, enumKind, optionalKind, tupleKind: .value
        default: .other
        }
    }

    /// Whether `type` is a struct, an enum, an optional or a tuple: a value copied, never a
    /// shared instance.
    static func isValueType(_ type: Any.Type) -> Bool { of(type) == .value }

    /// Whether `type` is `Optional<Wrapped>` for some `Wrapped`.
    @usableFromInline
    static func isOptional(_ type: Any.Type) -> Bool { rawKind(of: type) == optionalKind }

    /// Whether `type` can be one of Frost's own generic types (`Lazy`, `Provider`, `Injected`,
    /// `LazyInjected`): a `Provider` (a struct whose descriptor is `Provider`'s), or a class
    /// whose superclass is ``_FrostClass``. `false` rules the type out; `true` is confirmed by
    /// a cast.
    @usableFromInline
    static func mayBeFrostType(_ type: Any.Type) -> Bool {
        let kind = rawKind(of: type)
        if kind == structKind {
            #if _ptrauth(_arm64e)
                // The descriptor word is signed with its own address: every specialization's
                // differs. The cast decides.
                return true
            #else
                return descriptor(ofValueType: type) == providerDescriptor
            #endif
        }
        // A Swift class's kind is 0 (or, with Objective-C interoperability, its isa pointer).
        guard kind == 0 || kind > 0x7FF else { return false }
        #if _ptrauth(_arm64e)
            guard let type = type as? AnyClass else { return false }
            return _getSuperclass(type) == _FrostClass.self
        #else
            // A class's superclass is the second word of its metadata (stable ABI): one load,
            // where a cast to `AnyClass` and the runtime's accessor cost a miss ~60
            // instructions.
            return unsafeBitCast(type, to: UnsafeRawPointer.self).load(
                fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer?.self)
                == frostClass
        #endif
    }

    /// ``_FrostClass``'s metadata.
    nonisolated(unsafe) private static let frostClass = unsafeBitCast(
        _FrostClass.self as AnyClass, to: UnsafeRawPointer.self)

    // include/swift/ABI/MetadataKind.def
    private static let structKind: UInt = 0x200
    private static let enumKind: UInt = 0x201
    private static let optionalKind: UInt = 0x202
    private static let tupleKind: UInt = 0x301
    private static let existentialKind: UInt = 0x303

    private static func rawKind(of type: Any.Type) -> UInt {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    }

    /// The nominal type descriptor of a struct's or an enum's metadata (its second word, stable
    /// ABI): shared by every specialization of one generic type.
    private static func descriptor(ofValueType type: Any.Type) -> UnsafeRawPointer? {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(
            fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer?.self)
    }

    /// `Provider`'s descriptor, read from one of its specializations.
    nonisolated(unsafe) private static let providerDescriptor = descriptor(
        ofValueType: Provider<Int>.self)
}
