/// One registration, compiled: its key, scope, declared dependencies and how to make its
/// instance.
///
/// Immutable: changing a registration (`.scope`, `.implements`, `.inject`, `.onCreate`)
/// replaces its component, so a ``FrozenContainer`` never sees later changes to the
/// ``Container`` it was frozen from. `@unchecked Sendable` because the generic subclass stores
/// `@Sendable` closures and an optional instance box, all immutable.
@usableFromInline
class Component: @unchecked Sendable {
    let key: RegistrationKey
    let scope: Scope
    /// A registered instance (`register(instance:)`), already boxed.
    let instance: AnyObject?
    /// For a forwarding component (`.implements`, aliases): the registration it forwards to.
    /// Its scope follows that registration's at freeze time.
    let forwardsTo: RegistrationKey?
    /// What freeze can check: autowired parameters, injected properties, forwards.
    let dependencies: [Dependency]
    /// The key a custom scope's storage keeps the instance under: the canonical key, computed
    /// once when the scope is set (`String(reflecting:)` is too slow for every resolve).
    let scopeKey: String
    /// Whether each resolve simply runs the factory: a transient registration, not an
    /// instance. A frozen container creates these without its general engine
    /// (``FrozenContainer/create(at:as:depth:state:)``). Stored, not derived: reading `scope`
    /// copies it (and retains its storage), 6% of the complex benchmark case in callgrind.
    let createsDirectly: Bool
    /// The parameters' slots, when a frozen container can create instances through
    /// `autowiredBound`: every parameter bound, nothing to run after the initializer. Owned by
    /// this component: allocated by ``TypedComponent``'s `init`, freed in `deinit`.
    @usableFromInline let boundSlots: UnsafePointer<UInt32>?

    init(
        key: RegistrationKey,
        scope: Scope,
        instance: AnyObject?,
        forwardsTo: RegistrationKey?,
        dependencies: [Dependency],
        boundSlots: UnsafePointer<UInt32>? = nil
    ) {
        self.key = key
        self.scope = scope
        self.instance = instance
        self.forwardsTo = forwardsTo
        self.dependencies = dependencies
        self.scopeKey = scope.kind == .custom ? key.canonicalName : ""
        self.createsDirectly = scope.kind == .transient && instance == nil
        self.boundSlots = boundSlots
    }

    deinit {
        boundSlots?.deallocate()
    }

    /// Whether the container keeps this component's instance (in the slot, for the frozen
    /// container): registered instances and singletons.
    var caches: Bool { instance != nil || scope.kind == .singleton }

    /// The argument tuple type the factory takes, or `nil` for a factory without arguments.
    var argumentType: Any.Type? { nil }

    /// Makes the instance, boxed (for caching). Overridden by ``TypedComponent``.
    func makeBox(_ resolver: any Resolver) throws(FrostError) -> AnyObject {
        preconditionFailure("Component.makeBox is implemented by TypedComponent")
    }

    /// The same component with another scope.
    func with(scope: Scope) -> Component {
        preconditionFailure("Component.with(scope:) is implemented by TypedComponent")
    }

    /// The component a frozen container installs: autowired parameters bound to their slots
    /// (`slot(key)` answers `UInt32.max` for a key without a slot).
    func bound(to slot: (RegistrationKey) -> UInt32) -> Component { self }
}

/// A component whose instances are `T`s.
///
/// The resolve path mostly runs unspecialized for `T` (it is reached through a type-erased
/// slot; only an autowired graph's bound creation is specialized, in the caller), so it
/// touches only what has a layout independent of `T`: optional closures and flags. An
/// array of closures or a generic enum would make the runtime look up their metadata on every
/// resolve (measured: about 850 instructions for two empty arrays).
@usableFromInline
final class TypedComponent<T>: Component, @unchecked Sendable {
    /// How instances are made (the builder's view; stored as the fields below).
    enum Factory {
        /// A closure given the resolver.
        case closure(@Sendable (any Resolver) throws -> T)
        /// An autowired initializer: its parameters come from the slots freeze bound them to
        /// (or by type, through the resolver, when unbound). `bound` is the same initializer
        /// reading its parameters straight from their slots (``_BoundParameters``).
        case autowired(
            @Sendable (any Resolver, [UInt32]?) throws -> T,
            bound: @Sendable (_BoundParameters) throws -> T,
            slots: [UInt32]?
        )
        /// A closure that takes runtime arguments, passed as a pointer to a tuple of type
        /// `argumentType`.
        case arguments(
            @Sendable (any Resolver, UnsafeRawPointer) throws -> T, argumentType: Any.Type)
    }

    private let closure: (@Sendable (any Resolver) throws -> T)?
    private let autowired: (@Sendable (any Resolver, [UInt32]?) throws -> T)?
    /// The autowired initializer reading its parameters through ``_BoundParameters``: called
    /// by `_BoundParameters.create`, which is specialized in the caller (hence visible there).
    @usableFromInline let autowiredBound: (@Sendable (_BoundParameters) throws -> T)?
    private let slots: [UInt32]?
    private let withArguments: (@Sendable (any Resolver, UnsafeRawPointer) throws -> T)?
    private let expectedArguments: Any.Type?
    /// Applied to each new instance: property injections (in the order added), then
    /// `onCreate` hooks (in the order added). Composed closures, not arrays: see above.
    let injection: (@Sendable (any Resolver, T) throws -> Void)?
    let hook: (@Sendable (any Resolver, T) throws -> Void)?
    /// The `@Injected`/`@LazyInjected` properties of `T`, when `T` is a class that has some:
    /// filled on every instance the container creates. Decided once, at registration.
    let wrapperPlan: InjectionPlan?
    /// Whether anything runs after the factory (wrappers, key paths, hooks).
    private let finishes: Bool

    init(
        key: RegistrationKey,
        scope: Scope,
        instance: Box<T>? = nil,
        forwardsTo: RegistrationKey? = nil,
        dependencies: [Dependency] = [],
        factory: Factory,
        injection: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        hook: (@Sendable (any Resolver, T) throws -> Void)? = nil
    ) {
        switch factory {
        case .closure(let make):
            (closure, autowired, autowiredBound, slots, withArguments, expectedArguments) = (
                make, nil, nil, nil, nil, nil
            )
        case .autowired(let make, let bound, let slots):
            (closure, autowired, autowiredBound, self.slots, withArguments, expectedArguments) = (
                nil, make, bound, slots, nil, nil
            )
        case .arguments(let make, let type):
            (closure, autowired, autowiredBound, slots, withArguments, expectedArguments) = (
                nil, nil, nil, nil, make, type
            )
        }
        self.injection = injection
        self.hook = hook
        if instance == nil, let type = T.self as? AnyClass {
            let plan = InjectionPlan.of(type)
            wrapperPlan = plan.fields.isEmpty ? nil : plan
        } else {
            wrapperPlan = nil
        }
        finishes = wrapperPlan != nil || injection != nil || hook != nil
        var boundSlots: UnsafePointer<UInt32>?
        if let slots, !finishes, instance == nil, !slots.contains(.max) {
            let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: max(slots.count, 1))
            storage.initialize(from: slots, count: slots.count)
            boundSlots = UnsafePointer(storage)
        }
        super.init(
            key: key,
            scope: scope,
            instance: instance,
            forwardsTo: forwardsTo,
            dependencies: dependencies,
            boundSlots: boundSlots
        )
    }

    /// The factory, as the builder gave it.
    var factory: Factory {
        if let closure { return .closure(closure) }
        if let autowired, let autowiredBound {
            return .autowired(autowired, bound: autowiredBound, slots: slots)
        }
        return .arguments(withArguments!, argumentType: expectedArguments!)
    }

    override var argumentType: Any.Type? { expectedArguments }

    /// Makes an instance. A ``FrostError`` (from a nested resolve, or thrown by the factory
    /// itself) passes through; any other error is wrapped. The resolution adds this component
    /// to the error's path as it unwinds.
    func make(_ resolver: any Resolver) throws(FrostError) -> T {
        do {
            let instance: T
            if let closure {
                instance = try closure(resolver)
            } else if let autowired {
                instance = try autowired(resolver, slots)
            } else {
                throw FrostError(
                    .argumentMismatch,
                    key: key,
                    detail: "it is registered with arguments \(describeArguments()); resolve it "
                        + "with resolve(_:argument:) or resolve(_:arguments:)"
                )
            }
            return finishes ? try finish(instance, resolver) : instance
        } catch let error as FrostError {
            throw error
        } catch {
            throw FrostError(.factoryFailed, key: key, underlying: error)
        }
    }

    /// Makes an instance from runtime arguments: `arguments` points to a tuple of `type`.
    func make(
        _ resolver: any Resolver,
        arguments: UnsafeRawPointer,
        type: Any.Type
    ) throws(FrostError) -> T {
        guard let withArguments, let expectedArguments else {
            throw FrostError(
                .argumentMismatch,
                key: key,
                detail: "it takes no runtime arguments, but was resolved with "
                    + String(reflecting: type)
            )
        }
        guard ObjectIdentifier(expectedArguments) == ObjectIdentifier(type) else {
            throw FrostError(
                .argumentMismatch,
                key: key,
                detail: "it takes arguments \(describeArguments()), but was resolved with "
                    + String(reflecting: type)
            )
        }
        do {
            let instance = try withArguments(resolver, arguments)
            return finishes ? try finish(instance, resolver) : instance
        } catch let error as FrostError {
            throw error
        } catch {
            throw FrostError(.factoryFailed, key: key, underlying: error)
        }
    }

    /// Property injection (wrappers, then key paths), then `onCreate` hooks: once per created
    /// instance.
    private func finish(_ instance: T, _ resolver: any Resolver) throws -> T {
        if let wrapperPlan {
            let object = instance as AnyObject
            let dynamicType: AnyClass = type(of: object)
            let plan =
                dynamicType == (T.self as? AnyClass) ? wrapperPlan : InjectionPlan.of(dynamicType)
            let root = (resolver as? any ResolutionRoot)?.root ?? resolver
            try plan.inject(into: object, resolver: resolver, root: root)
        }
        try injection?(resolver, instance)
        try hook?(resolver, instance)
        return instance
    }

    private func describeArguments() -> String {
        argumentType.map { String(reflecting: $0) } ?? "()"
    }

    override func makeBox(_ resolver: any Resolver) throws(FrostError) -> AnyObject {
        Box(try make(resolver))
    }

    override func with(scope: Scope) -> Component {
        copy(scope: scope)
    }

    override func bound(to slot: (RegistrationKey) -> UInt32) -> Component {
        guard let autowired, let autowiredBound else { return self }
        let slots = dependencies.map { $0.deferred ? UInt32.max : slot($0.key) }
        return copy(factory: .autowired(autowired, bound: autowiredBound, slots: slots))
    }

    /// This component with some parts replaced.
    func copy(
        scope: Scope? = nil,
        dependencies: [Dependency]? = nil,
        factory: Factory? = nil,
        addingInjection: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        addingHook: (@Sendable (any Resolver, T) throws -> Void)? = nil
    ) -> TypedComponent<T> {
        TypedComponent(
            key: key,
            scope: scope ?? self.scope,
            instance: instance.map { unsafeDowncast($0, to: Box<T>.self) },
            forwardsTo: forwardsTo,
            dependencies: dependencies ?? self.dependencies,
            factory: factory ?? self.factory,
            injection: Self.then(injection, addingInjection),
            hook: Self.then(hook, addingHook)
        )
    }

    /// `first`, then `second`: either may be missing.
    private static func then(
        _ first: (@Sendable (any Resolver, T) throws -> Void)?,
        _ second: (@Sendable (any Resolver, T) throws -> Void)?
    ) -> (@Sendable (any Resolver, T) throws -> Void)? {
        guard let first else { return second }
        guard let second else { return first }
        return { resolver, instance in
            try first(resolver, instance)
            try second(resolver, instance)
        }
    }
}
