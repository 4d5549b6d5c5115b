/// What a `Lazy` or `Provider` resolves, and through which container: the container (weakly,
/// shared with its other `Lazy`s and `Provider`s), the chain slot of `T` there, found when the
/// wrapper was made, `T`'s name, and the runtime arguments kept for it, if any.
///
/// A frozen container resolves the slot without hashing, by code inlined into the caller and
/// specialized for `T`; a ``Container`` (whose slots change when it registers more), or a
/// resolve with arguments, resolves by type.
@usableFromInline
struct DeferredTarget: @unchecked Sendable {
    // @unchecked: the arguments are the caller's values (see `CapturedArguments`).
    @usableFromInline let reference: ContainerReference
    /// `T`'s chain slot in a frozen container.
    @usableFromInline let slot: UInt32
    @usableFromInline let name: String?
    @usableFromInline let arguments: CapturedArguments?

    @usableFromInline
    init(reference: ContainerReference, slot: UInt32, name: String?, arguments: CapturedArguments?)
    {
        self.reference = reference
        self.slot = slot
        self.name = name
        self.arguments = arguments
    }

    /// `T`, resolved as a resolve by type resolves it: a `Provider`'s call.
    @inlinable
    func resolve<T>(_ type: T.Type) throws(FrostError) -> T {
        guard let space = reference.frozen, arguments == nil else {
            return try resolveByType(T.self)
        }
        return try withExtendedLifetime(space) { () throws(FrostError) -> T in
            try _Space.resolve(
                T.self, chainSlot: slot, name: name, in: Unmanaged.passUnretained(space))
        }
    }

    /// The box of `T` that a `Lazy` keeps: the container's own box of a cached instance, or a
    /// new box of the instance resolved.
    @inlinable
    func resolveBox<T>(_ type: T.Type) throws(FrostError) -> AnyObject {
        guard let space = reference.frozen, arguments == nil else {
            return _keep(try resolveByType(T.self))
        }
        return try withExtendedLifetime(space) { () throws(FrostError) -> AnyObject in
            try _Space.resolveBox(
                T.self, chainSlot: slot, name: name, in: Unmanaged.passUnretained(space))
        }
    }

    /// `T` from the container by its type and name, with the arguments if any.
    @usableFromInline
    func resolveByType<T>(_ type: T.Type) throws(FrostError) -> T {
        guard let container = reference.resolver else {
            throw FrostError.containerGone(T.self, name: name)
        }
        guard let arguments else { return try container.resolve(T.self, name: name) }
        return try arguments.withPointer { pointer throws(FrostError) in
            guard let space = container._space?.takeUnretainedValue() else {
                throw FrostError.takesNoArguments(
                    T.self, name: name, resolver: Swift.type(of: container))
            }
            return try space.resolve(
                T.self, name: name, arguments: pointer, argumentType: arguments.type)
        }
    }
}
