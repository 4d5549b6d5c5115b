/// Holds a resolved value that is not a class instance (a struct, an enum, a protocol
/// existential) as one object, so that a cell can cache it behind a single pointer and hand it
/// back without a dynamic cast. A class instance needs no box: a cell keeps the instance
/// itself (``_keep(_:)``), so caching one allocates nothing.
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

/// Whether a `T` is kept as itself (a class instance, one reference) rather than in a
/// `Box<T>`. Decided by the compiler in code specialized for `T`, at run time elsewhere, with
/// the same answer.
@inlinable
@inline(__always)
func _keptAsItself<T>(_ type: T.Type) -> Bool {
    T.self is AnyClass
}

/// `Box<T>`, or `nil` when a `T` is kept as itself: taken where `T` is known statically, so
/// that code that is not specialized makes boxes without looking the generic type up, and a
/// class's registration never instantiates a box type at all.
@inlinable
@inline(__always)
func _boxType<T>(_ type: T.Type) -> Box<T>.Type? {
    _keptAsItself(T.self) ? nil : Box<T>.self
}

/// The object a cell keeps for `value`: the instance itself, or a new `Box<T>`.
@inlinable
@inline(__always)
func _keep<T>(_ value: T) -> AnyObject {
    _keep(value, in: _boxType(T.self))
}

/// ``_keep(_:)`` with `T`'s box type known (``_boxType(_:)``, `nil` for a class): what code
/// that is not specialized for `T` calls, to ask the runtime nothing.
@inlinable
@inline(__always)
func _keep<T>(_ value: T, in boxType: Box<T>.Type?) -> AnyObject {
    guard let boxType else { return unsafeBitCast(value, to: AnyObject.self) }
    return boxType.init(value)
}

/// The `T` a kept object (``_keep(_:)``) holds. `object` must have been kept for a `T`.
@inlinable
@inline(__always)
func _kept<T>(_ object: AnyObject, as type: T.Type) -> T {
    _kept(object, as: T.self, itself: _keptAsItself(T.self))
}

/// ``_kept(_:as:)`` with whether a `T` is kept as itself known (``_keptAsItself(_:)``): what
/// code that is not specialized for `T` calls, to ask the runtime nothing.
@inlinable
@inline(__always)
func _kept<T>(_ object: AnyObject, as type: T.Type, itself: Bool) -> T {
    itself ? unsafeBitCast(object, to: T.self) : unsafeDowncast(object, to: Box<T>.self).value
}

/// Implementation detail: the one spelling of reading a cached instance. Copies the value out
/// of the object kept at `box` (the instance itself, or its `Box<T>`) without retaining what
/// the cell holds beyond the copy.
///
/// `box` must come from a protected read of a cell whose key is `T`'s (a lookup, a bound slot,
/// a handle), and nothing may read another cell between that read and this one: the cell's
/// protection covers one read at a time (see `Cell.read()`).
@inlinable
@inline(__always)
func _readBox<T>(_ box: UnsafeMutableRawPointer, as type: T.Type) -> T {
    Unmanaged<AnyObject>.fromOpaque(box)._withUnsafeGuaranteedRef { _kept($0, as: T.self) }
}

/// The `T` `object` holds when it is what a cell keeps for a `T` (``_keep(_:)``); `nil` when it
/// is something else (what a custom scope's storage answers is checked).
func _keptChecked<T>(_ object: AnyObject, as type: T.Type) -> T? {
    if _keptAsItself(T.self) { return object as? T }
    return (object as? Box<T>)?.value
}
