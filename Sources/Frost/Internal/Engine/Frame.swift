/// One creation in progress, as code specialized in the caller sees it: the container the
/// resolve is in, the slots the registration's autowired parameters are bound to, and the
/// resolve's path (the calling thread's context).
///
/// When a container is built (`freeze()`, or a `Container`'s first resolve), each autowired
/// parameter is bound to the slot of its dependency. The initializer `autowire` was given then
/// reads its parameters here, by code inlined into the caller and so specialized for each
/// parameter's type: each parameter is one slot read (a cached instance) or one direct
/// creation (a transient, a child's `.scoped` instance), with no `any Resolver` built, copied
/// or dispatched through per object. A transient is made the same way at the top of a resolve
/// (``makeAtRoot(_:as:)``). Each creation enters the resolve's path like any other (cycles,
/// depth, the path of an error); what is neither read nor made here goes to the engine.
///
/// A frame lives for one call of a factory, which never keeps it; the container and the
/// context it points to outlive that call, so it holds them unretained.
@usableFromInline
struct Frame {
    /// The container the resolve is in. Unmanaged, not `unowned(unsafe)`: using an
    /// `unowned(unsafe)` reference retains and releases it around every call (measured: a pair
    /// per parameter).
    @usableFromInline let space: Unmanaged<_Space>
    /// The container's own slot array, tagged (bit 0) when the container is a child: each slot
    /// is then looked up through its chain (own slot, override, per-child cell or parent's);
    /// or, for a child that registers nothing, its root's, tagged (bit 1): only a per-child
    /// slot is looked up through the chain (``_Space/frameSlots``).
    @usableFromInline let slotArray: UnsafeRawPointer
    /// The slot of each parameter, in order (owned by the component being created); `nil`
    /// for a factory that takes no bound parameters.
    @usableFromInline let slots: UnsafePointer<UInt32>?
    /// The resolve's context (``ResolveContext``).
    @usableFromInline let context: UnsafeMutableRawPointer

    @usableFromInline
    init(
        space: Unmanaged<_Space>,
        slotArray: UnsafeRawPointer,
        slots: UnsafePointer<UInt32>?,
        context: UnsafeMutableRawPointer
    ) {
        self.space = space
        self.slotArray = slotArray
        self.slots = slots
        self.context = context
    }

    /// The frame of a factory of `component` made one level deeper, in the same container.
    @inlinable
    @inline(__always)
    func deeper(for component: Component) -> Frame {
        Frame(space: space, slotArray: slotArray, slots: component.boundSlots, context: context)
    }

    /// What a closure factory made here receives: the container the resolve is in.
    @usableFromInline
    var resolver: any Resolver {
        space._withUnsafeGuaranteedRef { $0.resolver }
    }

    // MARK: Parameters

    /// The parameter at `index`, of type `A`: its cached instance, read without retaining the
    /// box, or a new one. Inlined into `autowire`'s closure, so the read is specialized for `A`.
    @inlinable
    @inline(__always)
    func parameter<A>(_ type: A.Type, at index: Int) throws(FrostError) -> A {
        let slot = slots.unsafelyUnwrapped[index]
        guard slot != .max else { return try byType(A.self) }
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

    /// The dependency at `index` of a key path injected into a new instance (named `name`):
    /// read or made through the slot it is bound to, as a parameter is, or by its type and
    /// name when it is bound to none. Inlined into the injection `.inject` builds in the
    /// caller, so the read is specialized for `A`.
    @inlinable
    @inline(__always)
    func property<A>(_ type: A.Type, at index: Int, name: String?) throws(FrostError) -> A {
        guard let slots, slots[index] != .max else { return try byType(A.self, name: name) }
        return try parameter(A.self, at: index)
    }

    /// A parameter bound to no slot (a `Lazy`, a `Provider`, an `Optional`, or a missing
    /// dependency), resolved by its type (and the name an `@Injectable` type binds it to).
    @usableFromInline
    func byType<A>(_ type: A.Type, name: String? = nil) throws(FrostError) -> A {
        try space.takeUnretainedValue().resolveByType(A.self, name: name)
    }

    /// What `slot` holds for a parameter, in one call: the component when it is a transient
    /// made here (nothing read), or, in a child, a `.scoped` one made here with the empty cell
    /// it goes in; else the box cached there (a protected read, through this frame's context),
    /// or none of these.
    @usableFromInline
    func look(at slot: UInt32) -> (
        box: UnsafeMutableRawPointer?, component: UnsafeRawPointer?, cell: UnsafeMutableRawPointer?
    ) {
        // A child's frame (tagged): out of line, so that a root's saves no register.
        if UInt(bitPattern: slotArray) & 3 != 0 { return lookInChild(at: slot) }
        return look(at: slot, in: SlotArray(address: slotArray))
    }

    /// ``look(at:)`` in a child: through its chain, or, in a child that registers nothing
    /// under a root (bit 1), in the root's slots, unless the slot is a per-child key (its own
    /// `.scoped` instance, or a value it supplies).
    @inline(never)
    private func lookInChild(at slot: UInt32) -> (
        box: UnsafeMutableRawPointer?, component: UnsafeRawPointer?, cell: UnsafeMutableRawPointer?
    ) {
        let tagged = UInt(bitPattern: slotArray)
        if tagged & 1 == 0 {
            let slots = SlotArray(
                address: UnsafeRawPointer(bitPattern: tagged & ~2).unsafelyUnwrapped)
            if SlotFlags(slots.flags(at: slot)).perChildIndex == nil {
                return look(at: slot, in: slots)
            }
        }
        return space._withUnsafeGuaranteedRef { $0.look(chainSlot: slot) }
    }

    /// ``look(at:)`` in a root's slot array.
    @inline(__always)
    private func look(at slot: UInt32, in slots: SlotArray) -> (
        box: UnsafeMutableRawPointer?, component: UnsafeRawPointer?, cell: UnsafeMutableRawPointer?
    ) {
        // Kept alive by the container's component list; not retained here.
        let pointer = slots.componentPointer(at: slot)
        if Unmanaged<Component>.fromOpaque(pointer)._withUnsafeGuaranteedRef({ $0.createsAtRoot }) {
            return (nil, pointer, nil)
        }
        return (slots.cell(at: slot).read(in: ResolveContext(opaque: context)), nil, nil)
    }

    // MARK: Making

    /// Makes a new instance of `component` (a transient) one level deeper in the resolve,
    /// through a frame of its own; the component is borrowed, not retained.
    @inlinable
    @inline(__always)
    func make<A>(_ component: UnsafeRawPointer, as type: A.Type) throws(FrostError) -> A {
        try create(component, as: A.self) { component in
            try component.construct(in: self)
        }
    }

    /// Makes a new instance of `component` at the top of a resolve (a transient made by a
    /// closure or through bound parameters): what the transient lifetime does, by code
    /// specialized in the caller.
    @inlinable
    @inline(__always)
    func makeAtRoot<A>(_ component: UnsafeRawPointer, as type: A.Type) throws(FrostError) -> A {
        try make(component, as: A.self)
    }

    /// Makes a new instance of `component` (a registration with arguments) at the top of a
    /// resolve by calling its factory with the container as its resolver; `nil`, with nothing
    /// done, when the arguments are not the ones it takes (the engine says so).
    @inlinable
    @inline(__always)
    func makeAtRoot<A>(
        _ component: UnsafeRawPointer, arguments: UnsafeRawPointer, argumentType: Any.Type,
        as type: A.Type
    ) throws(FrostError) -> A? {
        let takes = Unmanaged<TypedComponent<A>>.fromOpaque(component)
            ._withUnsafeGuaranteedRef {
                ObjectIdentifier($0.withArguments!.type) == ObjectIdentifier(argumentType)
            }
        guard takes else { return nil }
        return try create(component, as: A.self) { component in
            try component.withArguments!.call(resolver, arguments)
        }
    }

    /// One creation one level deeper in the resolve: enters `component` in the path, makes
    /// the instance with `construct`, finishes it (properties, hooks) when it needs it, and
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
                    if component.finishesAlways {
                        try finish(instance, of: component)
                    } else {
                        try finishIfAnotherClass(instance, of: component)
                    }
                    return instance
                }
        } catch {
            throw failure(error, in: component)
        }
    }

    /// Finishes a new instance whose class may have `@Injected` properties that `A` does not
    /// show (a subclass, a protocol's conformer). For a class `A`, the check is a compare of
    /// its class with `A`, which the compiler removes when `A` is final; anything else goes to
    /// `finish`, which looks its class up.
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

    /// Makes the `.scoped` instance of `component` once, in `cell` (this child's, empty when
    /// looked at), through the create-once machine (``Creation``): constructed here, by code
    /// specialized for `A`, then finished (with what was put off until it exists) and
    /// published as the engine does. Another resolve making it meanwhile is waited for; a
    /// re-entry, or a wait that would close a circle, goes to the engine, which reports it.
    @inlinable
    func makeOnce<A>(
        _ component: UnsafeRawPointer, in cell: UnsafeMutableRawPointer, slot: UInt32,
        as type: A.Type
    ) throws(FrostError) -> A {
        let begun = beginOnce(in: cell, of: component)
        if let box = begun.box { return _readBox(box, as: A.self) }
        guard begun.creates else { return try createThroughContainer(at: slot, as: A.self) }
        do {
            try enter(component)
        } catch {
            abandonOnce(in: cell, of: component)
            throw error
        }
        let instance: A
        do {
            instance = try Unmanaged<TypedComponent<A>>.fromOpaque(component)
                ._withUnsafeGuaranteedRef { try $0.construct(in: self) }
        } catch {
            let failure = failure(error, in: component)
            leave()
            abandonOnce(in: cell, of: component)
            throw failure
        }
        defer { leave() }
        try finishOnce(_keep(instance), in: cell, of: component)
        return instance
    }

    /// Finishes the instance ``makeOnce(_:in:slot:as:)`` constructed, and publishes it — or
    /// leaves it claimed, when its finish is put off until an instance it needs exists
    /// (``DeferredFinish``).
    @usableFromInline
    func finishOnce(
        _ box: AnyObject, in cell: UnsafeMutableRawPointer, of component: UnsafeRawPointer
    ) throws(FrostError) {
        let creation = creation(in: cell, of: component)
        do {
            guard try creation.finishOrPutOff(box) else { return }
        } catch {
            creation.abandon()
            throw error
        }
        try creation.publish(box)
    }

    /// ``Creation/begin()`` for ``makeOnce(_:in:slot:as:)``: the box, or whether
    /// this resolve creates it now (neither: the engine handles it).
    @usableFromInline
    func beginOnce(in cell: UnsafeMutableRawPointer, of component: UnsafeRawPointer) -> (
        box: UnsafeMutableRawPointer?, creates: Bool
    ) {
        switch try? creation(in: cell, of: component).begin() {
        case .ready(let box): (box, false)
        case .create: (nil, true)
        default: (nil, false)
        }
    }

    /// ``Creation/abandon()`` for ``makeOnce(_:in:slot:as:)``, with what was put off until
    /// its instance exists.
    @usableFromInline
    func abandonOnce(in cell: UnsafeMutableRawPointer, of component: UnsafeRawPointer) {
        let creation = creation(in: cell, of: component)
        creation.context.abandonDeferred(waitingFor: creation.component)
        creation.abandon()
    }

    private func creation(in cell: UnsafeMutableRawPointer, of component: UnsafeRawPointer)
        -> Creation
    {
        Creation(
            cell: Cell(raw: cell),
            component: Unmanaged<Component>.fromOpaque(component).takeUnretainedValue(),
            maker: space.takeUnretainedValue(), context: ResolveContext(opaque: context))
    }

    /// Creates the instance in `slot` through the container's engine.
    @usableFromInline
    func createThroughContainer<A>(at slot: UInt32, as type: A.Type) throws(FrostError) -> A {
        try space.takeUnretainedValue().create(atChainSlot: slot, as: A.self)
    }

    // MARK: The path

    /// Enters `component` in the resolve's path: ``ResolveContext/enter(_:)-(UnsafeRawPointer)``
    /// inlined (this frame's context's ``ResolvePath``, the fields at its start, read through a
    /// typed pointer). Every eighth level goes through that function instead, which also checks
    /// that the thread's stack has room (its margin covers eight levels; testing the stack here
    /// would take a local's address, and with it a stack-protector check, on every creation).
    @inlinable
    @inline(__always)
    func enter(_ component: UnsafeRawPointer) throws(FrostError) {
        let fields = context.assumingMemoryBound(to: ResolvePath.self)
        let depth = Int(fields.pointee.depth)
        let path = fields.pointee.entries.unsafelyUnwrapped
        let address = UInt(bitPattern: component)
        var refused = depth & 7 == 7 || depth >= ResolvePath.maximumDepth
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
        fields.pointee.depth = UInt32(depth + 1)
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
        let fields = context.assumingMemoryBound(to: ResolvePath.self)
        let depth = fields.pointee.depth &- 1
        fields.pointee.depth = depth
        if depth == 0, fields.pointee.statePending != 0 { endResolve() }
    }

    /// The end of a top-level resolve that kept something for itself.
    @usableFromInline
    func endResolve() {
        ResolveContext(opaque: context).resolveEnded()
    }

    /// Finishes a new instance (properties, then hooks). An instance whose class has no
    /// wrappers (its class is `A`, and `A`'s has none) runs the key-path injections and the
    /// hooks right here, specialized for `A`; any other goes through the component, which
    /// looks its class's wrappers up.
    @inlinable
    func finish<A>(_ instance: A, of component: TypedComponent<A>) throws {
        switch component.dynamicTypeCheck {
        case 0:
            break
        case 1:
            if component.hasOwnWrappers || Swift.type(of: instance) != A.self {
                return try component.finish(instance, resolver)
            }
        default:
            return try component.finish(instance, resolver)
        }
        try component.finishInOrder(instance, resolver, injectingWrappers: false, in: self)
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

/// A `.inject` key path's injection into an instance made through a frame: given the frame of
/// the instance's component and the instance's address (a `T`).
@usableFromInline
typealias FramedInjection = @Sendable (Frame, UnsafeRawPointer) throws(FrostError) -> Void

/// Implementation detail of `autowire`: reads the bound parameter at `index` and moves to
/// the next (the parameter-pack form's counterpart of ``Frame/parameter(_:at:)``).
@inlinable
@inline(__always)
func _frameParameter<Parameter>(
    _ type: Parameter.Type,
    from frame: Frame,
    index: inout Int
) throws(FrostError) -> Parameter {
    defer { index &+= 1 }
    return try frame.parameter(Parameter.self, at: index)
}
