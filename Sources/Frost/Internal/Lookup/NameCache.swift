import Synchronization

/// The slots a frozen root's named lookups found, remembered by the name's `String` value as
/// the caller holds it, so that the next resolve by that type and name reads its slot without
/// hashing the name's bytes: the name is resolved to its slot once, on its first lookup.
///
/// A fixed array of buckets, each empty or holding one immutable entry (the type's identity,
/// the name, its slot), installed once with a compare-and-exchange and never replaced until the
/// table goes: a lookup is a few loads and compares, lock-free, and the cache never grows past
/// its buckets (a name whose bucket is taken is looked up in the perfect hash, as before).
///
/// A bucket is chosen by the bits of the caller's `String` (a name of up to 15 UTF-8 bytes is
/// stored in them; a longer one as a reference to its storage), and an entry answers only a
/// name `==` to its own: the bits choose where to look, `String`'s equality decides (it
/// compares those bits first, so a call site that passes the same literal pays one compare).
/// A name stored another way than the one remembered (a literal against a string built at run
/// time) may miss here, never answer wrongly.
struct NameCache: ~Copyable {
    /// One remembered lookup.
    private final class Entry {
        let mixed: UInt64
        let identity: UInt64
        let name: String
        let slot: UInt32

        init(mixed: UInt64, identity: UInt64, name: String, slot: UInt32) {
            self.mixed = mixed
            self.identity = identity
            self.name = name
            self.slot = slot
        }
    }

    /// Each bucket's entry (a +1 reference to an `Entry`), or nil.
    private let buckets: UnsafeMutablePointer<Atomic<UnsafeMutableRawPointer?>>?
    /// 64 minus the number of bits of a bucket index.
    private let shift: UInt64

    /// The most buckets a table gets (8 KiB of them), however many named keys it has.
    private static let maximumBuckets = 1024

    /// A cache for a table of `namedKeys` named keys: none for a table without names.
    init(namedKeys: Int) {
        #if _pointerBitWidth(_64)
            guard namedKeys > 0 else {
                (buckets, shift) = (nil, 64)
                return
            }
            var count = 8
            while count < 2 * namedKeys, count < Self.maximumBuckets { count *= 2 }
            let buckets = UnsafeMutablePointer<Atomic<UnsafeMutableRawPointer?>>.allocate(
                capacity: count)
            for index in 0..<count { (buckets + index).initialize(to: Atomic(nil)) }
            self.buckets = buckets
            self.shift = UInt64(64 - count.trailingZeroBitCount)
        #else
            // A `String` is not two words here: nothing is cached.
            (buckets, shift) = (nil, 64)
        #endif
    }

    deinit {
        guard let buckets else { return }
        let count = 1 << (64 - Int(shift))
        for index in 0..<count {
            if let entry = buckets[index].load(ordering: .relaxed) {
                Unmanaged<Entry>.fromOpaque(entry).release()
            }
        }
        buckets.deinitialize(count: count)
        buckets.deallocate()
    }

    /// The slot remembered for `identity` and `name`, or `nil`.
    @inline(__always)
    func slot(identity: UInt64, name: String) -> UInt32? {
        guard let buckets else { return nil }
        let mixed = Self.mix(identity, name)
        guard
            let entry = buckets[Int(truncatingIfNeeded: mixed >> shift)].load(ordering: .acquiring)
        else { return nil }
        return Unmanaged<Entry>.fromOpaque(entry)._withUnsafeGuaranteedRef { entry in
            entry.mixed == mixed && entry.identity == identity && entry.name == name
                ? entry.slot : nil
        }
    }

    /// Remembers that `identity` and `name` are in `slot`, if their bucket is empty.
    func remember(identity: UInt64, name: String, slot: UInt32) {
        guard let buckets else { return }
        let mixed = Self.mix(identity, name)
        let bucket = Int(truncatingIfNeeded: mixed >> shift)
        guard buckets[bucket].load(ordering: .relaxed) == nil else { return }
        let entry = Unmanaged.passRetained(
            Entry(mixed: mixed, identity: identity, name: name, slot: slot)
        ).toOpaque()
        let (installed, _) = buckets[bucket].compareExchange(
            expected: nil, desired: entry, ordering: .releasing)
        if !installed { Unmanaged<Entry>.fromOpaque(entry).release() }
    }

    /// The type's identity and the name's bits, mixed (only where a `String` is two words).
    @inline(__always)
    private static func mix(_ identity: UInt64, _ name: String) -> UInt64 {
        #if _pointerBitWidth(_64)
            let bits = unsafeBitCast(name, to: (UInt64, UInt64).self)
            let first = (identity ^ bits.0) &* 0x9E37_79B9_7F4A_7C15
            return (first ^ (first >> 29) ^ bits.1) &* 0xBF58_476D_1CE4_E5B9
        #else
            return identity
        #endif
    }
}
