/// A child's registrations of keys its parent knows, by the parent's slot.
final class Overrides: Sendable {
    /// The overriding components, in registration order.
    let components: [Component]
    /// The slot flags of each (its per-child index, for a `.scoped` or provided one).
    let flags: [SlotFlags]
    /// The parent's slot of each.
    let slots: [UInt32]
    /// By parent slot: the index of its override, plus one (0: not overridden). Covers the
    /// parent's slot space.
    private let bySlot: [UInt32]

    init(components: [Component], slots: [UInt32], flags: [SlotFlags], spaceSize: UInt32) {
        self.components = components
        self.flags = flags
        self.slots = slots
        var bySlot = [UInt32](repeating: 0, count: Int(spaceSize))
        for (index, slot) in slots.enumerated() { bySlot[Int(slot)] = UInt32(index + 1) }
        self.bySlot = bySlot
    }

    /// The index of the override of the parent's slot `slot`, if there is one.
    @inline(__always)
    func index(atParentSlot slot: UInt32) -> Int? {
        guard Int(slot) < bySlot.count else { return nil }
        let entry = bySlot[Int(slot)]
        return entry == 0 ? nil : Int(entry - 1)
    }

    /// Their keys, for near misses.
    var keys: [RegistrationKey] { components.map(\.key) }
}
