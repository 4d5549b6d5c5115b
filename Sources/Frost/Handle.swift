/// A registration's slot in one ``FrozenContainer``, found once by
/// ``FrozenContainer/handle(for:name:)``.
///
/// Resolving through a handle skips hashing entirely. A handle remembers which container made
/// it; any other container refuses it with ``FrostError/Code/foreignHandle`` (never another
/// registration's instance).
public struct Handle<T>: Sendable, Hashable {
    @usableFromInline let slot: UInt32
    @usableFromInline let generation: UInt64
}
