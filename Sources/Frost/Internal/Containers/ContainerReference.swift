/// The weak reference to a container that every `Lazy` and `Provider` it makes shares: made
/// once per container (``_Space/reference``), so that making one retains an object instead of
/// forming a weak reference of its own (which the runtime builds and tears down through the
/// container's side table).
///
/// A `Lazy` or `Provider` made by a frozen container also holds the chain slot of what it
/// resolves (``DeferredTarget``): ``frozen`` gives it the container to resolve that slot in.
@usableFromInline
final class ContainerReference: @unchecked Sendable {
    // @unchecked: weak loads are thread-safe.
    @usableFromInline weak let resolver: (any AnyObject & Resolver)?
    /// Whether `resolver` is a frozen container, whose chain slots never change.
    @usableFromInline let isFrozen: Bool

    init(_ resolver: any AnyObject & Resolver, isFrozen: Bool) {
        self.resolver = resolver
        self.isFrozen = isFrozen
    }

    /// The frozen container, retained, while it lives; `nil` when it is gone or is not frozen.
    @inlinable
    var frozen: _Space? {
        guard isFrozen, let resolver else { return nil }
        return unsafeDowncast(resolver as AnyObject, to: _Space.self)
    }
}
