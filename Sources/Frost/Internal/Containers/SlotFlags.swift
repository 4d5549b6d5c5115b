/// The bits a slot's flags carry (CFrost stores them; lookups return them above the slot
/// number): whether the slot's registration is per-child (bit 0: `.scoped`, provided), whether
/// it is a provided key (bit 1), and its per-child index (from bit 8).
struct SlotFlags {
    let raw: UInt32

    init(_ raw: UInt32) { self.raw = raw }

    /// The flags of a registration with this per-child index, provided or not (`nil` for a key that
    /// is not per-child).
    init(perChildIndex: Int?, provided: Bool) {
        guard let index = perChildIndex else {
            raw = 0
            return
        }
        raw = UInt32(index) << 8 | (provided ? 3 : 1)
    }

    /// The per-child index, for a per-child key.
    var perChildIndex: Int? { raw & 1 == 0 ? nil : Int(raw >> 8) }

    /// Whether the key is provided (by each child), not `.scoped`.
    var isProvided: Bool { raw & 2 != 0 }

    /// A lookup's location: `slot`, with these flags above it.
    func location(slot: UInt32) -> UInt { UInt(raw) << 32 | UInt(slot) }
}
