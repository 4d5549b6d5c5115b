/// Holds a resolved value of any type (class, struct or protocol existential) as one object,
/// so that a slot can cache it behind a single pointer and hand it back without a dynamic cast.
///
/// Only ever read through a slot whose key was verified to be `T`'s, which is what makes
/// `unsafeDowncast(_:to: Box<T>.self)` sound.
///
/// `@unchecked Sendable`: the box itself is immutable. The value it holds is shared by every
/// thread that resolves it, exactly as a singleton is in any container; a singleton used from
/// many threads must be thread-safe itself (documented on ``Scope/singleton``).
@usableFromInline
final class Box<T>: @unchecked Sendable {
    @usableFromInline let value: T

    @usableFromInline
    init(_ value: T) {
        self.value = value
    }
}
