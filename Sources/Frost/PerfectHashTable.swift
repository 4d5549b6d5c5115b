internal import CFrost

/// The Swift owner of one CFrost table: the only file that calls CFrost or touches its
/// pointers.
///
/// It builds the table from the frozen keys, installs each slot's component (the factory's
/// context), answers lookups by identity and by canonical name, reads cached instances with an
/// acquire load, and creates cached instances once through the C create-once protocol. The C
/// table is freed in `deinit`, and only there; it releases the cached instances it owns.
///
/// `@unchecked Sendable`: after `init` the table is only read, except for cached instances,
/// which CFrost publishes with release/acquire atomics under its creation lock.
final class PerfectHashTable: @unchecked Sendable {
    /// A slot index; `PerfectHashTable.notFound` when a key is not in the table.
    typealias Slot = UInt32

    static let notFound: Slot = .max

    private let table: OpaquePointer
    private let slots: UnsafeMutablePointer<frost_slot>?
    /// The number of keys.
    let count: Int
    /// The number of slots: at least `count` (the hash is perfect, not always minimal).
    let capacity: Int
    /// A process-wide unique number: handles remember it to refuse other containers.
    let generation: UInt64
    /// Instances taken out of their slots by the last `releaseCachedInstances`, released by
    /// the next one (or with the table): a resolve that loaded one before it was taken may
    /// still be copying it. Only touched under the creation lock.
    private var retired: [AnyObject] = []

    /// Why a table could not be built.
    enum BuildError: Error {
        case duplicate(inputIndex: Int)
        case failed(String)
    }

    /// Builds the table over `keys`, whose qualified type names are `typeNames` (same order):
    /// each canonical name (`Type` or `Type#name`) is written into the arena, not built.
    convenience init(
        keys: [RegistrationKey],
        typeNames: [String],
        options: frost_build_options = frost_build_options()
    ) throws(BuildError) {
        try self.init(
            count: keys.count,
            options: options,
            writeIdentity: { index, arena in keys[index].appendIdentityBytes(to: &arena) },
            writeName: { index, arena in
                arena.append(contentsOf: typeNames[index].utf8)
                if let name = keys[index].name {
                    arena.append(0x23)  // "#"
                    arena.append(contentsOf: name.utf8)
                }
            }
        )
    }

    /// Builds the table from raw identity bytes (the C table's own tests use arbitrary keys).
    convenience init(
        identities: [[UInt8]],
        names: [String],
        options: frost_build_options = frost_build_options()
    ) throws(BuildError) {
        try self.init(
            count: identities.count,
            options: options,
            writeIdentity: { index, arena in arena.append(contentsOf: identities[index]) },
            writeName: { index, arena in arena.append(contentsOf: names[index].utf8) }
        )
    }

    private init(
        count: Int,
        options: frost_build_options,
        writeIdentity: (Int, inout [UInt8]) -> Void,
        writeName: (Int, inout [UInt8]) -> Void
    ) throws(BuildError) {
        // One arena for every key's bytes, then frost_key views into it; CFrost copies them.
        var arena: [UInt8] = []
        arena.reserveCapacity(count * 48)
        var ranges: [(identity: Range<Int>, name: Range<Int>)] = []
        ranges.reserveCapacity(count)
        for index in 0..<count {
            let identityStart = arena.count
            writeIdentity(index, &arena)
            let nameStart = arena.count
            writeName(index, &arena)
            ranges.append((identityStart..<nameStart, nameStart..<arena.count))
        }
        var table: OpaquePointer?
        var duplicate: UInt32 = .max
        var options = options
        let status = arena.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
            let keys = ranges.map { range in
                frost_key(
                    identity: base + range.identity.lowerBound,
                    name: base + range.name.lowerBound,
                    identity_length: UInt32(range.identity.count),
                    name_length: UInt32(range.name.count)
                )
            }
            return keys.withUnsafeBufferPointer { keys in
                frost_table_create(
                    keys.baseAddress,
                    UInt32(count),
                    releaseInstance,
                    &options,
                    &table,
                    &duplicate
                )
            }
        }
        switch status {
        case FROST_OK:
            break
        case FROST_ERROR_DUPLICATE:
            throw .duplicate(inputIndex: Int(duplicate))
        default:
            throw .failed("CFrost could not build the table (status \(status.rawValue))")
        }
        guard let table else { throw .failed("CFrost returned no table") }
        self.table = table
        self.slots = frost_table_slots(table)
        self.count = Int(frost_table_count(table))
        self.capacity = Int(frost_table_capacity(table))
        self.generation = frost_next_generation()
    }

    deinit {
        frost_table_destroy(table)
    }

    // MARK: Lookups

    /// The slot of an unnamed key, by the type's 8-byte identity.
    func slot(identity: UInt64) -> Slot {
        frost_table_find_identity8(table, identity)
    }

    /// The slot of an unnamed key and the box cached in it, in one C call: the hot path of a
    /// resolve. `location` is `UInt.max` when the key is not in the table.
    @inline(__always)
    func find(identity: UInt64) -> (location: UInt, instance: UnsafeMutableRawPointer?) {
        let found = frost_table_lookup8(table, identity)
        return (UInt(truncatingIfNeeded: found.slot), found.instance)
    }

    /// The slot of a key: by its 8-byte identity when unnamed, else by identity and name.
    func slot(for key: RegistrationKey) -> Slot {
        guard let name = key.name else { return slot(identity: key.type.bits) }
        return slot(identity: key.type.bits, name: name)
    }

    /// The slot of a named key, by its identity bytes assembled on the stack.
    func slot(identity bits: UInt64, name: String) -> Slot {
        var name = name
        return name.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9 + utf8.count) { buffer in
                withUnsafeBytes(of: bits) { identity in
                    for index in 0..<8 { buffer[index] = identity[index] }
                }
                buffer[8] = 0x23  // "#", as in RegistrationKey.appendIdentityBytes
                for index in 0..<utf8.count { buffer[9 + index] = utf8[index] }
                return frost_table_find_identity(table, buffer.baseAddress!, UInt32(buffer.count))
            }
        }
    }

    /// The slot of a key given by its canonical name (`Module.Type` or `Module.Type#name`).
    func slot(canonicalName: String) -> Slot {
        var name = canonicalName
        return name.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else { return Self.notFound }
            return frost_table_find_name(table, base, UInt32(utf8.count))
        }
    }

    /// The position, in the input of `init`, of the key in `slot`; `nil` for an empty slot.
    func inputIndex(of slot: Slot) -> Int? {
        guard let slots, Int(slot) < capacity, slots[Int(slot)].identity_length != 0 else {
            return nil
        }
        return Int(slots[Int(slot)].index)
    }

    /// The canonical name stored in `slot`, read back from the C table.
    func canonicalName(of slot: Slot) -> String? {
        guard let slots, inputIndex(of: slot) != nil, let bytes = slots[Int(slot)].name else {
            return nil
        }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(slots[Int(slot)].name_length))
        return String(decoding: buffer, as: UTF8.self)
    }

    // MARK: Slots

    /// Installs a component in its slot: the slot's factory context, and its registered
    /// instance if it has one. Only while the table is being set up, before it is shared.
    func install(_ component: Component, at slot: Slot) {
        let context = Unmanaged.passUnretained(component).toOpaque()
        let flags = component.caches ? UInt32(FROST_SLOT_CACHED) : 0
        frost_slot_set_factory(table, slot, makeInstance, context, flags)
        if let instance = component.instance {
            frost_slot_preset_instance(table, slot, Unmanaged.passRetained(instance).toOpaque())
        }
    }

    /// The component in `slot` (kept alive by the frozen container's component list).
    @inline(__always)
    func component(at slot: Slot) -> Component {
        Self.component(in: slotArray, at: slot)
    }

    /// The address of the slot array, for a reader that holds no reference to the table
    /// (``_BoundParameters``, during a resolve that keeps the table alive), and for the two
    /// slot reads below. Only for a table with keys: an empty one has no slots.
    var slotArray: UnsafeRawPointer {
        UnsafeRawPointer(slots.unsafelyUnwrapped)
    }

    /// The component in `slot` of the table whose ``slotArray`` is `slotArray`: the one
    /// spelling of this read.
    @inline(__always)
    static func component(in slotArray: UnsafeRawPointer, at slot: Slot) -> Component {
        let slots = slotArray.assumingMemoryBound(to: frost_slot.self)
        return Unmanaged<Component>.fromOpaque(slots[Int(slot)].context!).takeUnretainedValue()
    }

    /// The pointer to the box cached in `slot` of the table whose ``slotArray`` is
    /// `slotArray`, or `nil`: one acquire load (the one spelling of this read).
    @inline(__always)
    static func cachedInstance(
        in slotArray: UnsafeRawPointer,
        at slot: Slot
    ) -> UnsafeMutableRawPointer? {
        let slots = UnsafeMutablePointer(
            mutating: slotArray.assumingMemoryBound(to: frost_slot.self))
        return frost_slot_load_instance(slots + Int(slot))
    }

    /// The boxed instance cached in `slot`, or `nil`: one acquire load, no lock.
    @inline(__always)
    func cachedBox(at slot: Slot) -> AnyObject? {
        guard let instance = cachedInstance(at: slot) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(instance).takeUnretainedValue()
    }

    /// The pointer to the box cached in `slot`, or `nil`: one acquire load, no lock, no
    /// retain. The table owns the box until it is destroyed.
    @inline(__always)
    func cachedInstance(at slot: Slot) -> UnsafeMutableRawPointer? {
        Self.cachedInstance(in: slotArray, at: slot)
    }

    /// Returns the instance cached in `slot`, running its factory once if it is empty (under
    /// the table's recursive creation lock, so that concurrent first resolves create one
    /// instance and a factory may create its own dependencies).
    func createOnce(
        at slot: Slot,
        in resolution: Resolution<FrozenContainer>
    ) throws(FrostError) -> AnyObject {
        var error: UnsafeMutableRawPointer?
        // The factory function reads the resolution through this pointer during the call only.
        let instance = withUnsafePointer(to: resolution) { resolution in
            frost_table_create_once(
                table, slot, UnsafeMutableRawPointer(mutating: resolution), &error)
        }
        if let instance {
            return Unmanaged<AnyObject>.fromOpaque(instance).takeUnretainedValue()
        }
        let box = Unmanaged<Box<FrostError>>.fromOpaque(error!).takeRetainedValue()
        throw box.value
    }

    /// Runs `body` under the table's recursive creation lock (the one singleton creation
    /// holds), so that every creation protocol of the table is serialized behind one lock.
    func withCreationLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        frost_table_lock(table)
        defer { frost_table_unlock(table) }
        return try body()
    }

    /// Empties the cached slots for which `shouldRelease` is true. What they held is released
    /// by the next call (or with the table), never while a concurrent resolve could hold a
    /// pointer it loaded before.
    func releaseCachedInstances(where shouldRelease: (Slot) -> Bool) {
        var taken: [AnyObject] = []
        let previous = withCreationLock {
            for slot in 0..<Slot(capacity) where inputIndex(of: slot) != nil && shouldRelease(slot)
            {
                if let instance = frost_slot_take_instance(table, slot) {
                    taken.append(Unmanaged<AnyObject>.fromOpaque(instance).takeRetainedValue())
                }
            }
            defer { retired = taken }
            return retired
        }
        _ = previous  // released here, outside the lock
    }

    /// The raw value of the identity (`which == 0`) or name (`which == 1`) function for any
    /// key (up to 256 bytes), through cmph_search or through the evaluator lookups use: tests
    /// check that the two agree.
    func functionValue(_ which: UInt32, of key: [UInt8], throughCmph: Bool) -> UInt32 {
        key.withUnsafeBytes { bytes in
            frost_table_function_value(
                table, which, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                UInt32(bytes.count), throughCmph ? 1 : 0)
        }
    }

    /// How the identity (`which == 0`) or name (`which == 1`) function was built.
    func functionInfo(_ which: UInt32) -> frost_function_info {
        frost_table_function_info(table, which)
    }
}

/// The release function CFrost calls for each cached instance it drops.
private func releaseInstance(_ instance: UnsafeMutableRawPointer) {
    Unmanaged<AnyObject>.fromOpaque(instance).release()
}

/// The factory function CFrost calls inside its create-once protocol: runs the slot's component
/// through the resolution that asked, and returns the box at +1, or NULL with an owned error.
private func makeInstance(
    _ context: UnsafeMutableRawPointer?,
    _ resolution: UnsafeMutableRawPointer?,
    _ errorOut: UnsafeMutablePointer<UnsafeMutableRawPointer?>
) -> UnsafeMutableRawPointer? {
    let component = Unmanaged<Component>.fromOpaque(context!).takeUnretainedValue()
    let resolution = resolution!.assumingMemoryBound(to: Resolution<FrozenContainer>.self).pointee
    do {
        let box = try resolution.makeBox(component)
        return Unmanaged.passRetained(box).toOpaque()
    } catch {
        errorOut.pointee = Unmanaged.passRetained(Box(error)).toOpaque()
        return nil
    }
}
