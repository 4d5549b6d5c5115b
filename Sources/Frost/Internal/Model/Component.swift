/// One registration, compiled: its key, scope, declared dependencies and how to make its
/// instance (``TypedComponent`` adds the typed parts).
///
/// Immutable: changing a registration (`.scope`, `.implements`, `.inject`, `.onCreate`)
/// replaces its component, so a ``FrozenContainer`` never sees later changes to the
/// ``Container`` it was frozen from. `@unchecked Sendable` because the generic subclass stores
/// `@Sendable` closures and an optional instance box, all immutable.
///
/// The engine reaches a component through a type-erased slot, so it touches only what has a
/// layout independent of `T`: stored flags and the type-erased operations below.
@usableFromInline
class Component: @unchecked Sendable {
    let key: RegistrationKey
    let scope: Scope
    /// The scope's kind, stored apart: reading `scope` copies it and retains its storage (6% of
    /// the complex benchmark case in callgrind when the engine did).
    let kind: Scope.Kind
    /// A registered instance (`register(instance:)`), already boxed.
    let instance: AnyObject?
    /// For a forwarding component (`.implements`, aliases): the registration it forwards to.
    /// Its scope follows that registration's at freeze time.
    let forwardsTo: RegistrationKey?
    /// What freeze can check: autowired parameters, injected properties, forwards.
    let dependencies: [Dependency]
    /// Whether each resolve simply makes a new instance: a transient registration, not an
    /// instance.
    let createsDirectly: Bool
    /// The parameters' slots, when a frozen container can create instances through
    /// `autowiredBound`: every parameter bound, nothing but a dynamic-type check to run after
    /// the initializer. Owned by this component: allocated by ``TypedComponent``'s `init`,
    /// freed in `deinit`.
    @usableFromInline let boundSlots: UnsafePointer<UInt32>?
    /// Whether a frozen container's resolve makes it with code specialized at the call
    /// (``_BoundParameters/makeAtRoot(_:as:)``): a transient made through bound parameters
    /// or by a closure, with nothing but a dynamic-type check to run after it.
    @usableFromInline let createsAtRoot: Bool
    /// Whether a frozen container's resolve with arguments calls its factory with code
    /// specialized at the call (``_BoundParameters/makeAtRoot(_:arguments:argumentType:as:)``):
    /// a factory that takes arguments, with nothing but a dynamic-type check to run after it.
    @usableFromInline let takesArgumentsAtRoot: Bool
    /// Whether a child creates its `.scoped` instance through bound parameters, like a
    /// transient's (``_BoundParameters``): every parameter bound, nothing but a dynamic-type
    /// check to run after the initializer.
    let createsScopedDirectly: Bool
    /// The `.onDispose` hooks, run on what the engine tracked (``DisposalRecord``);
    /// stored type-erased, so that running them looks no generic type up.
    let disposal: Disposal.Hooks?
    /// Whether only an awaited resolve can make its instance: its factory is async (or
    /// isolated to an actor).
    let isAsync: Bool
    /// The slot of each declared dependency in the frozen container's slot space
    /// (`UInt32.max`: resolved by type, or missing); empty before freezing. The async engine
    /// makes what a synchronous factory needs through them (``Engine``'s prefetch).
    let dependencySlots: [UInt32]

    init(
        key: RegistrationKey,
        scope: Scope,
        instance: AnyObject?,
        forwardsTo: RegistrationKey?,
        dependencies: [Dependency],
        boundSlots: UnsafePointer<UInt32>? = nil,
        makesByClosureDirectly: Bool = false,
        takesArgumentsDirectly: Bool = false,
        isAsync: Bool = false,
        dependencySlots: [UInt32] = [],
        disposal: Disposal.Hooks? = nil
    ) {
        self.key = key
        self.scope = scope
        self.kind = scope.kind
        self.instance = instance
        self.forwardsTo = forwardsTo
        self.dependencies = dependencies
        self.createsDirectly = scope.kind == .transient && instance == nil && !isAsync
        self.isAsync = isAsync
        self.dependencySlots = dependencySlots
        self.boundSlots = boundSlots
        self.createsAtRoot = createsDirectly && (boundSlots != nil || makesByClosureDirectly)
        self.takesArgumentsAtRoot = takesArgumentsDirectly
        self.createsScopedDirectly =
            scope.kind == .scoped && instance == nil && boundSlots != nil
        self.disposal = disposal
        self.caches = instance != nil || scope.kind == .singleton
        self.disposes = disposal != nil
    }

    deinit {
        boundSlots?.deallocate()
    }

    /// Whether the container keeps this component's instance in its cell until released:
    /// registered instances and singletons.
    let caches: Bool

    /// The argument tuple type the factory takes, or `nil` for a factory without arguments.
    var argumentType: Any.Type? { nil }

    /// Whether anything runs after the factory: property injection, hooks.
    var finishes: Bool { false }

    /// Whether the registration has `.onDispose` hooks.
    let disposes: Bool

    // MARK: Type-erased operations, implemented by TypedComponent

    /// Runs the factory and boxes the instance (what a cell caches). Errors are the factory's.
    func constructBox(_ resolver: any Resolver) throws -> AnyObject {
        preconditionFailure("implemented by TypedComponent")
    }

    /// Runs the factory and returns the instance as an object (a `.weak` registration's).
    func constructObject(_ resolver: any Resolver) throws -> AnyObject {
        preconditionFailure("implemented by TypedComponent")
    }

    /// Injects the boxed instance's properties and runs its hooks.
    func finishBox(_ box: AnyObject, _ resolver: any Resolver) throws {
        preconditionFailure("implemented by TypedComponent")
    }

    /// Injects an instance's properties (given as an object: a `.weak` registration's) and
    /// runs its hooks.
    func finishObject(_ object: AnyObject, _ resolver: any Resolver) throws {
        preconditionFailure("implemented by TypedComponent")
    }

    /// The value in a box of this component's instances.
    func value(ofBox box: AnyObject) -> Any {
        preconditionFailure("implemented by TypedComponent")
    }

    /// Runs the factory (awaiting it, when it is async) and boxes the instance.
    func constructBoxAsync(_ resolver: any Resolver) async throws -> AnyObject {
        preconditionFailure("implemented by TypedComponent")
    }

    /// The same component with another scope.
    func with(scope: Scope) -> Component {
        preconditionFailure("implemented by TypedComponent")
    }

    /// The component a frozen container installs: autowired parameters bound to their slots
    /// (`slot(key)` answers `UInt32.max` for a key without a slot).
    func bound(to slot: (RegistrationKey) -> UInt32) -> Component { self }
}
