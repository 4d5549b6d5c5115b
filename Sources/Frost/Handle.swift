/// A registration's slot in one ``FrozenContainer``, found once by
/// ``FrozenContainer/handle(for:name:)``.
///
/// Resolving through a handle skips hashing entirely. A handle remembers which container made
/// it; any other container refuses it with ``FrostError/Code/foreignHandle`` (never another
/// registration's instance).
///
/// A handle to a `.singleton` or a registered instance holds that instance, the way a stored
/// property would: ``FrozenContainer/withResolved(_:_:)`` checks that it is still the one the
/// container caches and lends it without touching its reference count. After
/// ``FrozenContainer/releaseCachedInstances()`` the handle resolves the new instance through
/// its slot (still without hashing) and keeps the old one alive as long as the handle lives;
/// make a new handle to hold the new one.
public struct Handle<T>: Sendable, Hashable {
    @usableFromInline let slot: UInt32
    @usableFromInline let generation: UInt64
    /// What the slot kept when the handle was made (the instance, or its box: ``_keep(_:)``),
    /// for a registration that caches until released; `nil` otherwise. Immutable, and a `T`
    /// as every resolve of the slot hands it out.
    @usableFromInline nonisolated(unsafe) let held: AnyObject?
    /// The container's count of releases when the handle was made, when the container is a
    /// root: while it is unchanged, `held` is still the cached instance and
    /// ``FrozenContainer/withResolved(_:_:)`` lends it without reading the slot. `.max`
    /// otherwise (a child's handle compares `held` with its slot's cell).
    @usableFromInline let epoch: UInt

    /// The address of ``held``, to compare with the slot's without retaining it.
    @inlinable
    var heldAddress: UnsafeMutableRawPointer? {
        held.map { Unmanaged.passUnretained($0).toOpaque() }
    }

    init(slot: UInt32, generation: UInt64, held: AnyObject?, epoch: UInt) {
        self.slot = slot
        self.generation = generation
        self.held = held
        self.epoch = held == nil ? .max : epoch
    }

    /// Handles are equal when they name the same slot of the same container.
    public static func == (lhs: Handle, rhs: Handle) -> Bool {
        lhs.slot == rhs.slot && lhs.generation == rhs.generation
    }

    /// Hashes the slot and the container's generation.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(slot)
        hasher.combine(generation)
    }
}
