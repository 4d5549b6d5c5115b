/// One registration, compiled: its key, its lifetime, what it declares it depends on and how
/// to make its instance (``TypedComponent`` adds the typed parts).
///
/// Immutable once shared: changing a registration (`.scope`, `.implements`, `.inject`,
/// `.onCreate`) replaces its component, so a ``FrozenContainer`` never sees later changes to
/// the ``Container`` it was frozen from. The writes after `init` happen while nothing else can
/// read the component: `.scope(...)` on a component its `Container` alone holds (no container
/// built from it is alive; ``setScope(_:makesDirectly:)``), and the first installing
/// container's binding of its slots, before that container is shared
/// (``bindInPlace(_:framed:)``).
/// `@unchecked Sendable` because the generic subclass stores `@Sendable` closures and an
/// optional instance box, all immutable.
///
/// The engine reaches a component through a type-erased slot, so it touches only what has a
/// layout independent of `T`: stored flags and the type-erased operations below.
@usableFromInline
class Component: @unchecked Sendable {
    let key: RegistrationKey
    /// The scope as registered (a registration with runtime arguments is always transient).
    /// Written by `init`, or by ``setScope(_:makesDirectly:)`` before the component is shared.
    @exclusivity(unchecked) final private(set) var scope: Scope
    /// The lifetime strategy that keeps its instances (`Internal/Lifetimes`), chosen with the
    /// scope.
    @exclusivity(unchecked) final private(set) var lifetime: any Lifetime.Type
    /// A registered instance (`register(instance:)`), already boxed.
    let instance: AnyObject?
    /// For a forwarding component (`.implements`, aliases): the registration it forwards to.
    /// Its lifetime follows that registration's at freeze time.
    let forwardsTo: RegistrationKey?
    /// What freeze can check: autowired parameters, injected properties, forwards.
    let dependencies: [Dependency]
    /// Whether only an awaited resolve can make its instance: its factory is async (or
    /// isolated to an actor).
    let isAsync: Bool
    /// The argument tuple type the factory takes, or `nil` for a factory without arguments.
    let argumentType: Any.Type?
    /// The `.onDispose` hooks, run on what the engine tracked; stored type-erased, so that
    /// running them looks no generic type up.
    let disposal: Disposal.Hooks?
    /// Whether the registration has `.onDispose` hooks (a flag: a creation asks it without
    /// loading, and retaining, the hooks).
    let disposes: Bool
    /// Whether `bootstrap()` leaves it alone (`.lazy()`): made on first resolve.
    let isLazy: Bool
    /// The parameters' slots in the container's slot chain, when the container creates its
    /// instances through them (``Frame``): every parameter bound, nothing but a dynamic-type
    /// check to run after the initializer. The same memory as ``slotStorage`` (an autowired
    /// initializer's parameters are its declared dependencies), or `nil`.
    ///
    /// This and the ones below are written only before the component is shared: by its
    /// `init`, or by the first container that installs it (on the thread that freezes), which
    /// binds it in place instead of copying it; then only read (no dynamic exclusivity checks).
    @usableFromInline @exclusivity(unchecked) final private(set) var boundSlots:
        UnsafePointer<UInt32>?
    /// The slot of each declared dependency in the container's slot chain (`UInt32.max`:
    /// resolved by type, or missing), ``slotCount`` of them; `nil` until a container binds
    /// them (a copy of a bound component carries the original's, and a framed one without
    /// dependencies has a block of none). What an awaited resolve makes first for a synchronous
    /// factory goes through them. Owned by this component: allocated by `init`, or by
    /// ``allocateSlots(count:)`` for ``bindInPlace(_:framed:)``, which takes it over; freed in
    /// `deinit`.
    @exclusivity(unchecked) private var slotStorage: UnsafeMutablePointer<UInt32>?
    /// How many slots ``slotStorage`` holds.
    @exclusivity(unchecked) private var slotCount: Int
    /// Whether a resolve makes it at its top with code specialized at the call
    /// (``Frame/makeAtRoot(_:as:)``): a transient made through bound parameters or by a
    /// closure, with nothing but a dynamic-type check to run after it.
    @usableFromInline @exclusivity(unchecked) final private(set) var createsAtRoot: Bool
    /// Whether a container has bound this component's slots in place: any other container
    /// that installs it binds a copy.
    private var isBound = false
    /// Whether a resolve with arguments calls its factory with code specialized at the call
    /// (``Frame/makeAtRoot(_:arguments:argumentType:as:)``).
    @usableFromInline let takesArgumentsAtRoot: Bool
    /// The typed half's type (a ``TypedComponent`` of the registered type), which carries out
    /// what needs the type: making, finishing and reading instances, copying the component.
    let typed: any TypedOperations.Type

    init(
        key: RegistrationKey,
        scope: Scope,
        instance: AnyObject?,
        forwardsTo: RegistrationKey?,
        dependencies: [Dependency],
        isAsync: Bool,
        argumentType: Any.Type?,
        disposal: Disposal.Hooks?,
        isLazy: Bool,
        dependencySlots: [UInt32],
        framed: Bool,
        makesByClosureDirectly: Bool,
        takesArgumentsDirectly: Bool,
        finishes: Bool,
        runsCreationHooks: Bool,
        typed: any TypedOperations.Type
    ) {
        self.typed = typed
        self.key = key
        self.scope = scope
        let traits = Component.traits(
            of: scope, instance: instance, forwardsTo: forwardsTo, isAsync: isAsync,
            argumentType: argumentType, makesDirectly: framed || makesByClosureDirectly)
        self.lifetime = traits.lifetime
        self.instance = instance
        self.forwardsTo = forwardsTo
        self.dependencies = dependencies
        self.isAsync = isAsync
        self.argumentType = argumentType
        self.disposal = disposal
        self.disposes = disposal != nil
        self.isLazy = isLazy
        let storage =
            framed || !dependencySlots.isEmpty
            ? Component.allocateSlots(count: dependencySlots.count) : nil
        storage?.initialize(from: dependencySlots, count: dependencySlots.count)
        self.slotStorage = storage
        self.slotCount = dependencySlots.count
        self.boundSlots = framed ? storage.map { UnsafePointer($0) } : nil
        self.createsAtRoot = traits.createsAtRoot
        self.takesArgumentsAtRoot = takesArgumentsDirectly
        self.finishes = finishes
        self.runsCreationHooks = runsCreationHooks
        self.makesEachTime = traits.makesEachTime
        self.caches = traits.caches
        self.makesOncePerChild = traits.makesOncePerChild
    }

    /// What a component's scope decides about making and keeping its instances.
    /// `makesDirectly`: whether a resolve can make it with code specialized at the call (bound
    /// parameters, or a closure).
    private static func traits(
        of scope: Scope, instance: AnyObject?, forwardsTo: RegistrationKey?, isAsync: Bool,
        argumentType: Any.Type?, makesDirectly: Bool
    ) -> (
        lifetime: any Lifetime.Type, makesEachTime: Bool, createsAtRoot: Bool, caches: Bool,
        makesOncePerChild: Bool
    ) {
        let lifetime = scope.kind.lifetime
        let makesEachTime = scope.kind == .transient && instance == nil && !isAsync
        return (
            lifetime: lifetime,
            makesEachTime: makesEachTime,
            // A forward is made by the engine (``Transient``), which does not enter it in the
            // path.
            createsAtRoot: makesEachTime && forwardsTo == nil && makesDirectly,
            caches: instance != nil || lifetime.keepsInSlot,
            makesOncePerChild: lifetime.keepsPerChild && !lifetime.isSupplied && instance == nil
                && !isAsync && argumentType == nil
        )
    }

    /// Gives this component another scope, in place: only for a component that nothing else
    /// holds (its `Container` alone: no container built from it is alive), which
    /// `.scope(...)` would otherwise copy. `makesDirectly`: whether it has a closure or an
    /// autowired initializer (the typed half knows).
    final func setScope(_ scope: Scope, makesDirectly: Bool) {
        let traits = Component.traits(
            of: scope, instance: instance, forwardsTo: forwardsTo, isAsync: isAsync,
            argumentType: argumentType, makesDirectly: boundSlots != nil || makesDirectly)
        self.scope = scope
        lifetime = traits.lifetime
        makesEachTime = traits.makesEachTime
        createsAtRoot = traits.createsAtRoot
        caches = traits.caches
        makesOncePerChild = traits.makesOncePerChild
    }

    deinit {
        // `boundSlots`, if set, is the same memory.
        slotStorage?.deallocate()
    }

    /// Memory for `count` slots (at least one word: a framed initializer without parameters
    /// has a non-nil ``boundSlots`` too), owned by the component it is given to.
    static func allocateSlots(count: Int) -> UnsafeMutablePointer<UInt32> {
        UnsafeMutablePointer<UInt32>.allocate(capacity: max(count, 1))
    }

    /// The slot of the declared dependency at `index` in the container's slot chain;
    /// `UInt32.max` when it is resolved by type, missing, or not bound.
    final func dependencySlot(at index: Int) -> UInt32 {
        index < slotCount ? slotStorage.unsafelyUnwrapped[index] : .max
    }

    /// Every declared dependency's slot, as bound (empty before installation): for a copy.
    final var dependencySlots: [UInt32] {
        guard let slotStorage else { return [] }
        return Array(UnsafeBufferPointer(start: slotStorage, count: slotCount))
    }

    /// Binds this component to a container's slots, in place, if no container has yet (the
    /// first freeze of a registration, the common case, copies nothing): `slots`, one per
    /// declared dependency (from ``allocateSlots(count:)``), which it takes over; when
    /// `framed` (an autowired initializer's parameters are its dependencies), also its
    /// ``boundSlots``. Returns `false`, changing and taking nothing, when another container
    /// has bound it: bind a copy. Only on the thread that installs it, before the container
    /// is shared.
    final func bindInPlace(_ slots: UnsafeMutablePointer<UInt32>, framed: Bool) -> Bool {
        guard !isBound else { return false }
        isBound = true
        // What a copy brought along (the slots of a container that bound the original) goes.
        slotStorage?.deallocate()
        slotStorage = slots
        slotCount = dependencies.count
        boundSlots = framed ? UnsafePointer(slots) : nil
        if framed { createsAtRoot = makesEachTime && forwardsTo == nil }
        return true
    }

    /// Whether each resolve makes a new instance with nothing kept (a transient, not a
    /// registered instance, not async).
    @exclusivity(unchecked) final private(set) var makesEachTime: Bool
    /// Whether a child makes its instance once, in its per-child cell, through a frame (a
    /// `.scoped` registration whose factory is synchronous and takes no arguments).
    @exclusivity(unchecked) final private(set) var makesOncePerChild: Bool

    /// Whether the instance stays in the slot's cell, which lookups read as a cached instance:
    /// a singleton's and a registered instance.
    @exclusivity(unchecked) final private(set) var caches: Bool

    /// Whether `bootstrap()` makes its instance: an eager lifetime's (a singleton), not
    /// `.lazy()`, not a registered instance.
    var isMadeAtBootstrap: Bool { lifetime.isEager && !isLazy && instance == nil }

    /// Whether the registration has `.onCreate` hooks or `.inject` key paths: what runs on an
    /// instance it creates.
    let runsCreationHooks: Bool

    /// Whether anything runs after the factory: property injection, hooks.
    let finishes: Bool

    // MARK: Type-erased operations, carried out by the typed half

    /// Runs the factory with its dependencies resolved through `frame` and boxes the instance
    /// (what a cell caches). Errors are the factory's.
    final func constructBox(in frame: Frame) throws -> AnyObject {
        try typed.constructBox(of: self, in: frame)
    }

    /// Runs the factory (awaiting it, when it is async) and boxes the instance.
    final func constructBoxAwaiting(_ resolver: any Resolver) async throws -> AnyObject {
        try await typed.constructBoxAwaiting(of: self, resolver)
    }

    /// Runs the factory and returns the instance as an object (a `.weak` registration's).
    final func constructObject(in frame: Frame) throws -> AnyObject {
        try typed.constructObject(of: self, in: frame)
    }

    /// Injects the boxed instance's properties and runs its hooks.
    final func finishBox(_ box: AnyObject, _ resolver: any Resolver) throws {
        try typed.finishBox(box, of: self, resolver)
    }

    /// Injects an instance's properties (given as an object: a `.weak` registration's) and
    /// runs its hooks.
    final func finishObject(_ object: AnyObject, _ resolver: any Resolver) throws {
        try typed.finishObject(object, of: self, resolver)
    }

    /// The value in a box of this component's instances.
    final func value(ofBox box: AnyObject) -> Any {
        typed.value(ofBox: box, of: self)
    }

    /// Whether `object` is an instance of this component's type (a custom storage's answer,
    /// a `.weak` instance).
    final func isInstance(_ object: AnyObject) -> Bool {
        typed.isInstance(object)
    }

    /// The same component with another scope.
    final func with(scope: Scope) -> Component {
        typed.copy(of: self, scope: scope)
    }

    /// The component a container installs: autowired parameters and declared dependencies
    /// bound to their slots (`slot(key)` answers `UInt32.max` for a key without a slot).
    final func bound(to slot: (RegistrationKey) -> UInt32) -> Component {
        typed.bound(self, to: slot)
    }
}

/// What only a registration's typed half can do, given the component: the operations
/// ``Component`` carries out through its ``Component/typed`` type. ``TypedComponent`` is the
/// one conformance: each requirement is its own method, on the component downcast to it.
protocol TypedOperations {
    /// See ``Component/constructBox(in:)``.
    static func constructBox(of component: Component, in frame: Frame) throws -> AnyObject
    /// See ``Component/constructBoxAwaiting(_:)``.
    static func constructBoxAwaiting(of component: Component, _ resolver: any Resolver)
        async throws -> AnyObject
    /// See ``Component/constructObject(in:)``.
    static func constructObject(of component: Component, in frame: Frame) throws -> AnyObject
    /// See ``Component/finishBox(_:_:)``.
    static func finishBox(_ box: AnyObject, of component: Component, _ resolver: any Resolver)
        throws
    /// See ``Component/finishObject(_:_:)``.
    static func finishObject(
        _ object: AnyObject, of component: Component, _ resolver: any Resolver) throws
    /// Whether the boxed instance needs finishing (its class has wrappers, or hooks run): what
    /// a creation asks before it finishes or publishes an instance.
    static func finishesBox(_ box: AnyObject, of component: Component) -> Bool
    /// See ``Component/value(ofBox:)``.
    static func value(ofBox box: AnyObject, of component: Component) -> Any
    /// See ``Component/isInstance(_:)``.
    static func isInstance(_ object: AnyObject) -> Bool
    /// See ``Component/with(scope:)``.
    static func copy(of component: Component, scope: Scope) -> Component
    /// See ``Component/bound(to:)``.
    static func bound(_ component: Component, to slot: (RegistrationKey) -> UInt32) -> Component
}
