@_spi(Reflection) import Swift

/// How `.inject(\.property)` writes its property: the first write goes through the key path
/// and shows where the property lives; when that is a stored property of the instance itself,
/// every later write stores straight there. A key-path write walks the path's components,
/// looks metadata up and allocates (about 1,700 instructions for one stored property); the
/// direct store is what the compiler would emit for `instance.property = value`.
///
/// The first write is exactly a key-path write: both project the property's address through
/// the key path (`_projectMutableAddress`), which, for a computed property (observers, `lazy`,
/// an overridable property), calls its getter and then its setter on a temporary. Only an
/// address inside the instance, at a stored field of the property's type, makes the writer
/// store directly: a stored component's offset is the same in every instance of the class and
/// of its subclasses. Anything else keeps the key path.
///
/// `@unchecked Sendable`: its one mutable state is an atomic word, decided once.
@usableFromInline
final class PropertyWriter: @unchecked Sendable {
    /// 0 until the first write; then 1 (through the key path) or the offset + 2.
    private let state = AtomicWord()

    @usableFromInline
    init() {}

    /// The property's byte offset in the instance; -1 while undecided, -2 when the key path
    /// writes.
    @usableFromInline
    var offset: Int {
        let state = state.load()
        return state >= 2 ? Int(state - 2) : state == 0 ? -1 : -2
    }

    /// Writes `value` to the property at `property` of the instance at `object` (a `T`, kept
    /// alive by the caller), specialized in the caller: moved straight into its field once
    /// the first write has shown it is stored.
    @inlinable
    func write<T: AnyObject, V>(
        _ value: consuming V, to object: UnsafeMutableRawPointer, of type: T.Type,
        at property: ReferenceWritableKeyPath<T, V>
    ) {
        let offset = self.offset
        if offset >= 0 {
            (object + offset).assumingMemoryBound(to: V.self).pointee = value
        } else {
            write(value, to: Unmanaged<T>.fromOpaque(object).takeUnretainedValue(), at: property)
        }
    }

    /// A write through the key path: the first one also decides how later ones write.
    @inlinable
    func write<T: AnyObject, V>(
        _ value: V, to instance: T, at property: ReferenceWritableKeyPath<T, V>
    ) {
        if offset == -2 {
            instance[keyPath: property] = value
        } else {
            withUnsafeMutablePointer(to: &instance[keyPath: property]) { address in
                address.pointee = value
                decide(address: UnsafeRawPointer(address), in: instance, type: V.self)
            }
        }
    }

    /// Decides, from where the first write went, how the next ones write: straight to the
    /// field when `address` is a stored field of `object` of type `type`.
    @usableFromInline
    func decide(address: UnsafeRawPointer, in object: AnyObject, type: Any.Type) {
        let offset = address - UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        var stored = false
        // Option `classType` (raw value 1): offsets in instances of the object's class (its
        // superclasses' fields included).
        _ = _forEachField(of: Swift.type(of: object), options: _EachFieldOptions(rawValue: 1)) {
            _, fieldOffset, fieldType, _ in
            stored = fieldOffset == offset && ObjectIdentifier(fieldType) == ObjectIdentifier(type)
            return !stored
        }
        // Threads that write at once decide alike: the first decision stays.
        _ = state.compareExchange(expected: 0, desired: stored ? UInt(offset) + 2 : 1)
    }
}
