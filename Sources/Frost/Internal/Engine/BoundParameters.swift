/// Implementation detail of `autowire` and of a frozen container's resolve: what an autowired
/// initializer's parameters are read from when a frozen container creates it, and the frame
/// a creation at the top of a resolve starts from (``makeAtRoot(_:as:)``: a transient made
/// through bound parameters or by a closure; ``makeAtRoot(_:arguments:argumentType:as:)``: a
/// factory with arguments). Do not use.
///
/// `freeze()` binds each parameter of an autowired registration to the slot of its
/// dependency. When every parameter is bound and nothing runs after the initializer (no
/// property injection, no hook), the frozen container creates the instance through this
/// frame instead of a resolver: each parameter is one slot read (a cached instance) or one
/// direct creation, with no `any Resolver` built, copied or dispatched through per object.
/// Each creation enters the calling thread's resolve path like any other (cycles, depth, the
/// path of an error).
///
/// A frame lives for one call of the initializer's closure, which `autowire` writes and which
/// never keeps it; the container and the thread's context it points to outlive that call, so
/// it holds them unretained.
@usableFromInline
struct _BoundParameters {
    /// Unmanaged, not `unowned(unsafe)`: using an `unowned(unsafe)` reference retains and
    /// releases it around every call (measured: a pair per parameter).
    @usableFromInline let container: Unmanaged<FrozenContainer>
    /// The container's slot array (``PerfectHashTable/slotArray``), tagged (bit 0) when the
    /// container is a child: each slot is then looked up through it (own table, override,
    /// per-child cell or parent's).
    @usableFromInline let slotArray: UnsafeRawPointer
    /// The slot of each parameter, in order (owned by the component being created); `nil`
    /// for a top-level resolve's root frame, which has no parameters.
    @usableFromInline let slots: UnsafePointer<UInt32>?
    /// The calling thread's resolve context (``ResolveContext``).
    @usableFromInline let context: UnsafeMutableRawPointer

    @usableFromInline
    init(
        container: Unmanaged<FrozenContainer>,
        slotArray: UnsafeRawPointer,
        slots: UnsafePointer<UInt32>?,
        context: UnsafeMutableRawPointer
    ) {
        self.container = container
        self.slotArray = slotArray
        self.slots = slots
        self.context = context
    }

    /// The parameter at `index`, of type `A`: its cached instance, read without retaining the
    /// box, or a new one. Inlined into `autowire`'s closure, so the read is specialized for `A`.
    @inlinable
    @inline(__always)
    func parameter<A>(_ type: A.Type, at index: Int) throws(FrostError) -> A {
        let slot = slots.unsafelyUnwrapped[index]
        let found = look(at: slot)
        if let box = found.box { return _readBox(box, as: A.self) }
        if let component = found.component {
            if let cell = found.cell {
                return try makeOnce(component, in: cell, slot: slot, as: A.self)
            }
            return try make(component, as: A.self)
        }
        return try createThroughContainer(at: slot, as: A.self)
    }

    /// What `slot` holds for a parameter, in one call: the component when it is an autowired
    /// transient created through bound parameters (its slot caches nothing: not read), or, in
    /// a child, a `.scoped` one created the same way with the empty cell it goes in; else the
    /// box cached there (a protected read, through this frame's context), or none of these.
    @usableFromInline
    func look(at slot: UInt32) -> (
        box: UnsafeMutableRawPointer?, component: UnsafeRawPointer?, cell: UnsafeMutableRawPointer?
    ) {
        if UInt(bitPattern: slotArray) & 1 != 0 {
            return container._withUnsafeGuaranteedRef { $0.look(spaceSlot: slot) }
        }
        // Kept alive by the container's component list; not retained here.
        unowned(unsafe) let component = PerfectHashTable.component(in: slotArray, at: slot)
        if component.createsDirectly, component.boundSlots != nil {
            return (nil, UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()), nil)
        }
        let cell = PerfectHashTable.cell(in: slotArray, at: slot)
        return (cell.read(in: ResolveContext(opaque: context)), nil, nil)
    }

    /// Makes the `.scoped` instance of `component` once, in `cell` (this child's, empty when
    /// looked at): as ``make(_:as:)`` makes a transient, then published in the cell. When
    /// another thread is making it, waits for it; a re-entry, or a wait that would close a
    /// circle, goes to the engine, which reports it.
    @inlinable
    func makeOnce<A>(
        _ component: UnsafeRawPointer, in cell: UnsafeMutableRawPointer, slot: UInt32,
        as type: A.Type
    ) throws(FrostError) -> A {
        let begun = beginCreation(in: cell)
        if let box = begun.box { return _readBox(box, as: A.self) }
        guard begun.creates else { return try createThroughContainer(at: slot, as: A.self) }
        do {
            try enter(component)
        } catch {
            endCreation(in: cell, publishing: nil, of: component)
            throw error
        }
        defer { leave() }
        do {
            let box = try Unmanaged<TypedComponent<A>>.fromOpaque(component)
                ._withUnsafeGuaranteedRef { component in
                    let box = Box(
                        try component.autowiredBound!(
                            _BoundParameters(
                                container: container,
                                slotArray: slotArray,
                                slots: component.boundSlots,
                                context: context
                            )
                        ))
                    // As in `make`: `@Injected` properties of the instance's class, if `A`
                    // does not show them; a re-entry meanwhile gets the instance.
                    switch component.dynamicTypeCheck {
                    case 0:
                        break
                    case 1:
                        if Swift.type(of: box.value) != A.self {
                            try finishProvisionally(box, of: component, in: cell)
                        }
                    default:
                        try finishProvisionally(box, of: component, in: cell)
                    }
                    return box
                }
            endCreation(in: cell, publishing: box, of: component)
            return box.value
        } catch {
            endCreation(in: cell, publishing: nil, of: component)
            throw failure(error, in: component)
        }
    }

    /// Injects the `@Injected` properties of a `.scoped` instance being made in `cell`, which
    /// a re-entry of the cell meanwhile gets (as the engine's creations do).
    @usableFromInline
    func finishProvisionally<A>(
        _ box: Box<A>, of component: TypedComponent<A>, in cell: UnsafeMutableRawPointer
    ) throws {
        let state = ResolveContext(opaque: context).state
        state.provisional.append((cell, box))
        defer { state.provisional.removeLast() }
        try component.finish(box.value, container.takeUnretainedValue())
    }

    /// Starts reading or creating the instance of `cell` (``Cell/begin(for:stale:)``): its
    /// box, or whether this thread creates it now.
    @usableFromInline
    func beginCreation(in cell: UnsafeMutableRawPointer) -> (
        box: UnsafeMutableRawPointer?, creates: Bool
    ) {
        switch Cell(raw: cell).begin(for: ResolveContext(opaque: context)) {
        case .ready(let box): return (box, false)
        case .create: return (nil, true)
        default: return (nil, false)
        }
    }

    /// Ends this thread's creation of `cell`'s instance of `component`: publishes `box` (and
    /// remembers it for `dispose()` when the registration has hooks), or, with `nil`, nothing.
    @usableFromInline
    func endCreation(
        in cell: UnsafeMutableRawPointer, publishing box: AnyObject?, of component: UnsafeRawPointer
    ) {
        Cell(raw: cell).end(for: ResolveContext(opaque: context), publishing: box)
        guard let box else { return }
        Unmanaged<Component>.fromOpaque(component)._withUnsafeGuaranteedRef { component in
            if component.disposes {
                container._withUnsafeGuaranteedRef { $0.track(component, box) }
            }
        }
    }

    /// Makes a new instance of `component` (a transient created through bound parameters)
    /// one level deeper in the resolve, through a frame of its own; the component is borrowed,
    /// not retained.
    @inlinable
    @inline(__always)
    func make<A>(_ component: UnsafeRawPointer, as type: A.Type) throws(FrostError) -> A {
        try create(component, as: A.self) { component in
            // `!`, not `unsafelyUnwrapped`: that generic getter reabstracts the closure, which
            // allocates a thunk on every call (measured).
            try component.autowiredBound!(
                _BoundParameters(
                    container: container,
                    slotArray: slotArray,
                    slots: component.boundSlots,
                    context: context
                )
            )
        }
    }

    /// Makes a new instance of `component` at the top of a resolve (``FrozenContainer``'s
    /// `rootFrame`): through its bound parameters as ``make(_:as:)`` does, or by calling its
    /// closure with the container as its resolver, which is what the engine's transient
    /// creation does, without its unspecialized calls.
    @inlinable
    @inline(__always)
    func makeAtRoot<A>(_ component: UnsafeRawPointer, as type: A.Type) throws(FrostError) -> A {
        let byClosure = Unmanaged<TypedComponent<A>>.fromOpaque(component)
            ._withUnsafeGuaranteedRef { $0.directClosure != nil }
        guard byClosure else { return try make(component, as: A.self) }
        return try create(component, as: A.self) { component in
            try container._withUnsafeGuaranteedRef { try component.directClosure!($0) }
        }
    }

    /// Makes a new instance of `component` (a registration with arguments) at the top of a
    /// resolve (``FrozenContainer``'s `argumentsFrame`), by calling its factory with the
    /// container as its resolver, as the engine's creation with arguments does; `nil`, with
    /// nothing done, when the arguments are not the ones it takes (the engine says so).
    @inlinable
    @inline(__always)
    func makeAtRoot<A>(
        _ component: UnsafeRawPointer, arguments: UnsafeRawPointer, argumentType: Any.Type,
        as type: A.Type
    ) throws(FrostError) -> A? {
        let takes = Unmanaged<TypedComponent<A>>.fromOpaque(component)
            ._withUnsafeGuaranteedRef {
                ObjectIdentifier($0.directWithArguments!.type)
                    == ObjectIdentifier(argumentType)
            }
        guard takes else { return nil }
        return try create(component, as: A.self) { component in
            try container._withUnsafeGuaranteedRef {
                try component.directWithArguments!.call($0, arguments)
            }
        }
    }

    /// One creation one level deeper in the resolve: enters `component` in the path, makes
    /// the instance with `construct`, injects the wrappers of a class `A` does not show, and
    /// leaves; an error becomes the creation's failure, with the path.
    @inlinable
    @inline(__always)
    func create<A>(
        _ component: UnsafeRawPointer, as type: A.Type,
        _ construct: (TypedComponent<A>) throws -> A
    ) throws(FrostError) -> A {
        try enter(component)
        defer { leave() }
        do {
            return try Unmanaged<TypedComponent<A>>.fromOpaque(component)
                ._withUnsafeGuaranteedRef { component in
                    let instance = try construct(component)
                    try finishIfAnotherClass(instance, of: component)
                    return instance
                }
        } catch {
            throw failure(error, in: component)
        }
    }

    /// Injects the wrappers of a new instance whose class may have `@Injected` properties
    /// that `A` does not show (a subclass, a protocol's conformer). For a class `A`, the check
    /// is a compare of its class with `A`, which the compiler removes when `A` is final;
    /// anything else goes to `finish`, which looks its class up.
    @inlinable
    @inline(__always)
    func finishIfAnotherClass<A>(_ instance: A, of component: TypedComponent<A>) throws {
        switch component.dynamicTypeCheck {
        case 0:
            break
        case 1:
            if Swift.type(of: instance) != A.self {
                try finish(instance, of: component)
            }
        default:
            try finish(instance, of: component)
        }
    }

    /// Creates the instance in `slot` through the container's engine.
    @usableFromInline
    func createThroughContainer<A>(at slot: UInt32, as type: A.Type) throws(FrostError) -> A {
        try container.takeUnretainedValue().create(at: slot, as: A.self)
    }

    /// Enters `component` in the resolve's path: ``ResolveContext/enter(_:)-(UnsafeRawPointer)``
    /// inlined (this frame's context's fields read at their offsets in ``_ContextLayout``).
    /// Every eighth level goes through that function instead, which also checks that the
    /// thread's stack has room (its margin covers eight levels; testing the stack here would
    /// take a local's address, and with it a stack-protector check, on every creation).
    @inlinable
    @inline(__always)
    func enter(_ component: UnsafeRawPointer) throws(FrostError) {
        let depth = Int(context.load(fromByteOffset: _ContextLayout.depth, as: UInt32.self))
        let path = context.load(
            fromByteOffset: _ContextLayout.path, as: UnsafeMutablePointer<UInt>.self)
        let address = UInt(bitPattern: component)
        var refused = depth & 7 == 7 || depth >= _ContextLayout.maximumDepth
        if !refused {
            for index in 0..<depth where path[index] == address {
                refused = true
                break
            }
        }
        if refused {
            try enterSlowly(component)  // enters it, or throws the cycle or depth error
            return
        }
        path[depth] = address
        context.storeBytes(
            of: UInt32(depth + 1), toByteOffset: _ContextLayout.depth, as: UInt32.self)
    }

    /// Enters `component` through ``ResolveContext``: with the stack checked, or the cycle or
    /// depth error thrown.
    @usableFromInline
    func enterSlowly(_ component: UnsafeRawPointer) throws(FrostError) {
        try ResolveContext(opaque: context).enter(component)
    }

    /// Leaves the component entered last: ``ResolveContext/leave()`` inlined.
    @inlinable
    @inline(__always)
    func leave() {
        let depth = context.load(fromByteOffset: _ContextLayout.depth, as: UInt32.self) &- 1
        context.storeBytes(of: depth, toByteOffset: _ContextLayout.depth, as: UInt32.self)
        if depth == 0,
            context.load(fromByteOffset: _ContextLayout.statePending, as: UInt32.self) != 0
        {
            endResolve()
        }
    }

    /// The end of a top-level resolve that kept something for itself.
    @usableFromInline
    func endResolve() {
        ResolveContext(opaque: context).resolveEnded()
    }

    /// Injects the `@Injected` properties of an instance whose class has some.
    @usableFromInline
    func finish<A>(_ instance: A, of component: TypedComponent<A>) throws {
        try component.finish(instance, container.takeUnretainedValue())
    }

    /// What an error thrown while creating `component` (entered last) becomes: a
    /// ``FrostError`` as it is, anything else `.factoryFailed` with the path.
    @usableFromInline
    func failure(_ error: any Error, in component: UnsafeRawPointer) -> FrostError {
        Unmanaged<Component>.fromOpaque(component)._withUnsafeGuaranteedRef {
            ResolveContext(opaque: context).failure(error, in: $0)
        }
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
