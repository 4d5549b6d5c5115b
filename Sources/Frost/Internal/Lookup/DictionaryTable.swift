internal import CFrost
import Foundation

/// The lookup of a `Container` that has not been frozen: a Swift `Dictionary` from each key to
/// its slot, over slots laid out as a frozen table's are (CFrost's `frost_slot`: the cell, the
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
    private let slots: UnsafeMutablePointer<frost_slot>
    private let bySlotKey: [RegistrationKey: UInt32]
    /// The number of keys, which is also the number of slots (slot `i` holds key `i`).
    let count: Int

    /// A table over `keys` (distinct), slot `i` holding `keys[i]`.
    init(keys: [RegistrationKey]) {
        count = keys.count
        slots = UnsafeMutablePointer<frost_slot>.allocate(capacity: max(keys.count, 1))
        var bySlotKey: [RegistrationKey: UInt32] = [:]
        bySlotKey.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() {
            // `identity_length` 1 marks the slot used (a table's empty slots have 0).
            (slots + index).initialize(
                to: frost_slot(
                    cell: frost_cell(), identity8: 0, identity_length: 1, flags: 0, context: nil,
                    identity: nil, name: nil, name_length: 0, index: UInt32(index)))
            bySlotKey[key] = UInt32(index)
        }
        self.bySlotKey = bySlotKey
    }

    deinit {
        for index in 0..<count {
            if let instance = Cell(raw: UnsafeMutableRawPointer(slots + index)).peek() {
                Unmanaged<AnyObject>.fromOpaque(instance).release()
            }
        }
        frost_forget_hazards(slots, MemoryLayout<frost_slot>.stride * max(count, 1))
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The slot array (``count`` slots).
    var slotArray: UnsafeMutablePointer<frost_slot> { slots }

    /// The slot of `key`, or `PerfectHashTable.notFound`.
    func slot(for key: RegistrationKey) -> UInt32 {
        bySlotKey[key] ?? PerfectHashTable.notFound
    }

    /// Installs `component` in `slot` with its flags. Only before the table is shared.
    func install(_ component: Component, at slot: UInt32, flags: UInt32) {
        slots[Int(slot)].context = UnsafeMutableRawPointer(
            Unmanaged.passUnretained(component).toOpaque())
        slots[Int(slot)].flags = flags
        if let instance = component.instance {
            Cell(raw: UnsafeMutableRawPointer(slots + Int(slot))).preset(instance)
        }
    }
}
