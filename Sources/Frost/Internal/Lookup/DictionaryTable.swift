import Foundation

/// The lookup of a `Container` that has not been frozen: a Swift `Dictionary` from each key to
/// its slot, over slots laid out as a frozen table's are (``SlotArray``: the cell, the
/// registration, its flags). Everything after the lookup — reading a cached instance, creating
/// one, children, disposal — is the code a ``PerfectHashTable`` feeds, so the benchmark's
/// frozen/dictionary ratio measures a perfect-hash lookup against a dictionary lookup.
///
/// The slot array is allocated here and freed in `deinit`, and only there; it releases the
/// cached instances its cells own.
///
/// `@unchecked Sendable`: after `init` the dictionary and the slots' registrations are only read;
/// the cells' instances are published and read with CFrost's atomics.
final class DictionaryTable: @unchecked Sendable {
    private let slots: SlotArray
    private let bySlotKey: [RegistrationKey: UInt32]
    /// The number of keys, which is also the number of slots (slot `i` holds key `i`).
    let count: Int

    /// A table over `keys` (distinct), slot `i` holding `keys[i]`.
    init(keys: [RegistrationKey]) {
        count = keys.count
        slots = SlotArray.allocate(count: keys.count)
        var bySlotKey: [RegistrationKey: UInt32] = [:]
        bySlotKey.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() { bySlotKey[key] = UInt32(index) }
        self.bySlotKey = bySlotKey
    }

    deinit {
        slots.deallocate(count: count)
    }

    /// The slot array (``count`` slots).
    var slotArray: SlotArray { slots }

    /// The slot of `key`, or `PerfectHashTable.notFound`.
    func slot(for key: RegistrationKey) -> UInt32 {
        bySlotKey[key] ?? PerfectHashTable.notFound
    }

    /// Installs `component` in `slot` with its flags. Only before the table is shared.
    func install(_ component: Component, at slot: UInt32, flags: UInt32) {
        slots.install(component, at: slot, flags: flags)
    }
}
