/// Each current registration's position in a ``Container``'s registration order, by key: an
/// open-addressing table (linear probing over a power-of-two array of buckets, at most half
/// full; a removal shifts the entries after it back, leaving no tombstone).
///
/// Not a `Dictionary`: a new process would make `Dictionary<RegistrationKey, Int>`'s storage
/// type by its mangled name, which checks `RegistrationKey: Hashable` by scanning every
/// protocol conformance in the process, about 0.4 million instructions on the first freeze
/// of an application (more, the more packages it links). This table's buckets are an array
/// of integers and its keys and positions plain arrays, whose types carry no conformance to
/// check (and need no metadata of a tuple type made at run time). Keys hash with
/// ``RegistrationKey/_rawHashValue(seed:)``.
struct KeyPositions {
    /// Each key added, in the order added, and its position (`positions`, at the same index):
    /// an entry; a removed key's entry stays, unreferenced (a table lives as long as its
    /// container's registration).
    private var keys: [RegistrationKey] = []
    private var positions: [Int] = []
    /// An entry's index plus one, or 0 where empty; a power-of-two count (or none,
    /// before the first key). Plain integers: made, grown and shifted without copying keys.
    private var buckets: [Int] = []
    /// How many keys it holds.
    private(set) var count = 0

    /// Whether it holds no key.
    var isEmpty: Bool { count == 0 }

    /// The position of `key`, if it holds it.
    subscript(key: RegistrationKey) -> Int? {
        guard count > 0 else { return nil }
        return find(key).map { positions[$0] }
    }

    /// Makes room for `capacity` keys without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        guard capacity * 2 > buckets.count else { return }
        keys.reserveCapacity(keys.count + capacity - count)
        positions.reserveCapacity(positions.count + capacity - count)
        var size = max(16, buckets.count)
        while size < capacity * 2 { size *= 2 }
        let old = buckets
        buckets = [Int](repeating: 0, count: size)
        for bucket in old where bucket != 0 {
            buckets[freeBucket(for: keys[bucket - 1])] = bucket
        }
    }

    /// Sets `key`'s position; returns the position it replaces, if it held the key.
    @discardableResult
    mutating func updateValue(_ position: Int, forKey key: RegistrationKey) -> Int? {
        reserveCapacity(count + 1)
        // One probe: the key's bucket, or the empty one where it goes.
        var index = home(of: key)
        while buckets[index] != 0 {
            let entry = buckets[index] - 1
            if keys[entry] == key {
                defer { positions[entry] = position }
                return positions[entry]
            }
            index = (index + 1) & mask
        }
        keys.append(key)
        positions.append(position)
        buckets[index] = keys.count
        count += 1
        return nil
    }

    /// Removes `key`; returns its position, if it held it.
    @discardableResult
    mutating func removeValue(forKey key: RegistrationKey) -> Int? {
        guard count > 0 else { return nil }
        var index = home(of: key)
        while buckets[index] != 0 {
            let entry = buckets[index] - 1
            if keys[entry] == key {
                closeGap(at: index)
                count -= 1
                return positions[entry]
            }
            index = (index + 1) & mask
        }
        return nil
    }

    private var mask: Int { buckets.count - 1 }

    /// The bucket `key`'s probe starts at.
    private func home(of key: RegistrationKey) -> Int {
        key._rawHashValue(seed: 0) & mask
    }

    /// The entry of `key`, if it holds it (at least one key is held).
    private func find(_ key: RegistrationKey) -> Int? {
        var index = home(of: key)
        while buckets[index] != 0 {
            let entry = buckets[index] - 1
            if keys[entry] == key { return entry }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The first empty bucket of `key`'s probe (`key` is not in the table).
    private func freeBucket(for key: RegistrationKey) -> Int {
        var index = home(of: key)
        while buckets[index] != 0 { index = (index + 1) & mask }
        return index
    }

    /// Empties the bucket at `gap`, moving back each entry after it (up to the next empty
    /// bucket) whose probe started at or before the gap, so that every probe still reaches
    /// its key.
    private mutating func closeGap(at gap: Int) {
        var gap = gap
        var next = (gap + 1) & mask
        while buckets[next] != 0 {
            // How far the entry sits from its home, and how far the gap is from that home: it
            // may move back into the gap only if its probe passes the gap.
            let home = home(of: keys[buckets[next] - 1])
            if (next - home) & mask >= (next - gap) & mask {
                buckets[gap] = buckets[next]
                gap = next
            }
            next = (next + 1) & mask
        }
        buckets[gap] = 0
    }
}
