/// Holds a resolved value of any type (class, struct or protocol existential) as one object,
/// so that a cell can cache it behind a single pointer and hand it back without a dynamic cast.
///
/// Only ever read through a cell whose key was verified to be `T`'s, which is what makes
/// reading it as a `Box<T>` sound (``_readBox(_:as:)``).
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

/// Implementation detail: the one spelling of reading a cached instance. Copies the value out
/// of the `Box<T>` at `box` without retaining the box.
///
/// `box` must come from a protected read of a cell whose key is `T`'s (a lookup, a bound slot,
/// a handle), and nothing may read another cell between that read and this one: the cell's
/// protection covers one read at a time (see `Cell.read()`).
@inlinable
@inline(__always)
func _readBox<T>(_ box: UnsafeMutableRawPointer, as type: T.Type) -> T {
    Unmanaged<Box<T>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
}
