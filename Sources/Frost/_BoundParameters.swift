/// Implementation detail of `autowire`: what an autowired initializer's parameters are read
/// from when a frozen container creates it. Do not use.
///
/// `freeze()` binds each parameter of an autowired registration to the slot of its
/// dependency. When every parameter is bound and nothing runs after the initializer (no
/// property injection, no hook), the frozen container creates the instance through this
/// frame instead of a resolver: each parameter is one slot read (a cached instance) or one
/// direct creation, with no `any Resolver` built, copied or dispatched through per object.
///
/// A frame lives for one call of the initializer's closure, which `autowire` writes and which
/// never keeps it; the container and resolution state it points to outlive that call, so it
/// holds them unretained.
@usableFromInline
struct _BoundParameters {
    /// Unmanaged, not `unowned(unsafe)`: using an `unowned(unsafe)` reference retains and
    /// releases it around every call (measured: a pair per parameter).
    @usableFromInline let container: Unmanaged<FrozenContainer>
    /// The container's slot array (``PerfectHashTable/slotArray``).
    @usableFromInline let slotArray: UnsafeRawPointer
    /// The slot of each parameter, in order (owned by the component being created); `nil`
    /// for a top-level resolve's root frame, which has no parameters.
    @usableFromInline let slots: UnsafePointer<UInt32>?
    /// The depth the parameters are created at.
    @usableFromInline let depth: Int
    /// The top-level resolve's shared state (`.graph` instances), when it has one; never in
    /// exact mode (the general engine makes everything there).
    @usableFromInline let state: Unmanaged<ResolutionState>?

    @usableFromInline
    init(
        container: Unmanaged<FrozenContainer>,
        slotArray: UnsafeRawPointer,
        slots: UnsafePointer<UInt32>?,
        depth: Int,
        state: Unmanaged<ResolutionState>?
    ) {
        self.container = container
        self.slotArray = slotArray
        self.slots = slots
        self.depth = depth
        self.state = state
    }

    /// The parameter at `index`, of type `A`: its cached instance, read without retaining the
    /// box, or a new one. Inlined into `autowire`'s closure, so the read is specialized for `A`.
    @inlinable
    @inline(__always)
    func parameter<A>(_ type: A.Type, at index: Int) throws(FrostError) -> A {
        let slot = slots.unsafelyUnwrapped[index]
        if let box = cachedInstance(at: slot) {
            return Unmanaged<Box<A>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
        }
        return try create(at: slot, as: A.self)
    }

    /// The box cached in `slot`, or `nil`: one acquire load.
    @usableFromInline
    func cachedInstance(at slot: UInt32) -> UnsafeMutableRawPointer? {
        PerfectHashTable.cachedInstance(in: slotArray, at: slot)
    }

    /// Creates the instance in `slot` (the dependency of a parameter) at this frame's depth:
    /// an autowired transient with bound parameters right here, through its own frame (the
    /// call specialized for `A` in the caller, its component borrowed, not retained);
    /// anything else through ``FrozenContainer/create(at:as:depth:state:)``.
    @inlinable
    @inline(__always)
    func create<A>(at slot: UInt32, as type: A.Type) throws(FrostError) -> A {
        guard let component = try boundComponent(at: slot) else {
            return try createThroughContainer(at: slot, as: A.self)
        }
        return try make(component, at: slot, as: A.self)
    }

    /// Makes a new instance of `component` (the one in `slot`, created through bound
    /// parameters, its depth already checked) through a frame one level deeper, the component
    /// borrowed, not retained; errors get the registration's path.
    @inlinable
    @inline(__always)
    func make<A>(
        _ component: UnsafeRawPointer,
        at slot: UInt32,
        as type: A.Type
    ) throws(FrostError) -> A {
        do {
            return try Unmanaged<TypedComponent<A>>.fromOpaque(component)
                ._withUnsafeGuaranteedRef { component in
                    // `!`, not `unsafelyUnwrapped`: that generic getter reabstracts the
                    // closure, which allocates a thunk on every call (measured).
                    try component.autowiredBound!(
                        _BoundParameters(
                            container: container,
                            slotArray: slotArray,
                            slots: component.boundSlots,
                            depth: depth + 1,
                            state: state
                        )
                    )
                }
        } catch {
            throw failure(error, at: slot)
        }
    }

    /// The component in `slot` when it is created through bound parameters (a transient with
    /// ``Component/boundSlots``), `nil` for any other.
    ///
    /// - Throws: ``FrostError/Code/depthLimitReached`` past the depth limit.
    @usableFromInline
    func boundComponent(at slot: UInt32) throws(FrostError) -> UnsafeRawPointer? {
        // Kept alive by the container's component list; not retained here.
        unowned(unsafe) let component = PerfectHashTable.component(in: slotArray, at: slot)
        guard component.createsDirectly, component.boundSlots != nil else { return nil }
        guard depth < Resolution<FrozenContainer>.depthLimit else {
            throw FrostError(.depthLimitReached, key: component.key)
        }
        return UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque())
    }

    /// Creates the instance in `slot` through the container's direct path or engine.
    @usableFromInline
    func createThroughContainer<A>(at slot: UInt32, as type: A.Type) throws(FrostError) -> A {
        try container.takeUnretainedValue()
            .create(at: slot, as: A.self, depth: depth, state: state?.takeUnretainedValue())
    }

    /// What an error thrown while creating the instance in `slot` becomes: a ``FrostError``
    /// with that registration prepended to its path (but a depth-limit signal as it is), any
    /// other error wrapped as ``FrostError/Code/factoryFailed``.
    @usableFromInline
    func failure(_ error: any Error, at slot: UInt32) -> FrostError {
        unowned(unsafe) let component = PerfectHashTable.component(in: slotArray, at: slot)
        guard let error = error as? FrostError else {
            return FrostError(.factoryFailed, key: component.key, underlying: error)
                .prepending(component.key)
        }
        return error.code == .depthLimitReached ? error : error.prepending(component.key)
    }
}

/// Implementation detail of `autowire`: reads the bound parameter at `index` and moves to
/// the next (the parameter-pack form's counterpart of ``_BoundParameters/parameter(_:at:)``).
@inlinable
@inline(__always)
func _boundParameter<Parameter>(
    _ type: Parameter.Type,
    from parameters: _BoundParameters,
    index: inout Int
) throws(FrostError) -> Parameter {
    defer { index &+= 1 }
    return try parameters.parameter(Parameter.self, at: index)
}
