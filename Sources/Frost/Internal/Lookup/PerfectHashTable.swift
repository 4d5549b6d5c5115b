internal import CFrost
import Foundation

/// The Swift owner of one CFrost table: the only file that calls CFrost's table functions.
///
/// It builds the table from the frozen keys, installs each slot's component, answers lookups by
/// identity and by table name, and gives the cell of each slot (``Cell``: where a cached
/// instance is published and read). The C table is freed in `deinit`, and only there; it
/// releases the cached instances its cells own.
///
/// `@unchecked Sendable`: after `init` the table is only read, except for its cells, whose
/// instances CFrost publishes and reads with atomics, and its names, which the first lookup by
/// table name gives CFrost from any thread (CFrost serializes that under the table's lock and
/// publishes the names with a release store that lookups by name read first).
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
    /// Whether CFrost gets the table names on the first lookup by table name, from the keys
    /// of the installed components (a frozen container's table); `false` for a table built
    /// with its names.
    private let namesLater: Bool
    /// Whether a name stored in its `String` is looked up by those two words (the standard
    /// library stores small strings as CFrost expects: see `SmallName`).
    let takesSmallNames = SmallName.layoutHolds

    /// Why a table could not be built.
    enum BuildError: Error {
        case duplicate(inputIndex: Int)
        case failed(String)
    }

    /// A table of no keys, shared by the children that register no key of their own.
    static let empty: PerfectHashTable = {
        do {
            return try PerfectHashTable(keys: [])
        } catch {
            preconditionFailure("CFrost could not build a table of 0 keys: \(error)")
        }
    }()

    /// Builds the table over `keys`, by their identity bytes (see ``RegistrationKey``), written
    /// into one arena: no string is built. Their table names are made, and the name function
    /// built, on the first lookup by table name (``slot(tableName:)``): no resolve uses them,
    /// and a mangled type name costs a cold process more than the rest of a key's freeze.
    convenience init(
        keys: [RegistrationKey],
        options: frost_build_options = frost_build_options()
    ) throws(BuildError) {
        try self.init(
            count: keys.count,
            options: options,
            namesLater: true,
            writeIdentity: { index, arena in keys[index].appendIdentityBytes(to: &arena) },
            writeName: nil
        )
    }

    /// Builds the table from raw identity bytes and names, given at once (the C table's own
    /// tests use arbitrary keys).
    convenience init(
        identities: [[UInt8]],
        names: [String],
        options: frost_build_options = frost_build_options()
    ) throws(BuildError) {
        try self.init(
            count: identities.count,
            options: options,
            namesLater: false,
            writeIdentity: { index, arena in arena.append(contentsOf: identities[index]) },
            writeName: { index, arena in arena.append(contentsOf: names[index].utf8) }
        )
    }

    private init(
        count: Int,
        options: frost_build_options,
        namesLater: Bool,
        writeIdentity: (Int, inout [UInt8]) -> Void,
        writeName: ((Int, inout [UInt8]) -> Void)?
    ) throws(BuildError) {
        // One arena for every key's bytes, then frost_key views into it; CFrost copies them.
        var arena: [UInt8] = []
        arena.reserveCapacity(count * (writeName == nil ? 16 : 48))
        // Each key's offsets in the arena (identity, name, end), three integers per key: not
        // `Range`s (the first array of ranges in a process makes the runtime search every
        // conformance record for `Int: Comparable`, about 300,000 instructions), nor tuples (a
        // new process makes a tuple type's metadata, and its array's, about 30,000).
        var offsets: [Int] = []
        offsets.reserveCapacity(3 * count)
        for index in 0..<count {
            offsets.append(arena.count)
            writeIdentity(index, &arena)
            offsets.append(arena.count)
            writeName?(index, &arena)
            offsets.append(arena.count)
        }
        var table: OpaquePointer?
        var duplicate: UInt32 = .max
        var options = options
        let status = arena.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
            // A temporary buffer, not an array: `[frost_key]`'s metadata is made at run time.
            return withUnsafeTemporaryAllocation(of: frost_key.self, capacity: max(count, 1)) {
                keys in
                for index in 0..<count {
                    let (identity, name, end) =
                        (offsets[3 * index], offsets[3 * index + 1], offsets[3 * index + 2])
                    keys.initializeElement(
                        at: index,
                        to: frost_key(
                            identity: base + identity,
                            name: end == name ? nil : base + name,
                            identity_length: UInt32(name - identity),
                            name_length: UInt32(end - name)))
                }
                defer { _ = keys.prefix(count).deinitialize() }
                return frost_table_create(
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
        self.generation = Self.nextGeneration()
        self.namesLater = namesLater
    }

    deinit {
        frost_table_destroy(table)
    }

    /// A process-wide unique, never-reused number: tells containers apart where an address
    /// could be reused.
    static func nextGeneration() -> UInt64 {
        frost_next_generation()
    }

    // MARK: Lookups

    /// The slot of an unnamed key, by the type's 8-byte identity.
    func slot(identity: UInt64) -> Slot {
        frost_table_find_identity8(table, identity)
    }

    /// The slot of an unnamed key and the box cached in it (a protected read), in one C call:
    /// the hot path of a resolve. `location` is the slot with its flags above it
    /// (``SlotFlags``), `UInt.max` when the key is not in the table.
    @inline(__always)
    func find(identity: UInt64) -> (location: UInt, instance: UnsafeMutableRawPointer?) {
        let found = frost_table_lookup8(table, identity)
        return (UInt(truncatingIfNeeded: found.slot), found.instance)
    }

    /// The slot of a named key and the box cached in it (a protected read), in one C call:
    /// ``find(identity:)`` for a resolve by type and name, in the C table `table` (a caller
    /// that holds the table passes its ``cTable`` and ``takesSmallNames``, and nothing retains
    /// the table for the call). When `smallNames`, a name of up to 15 UTF-8 bytes, which
    /// Swift stores in the `String` itself, is handed to CFrost as those two words and hashed
    /// as they are (its small image, see `frost_table_lookup_small_name`); any other name by
    /// its bytes (``find(bytesIn:identity:name:)``).
    @inline(__always)
    static func find(
        in table: OpaquePointer, smallNames: Bool, identity bits: UInt64, name: String
    ) -> (location: UInt, instance: UnsafeMutableRawPointer?) {
        if smallNames, let image = SmallName.image(of: name) {
            let found = frost_table_lookup_small_name(
                table, bits, RegistrationKey.nameSeparator, image.low, image.high)
            // Its answer is the one by its bytes: final, unless a name that is not ASCII
            // missed, which is looked up again in its NFC form.
            if found.slot != .max || image.isASCII {
                return (UInt(truncatingIfNeeded: found.slot), found.instance)
            }
            let canonical = findCanonically(in: table, identity: bits, name: name)
            return (UInt(truncatingIfNeeded: canonical.slot), canonical.instance)
        }
        return find(bytesIn: table, identity: bits, name: name)
    }

    /// ``find(in:smallNames:identity:name:)`` by the name's bytes. A name that misses and is
    /// not ASCII is looked up again in its NFC form (see ``RegistrationKey``).
    @inline(never)
    private static func find(bytesIn table: OpaquePointer, identity bits: UInt64, name: String)
        -> (location: UInt, instance: UnsafeMutableRawPointer?)
    {
        var found = name.utf8.withContiguousStorageIfAvailable { utf8 in
            frost_table_lookup_named(
                table, bits, RegistrationKey.nameSeparator, utf8.baseAddress, UInt32(utf8.count))
        }
        if found == nil || (found!.slot == .max && !name.utf8.allSatisfy({ $0 < 0x80 })) {
            found = Self.findCanonically(in: table, identity: bits, name: name)
        }
        return (UInt(truncatingIfNeeded: found!.slot), found!.instance)
    }

    /// ``find(bytesIn:identity:name:)`` by the name's canonical bytes: its NFC form, made contiguous
    /// (a name that is not ASCII and missed, or one not stored as contiguous UTF-8).
    @inline(never)
    private static func findCanonically(
        in table: OpaquePointer, identity bits: UInt64, name: String
    )
        -> frost_found
    {
        var name = name
        if !RegistrationKey.isASCII(&name) { name = name.precomposedStringWithCanonicalMapping }
        return name.withUTF8 { utf8 in
            frost_table_lookup_named(
                table, bits, RegistrationKey.nameSeparator, utf8.baseAddress, UInt32(utf8.count))
        }
    }

    /// The C table, for ``find(in:smallNames:identity:name:)``.
    var cTable: OpaquePointer { table }

    /// The slot of a key: by its 8-byte identity when unnamed, else by identity and name.
    func slot(for key: RegistrationKey) -> Slot {
        guard let name = key.name else { return slot(identity: key.type.bits) }
        return slot(identity: key.type.bits, name: name)
    }

    /// The slot of a named key, by its identity bytes, which CFrost assembles on its stack
    /// (see ``RegistrationKey``: a name that is not ASCII is hashed in its NFC form, so such a
    /// name that misses is looked up again in that form).
    func slot(identity bits: UInt64, name: String) -> Slot {
        var name = name
        var nonASCII: Int32 = 0
        let slot = name.withUTF8 { utf8 in
            frost_table_find_named(
                table, bits, RegistrationKey.nameSeparator, utf8.baseAddress,
                UInt32(utf8.count), &nonASCII)
        }
        guard slot == Self.notFound, nonASCII != 0 else { return slot }
        var normalized = name.precomposedStringWithCanonicalMapping
        return normalized.withUTF8 { utf8 in
            frost_table_find_named(
                table, bits, RegistrationKey.nameSeparator, utf8.baseAddress,
                UInt32(utf8.count), nil)
        }
    }

    /// The slot of a key given by its table name (for a frozen container's table: the mangled
    /// type name, plus `#name`). The first such lookup names the table's keys.
    func slot(tableName: String) -> Slot {
        nameKeysIfNeeded()
        var name = tableName
        return name.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else { return Self.notFound }
            return frost_table_find_name(table, base, UInt32(utf8.count))
        }
    }

    /// Gives CFrost the table names of a table built without them, made from the keys of its
    /// installed components (CFrost lets one caller name the table; another, racing, gets
    /// `FROST_ERROR_ALREADY_NAMED`). A table whose naming failed for good is not tried again.
    private func nameKeysIfNeeded() {
        guard namesLater, count > 0, frost_table_is_named(table) == 0, let slots else { return }
        var keys = [RegistrationKey?](repeating: nil, count: count)
        for slot in 0..<capacity where slots[slot].identity_length != 0 {
            // A slot without its component (not installed yet) has no key to name.
            guard slots[slot].context != nil else { return }
            keys[Int(slots[slot].index)] = component(at: Slot(slot)).key
        }
        let typeNames = Self.typeNames(of: keys.map { $0! })
        var arena: [UInt8] = []
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(count)
        for (key, typeName) in zip(keys, typeNames) {
            let start = arena.count
            key!.appendTableName(typeName, to: &arena)
            ranges.append(start..<arena.count)
        }
        let status = arena.withUnsafeBufferPointer { bytes in
            let names = ranges.map { range in
                frost_bytes(
                    bytes: bytes.baseAddress! + range.lowerBound, length: UInt32(range.count))
            }
            return names.withUnsafeBufferPointer { names in
                frost_table_name_keys(table, names.baseAddress, UInt32(count), nil)
            }
        }
        // Keys are distinct, and so are mangled type names: only running out of memory, or
        // (never seen) no function for these names, leaves the table without names; then a
        // lookup by table name finds nothing.
        assert(
            status == FROST_OK || status == FROST_ERROR_ALREADY_NAMED
                || status == FROST_ERROR_OUT_OF_MEMORY || status == FROST_ERROR_NO_FUNCTION,
            "CFrost could not name the table's keys (status \(status.rawValue))")
    }

    /// Every key's type name in the table (see ``RegistrationKey``): its mangled name,
    /// computed once per type (a run of keys of one type reuses it without a lookup). No
    /// readable name is made: `String(reflecting:)` costs about 20 times as much, and far more
    /// in a fresh process.
    private static func typeNames(of keys: [RegistrationKey]) -> [String] {
        var names: [TypeIdentity: String] = [:]
        var last: (type: TypeIdentity, name: String)?
        return keys.map { key in
            let type = key.type
            if let last, last.type == type { return last.name }
            let name: String
            if let known = names[type] {
                name = known
            } else {
                name = type.tableName
                names[type] = name
            }
            last = (type, name)
            return name
        }
    }

    /// The position, in the input of `init`, of the key in `slot`; `nil` for an empty slot.
    func inputIndex(of slot: Slot) -> Int? {
        guard let slots, Int(slot) < capacity, slots[Int(slot)].identity_length != 0 else {
            return nil
        }
        return Int(slots[Int(slot)].index)
    }

    // MARK: Slots

    /// Installs `component` in `slot` with its flags (``SlotFlags``): its registration, and
    /// its instance for a registered one. Only before the table is shared.
    func install(_ component: Component, at slot: Slot, flags: UInt32 = 0) {
        // The frozen container's component list keeps the component alive as long as the table.
        let context = Unmanaged.passUnretained(component).toOpaque()
        frost_slot_install(table, slot, context, flags)
        if let instance = component.instance {
            cell(at: slot).preset(instance)
        }
    }

    /// The flags of `slot` (``SlotFlags``).
    @inline(__always)
    func flags(at slot: Slot) -> UInt32 {
        slots.unsafelyUnwrapped[Int(slot)].flags
    }

    /// The component in `slot` (kept alive by the frozen container's component list).
    @inline(__always)
    func component(at slot: Slot) -> Component {
        Self.component(in: slotArray, at: slot)
    }

    /// The address of the component in `slot`, unretained.
    @inline(__always)
    func componentPointer(at slot: Slot) -> UnsafeRawPointer {
        UnsafeRawPointer(slots.unsafelyUnwrapped[Int(slot)].context.unsafelyUnwrapped)
    }

    /// The cell of `slot`.
    @inline(__always)
    func cell(at slot: Slot) -> Cell {
        Self.cell(in: slotArray, at: slot)
    }

    /// The address of the slot array, for a reader that holds no reference to the table
    /// (``_BoundParameters``, during a resolve that keeps the table alive), and for the slot
    /// reads below. Only for a table with keys: an empty one has no slots.
    var slotArray: UnsafeRawPointer {
        UnsafeRawPointer(slots.unsafelyUnwrapped)
    }

    /// The slot array, for the container that owns this table (``Lookup``).
    var slotsView: SlotArray { SlotArray(slots.unsafelyUnwrapped) }

    /// The component in `slot` of the table whose ``slotArray`` is `slotArray`: the one
    /// spelling of this read.
    @inline(__always)
    static func component(in slotArray: UnsafeRawPointer, at slot: Slot) -> Component {
        let slots = slotArray.assumingMemoryBound(to: frost_slot.self)
        return Unmanaged<Component>.fromOpaque(slots[Int(slot)].context!).takeUnretainedValue()
    }

    /// The cell of `slot` in the table whose ``slotArray`` is `slotArray` (a slot opens with
    /// its cell).
    @inline(__always)
    static func cell(in slotArray: UnsafeRawPointer, at slot: Slot) -> Cell {
        let slots = UnsafeMutablePointer(
            mutating: slotArray.assumingMemoryBound(to: frost_slot.self))
        return Cell(raw: UnsafeMutableRawPointer(slots + Int(slot)))
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

    /// Whether the identity function is built over the keys' short forms (a named key found
    /// by hashing 8 bytes), not their whole identities (tests).
    var hasShortKeys: Bool { frost_table_has_short_keys(table) != 0 }

    /// The short form of identity bytes of at least 8 bytes (tests).
    static func shortForm(of identity: [UInt8]) -> UInt64 {
        identity.withUnsafeBytes { frost_short_form($0.baseAddress!, UInt32($0.count)) }
    }

    /// How the identity function was built, for a container's description: the rung of
    /// CFrost's ladder (0: BDZ_PH, 1: BDZ_PH c=1.5, 2: BDZ_PH c=2.0, 3: CHD_PH, 4: BDZ) and
    /// whether the keys were salted.
    var identityFunction: (rung: Int, salted: Bool) {
        let info = functionInfo(0)
        return (Int(info.rung), info.salt > 0)
    }
}

/// A lookup's slots, as the containers and frames read them: CFrost's `frost_slot` (the cell,
/// where the instance is cached; the registration; its flags), laid out alike by both tables.
/// This file is the one that knows the layout. Unretained: the table that owns the slots
/// outlives every view of them.
struct SlotArray: @unchecked Sendable {
    // @unchecked: an address; the slots' registrations are immutable once installed, their
    // cells CFrost's atomic protocols.
    private let slots: UnsafeMutablePointer<frost_slot>

    fileprivate init(_ slots: UnsafeMutablePointer<frost_slot>) {
        self.slots = slots
    }

    /// The slots whose array starts at `address` (a frame's view of them).
    init(address: UnsafeRawPointer) {
        slots = UnsafeMutablePointer(mutating: address.assumingMemoryBound(to: frost_slot.self))
    }

    /// The array's address, for a frame (which tags it) and for a comparison.
    var address: UnsafeRawPointer { UnsafeRawPointer(slots) }

    /// `count` used slots for a dictionary's keys, slot `i` for key `i`, each with an empty
    /// cell; free them with ``deallocate(count:)``, and only that way.
    static func allocate(count: Int) -> SlotArray {
        let slots = UnsafeMutablePointer<frost_slot>.allocate(capacity: max(count, 1))
        for index in 0..<count {
            // `identity_length` 1 marks the slot used (a table's empty slots have 0).
            (slots + index).initialize(
                to: frost_slot(
                    cell: frost_cell(), identity8: 0, identity_length: 1, flags: 0, context: nil,
                    identity: nil, name: nil, name_length: 0, index: UInt32(index)))
        }
        return SlotArray(slots)
    }

    /// Frees slots made by ``allocate(count:)``, releasing the instances their cells cache. No
    /// thread may read them any more.
    func deallocate(count: Int) {
        for index in 0..<count {
            if let instance = cell(at: UInt32(index)).peek() {
                Unmanaged<AnyObject>.fromOpaque(instance).release()
            }
        }
        frost_forget_hazards(slots, MemoryLayout<frost_slot>.stride * max(count, 1))
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Installs `component` in `slot` of slots made by ``allocate(count:)``, with its flags
    /// (its instance too, for a registered one). Only before the slots are shared.
    func install(_ component: Component, at slot: UInt32, flags: UInt32) {
        slots[Int(slot)].context = UnsafeMutableRawPointer(
            Unmanaged.passUnretained(component).toOpaque())
        slots[Int(slot)].flags = flags
        if let instance = component.instance { cell(at: slot).preset(instance) }
    }

    /// The position, in the keys the table was built from, of the key in `slot`; `nil` for an
    /// empty slot.
    func inputIndex(of slot: UInt32) -> Int? {
        slots[Int(slot)].identity_length != 0 ? Int(slots[Int(slot)].index) : nil
    }

    /// The cell of `slot` (a slot opens with its cell).
    @inline(__always)
    func cell(at slot: UInt32) -> Cell {
        Cell(raw: UnsafeMutableRawPointer(slots + Int(slot)))
    }

    /// The registration in `slot`, unretained (its container keeps it alive).
    @inline(__always)
    func componentPointer(at slot: UInt32) -> UnsafeRawPointer {
        UnsafeRawPointer(slots[Int(slot)].context.unsafelyUnwrapped)
    }

    /// The raw flags of `slot` (``SlotFlags``).
    @inline(__always)
    func flags(at slot: UInt32) -> UInt32 {
        slots[Int(slot)].flags
    }

    /// A lookup's location: `slot` with its flags above it.
    @inline(__always)
    func location(of slot: UInt32) -> UInt {
        UInt(flags(at: slot)) << 32 | UInt(slot)
    }
}

/// The release function CFrost calls for each cached instance it drops.
private func releaseInstance(_ instance: UnsafeMutableRawPointer) {
    Unmanaged<AnyObject>.fromOpaque(instance).release()
}

/// A name as the two words a 64-bit Swift stores a `String` of up to 15 UTF-8 bytes in (a
/// small string): its bytes, then a byte of flags and the length. CFrost hashes a named key's
/// name of that length in this form (`frost_table_lookup_small_name`), so a resolve by name
/// hands over the caller's string as it lies, neither copied nor read byte by byte.
///
/// The layout is the standard library's (stable ABI), and is checked once against strings
/// made here (``layoutHolds``, which each table reads when it is built): where it differs, or
/// on a platform where a `String` is not two words, no name is taken this way and every
/// lookup reads the name's bytes.
enum SmallName {
    /// The small image of `name`, or `nil` when `name` is not stored as a small string.
    @inline(__always)
    static func image(of name: String) -> (low: UInt64, high: UInt64, isASCII: Bool)? {
        #if _pointerBitWidth(_64)
            let words = unsafeBitCast(name, to: (UInt64, UInt64).self)
            // The top nibble: immortal (bit 63) and small (bit 61), not foreign (bit 60); bit
            // 62 says whether it is ASCII.
            guard words.1 >> 60 & 0b1011 == 0b1010 else { return nil }
            return (words.0, words.1, words.1 >> 62 & 1 == 1)
        #else
            return nil
        #endif
    }

    /// Whether strings made here are stored as CFrost expects a small image.
    static let layoutHolds: Bool = {
        #if _pointerBitWidth(_64)
            // Literals (whose words the compiler writes) and strings the standard library
            // builds at run time (decoded, appended, interpolated), ASCII and not.
            var appended = "con"
            appended += String(repeating: "s", count: 1) + "ole"
            let count = 12_345
            // One call per sample, not an array of them: a new process would make the
            // metadata of `[(String, UInt64, UInt64)]` first, about 20,000 instructions.
            func holds(_ name: String, _ low: UInt64, _ high: UInt64) -> Bool {
                let words = unsafeBitCast(name, to: (UInt64, UInt64).self)
                return words.0 == low && words.1 == high
                    && Int(words.1 >> 56 & 0x0F) == name.utf8.count
                    && name.utf8.count <= Int(FROST_SMALL_NAME)
            }
            return holds("", 0, 0xE0 << 56)
                && holds("console", 0x0065_6C6F_736E_6F63, 0xE7 << 56)
                && holds(appended, 0x0065_6C6F_736E_6F63, 0xE7 << 56)
                && holds("caf\u{E9}", 0xA9_C366_6163, 0xA5 << 56)
                && holds(
                    String(decoding: [0x63, 0x61, 0x66, 0xC3, 0xA9], as: UTF8.self),
                    0xA9_C366_6163, 0xA5 << 56)
                && holds("123456789012345", 0x3837_3635_3433_3231, 0xEF35_3433_3231_3039)
                && holds("1234567890\(count)", 0x3837_3635_3433_3231, 0xEF35_3433_3231_3039)
        #else
            return false
        #endif
    }()
}
