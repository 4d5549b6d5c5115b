/// A component whose instances are `T`s.
///
/// The resolve path mostly runs unspecialized for `T` (it is reached through a type-erased
/// slot; only a creation at the top of a frozen resolve, and an autowired graph's bound
/// creation, are specialized, in the caller: ``_BoundParameters``), so it
/// touches only what has a layout independent of `T`: optional closures and flags. An
/// array of closures or a generic enum would make the runtime look up their metadata on every
/// resolve (measured: about 850 instructions for two empty arrays).
///
/// Making an instance has two steps: **construct** (the factory) and **finish** (inject the
/// `@Injected` properties, then the `.inject` key paths, then run the `onCreate` hooks). The
/// engine shows a cached or `.graph` instance to its own resolve between the two, so that
/// objects that point at each other through injected properties resolve.
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
        /// A forward (`.implements`, alias): resolves the registration it forwards to, without
        /// runtime arguments or with the ones given (pointer and tuple type), and casts.
        case forward(
            @Sendable (any Resolver) throws -> T,
            arguments: @Sendable (any Resolver, UnsafeRawPointer, Any.Type) throws -> T
        )
        /// An async closure (or an actor-isolated one, made async): only an awaited resolve
        /// runs it.
        case async(@Sendable (any Resolver) async throws -> T)
    }

    /// An `.onDispose` hook, as the builder gave it.
    enum DisposeHook {
        case sync(@Sendable (T) -> Void)
        case async(@Sendable (T) async -> Void)
    }

    private let closure: (@Sendable (any Resolver) throws -> T)?
    private let autowired: (@Sendable (any Resolver, [UInt32]?) throws -> T)?
    /// The autowired initializer reading its parameters through ``_BoundParameters``: called
    /// by `_BoundParameters.make`, which is specialized in the caller (hence visible there).
    @usableFromInline let autowiredBound: (@Sendable (_BoundParameters) throws -> T)?
    /// The closure factory, when a frozen container's resolve can call it directly
    /// (``_BoundParameters/makeAtRoot(_:as:)``): nothing to run after it but a dynamic-type
    /// check, not a registered instance.
    @usableFromInline let directClosure: (@Sendable (any Resolver) throws -> T)?
    /// The factory with arguments, when a frozen container's resolve can call it directly
    /// (``_BoundParameters/makeAtRoot(_:arguments:argumentType:as:)``), and the argument tuple
    /// type it takes: nothing to run after it but a dynamic-type check.
    @usableFromInline let directWithArguments:
        (call: @Sendable (any Resolver, UnsafeRawPointer) throws -> T, type: Any.Type)?
    /// `Box<T>`, looked up once: this code is not specialized, and looking the generic type
    /// up on each creation costs more than the creation.
    private let boxType: Box<T>.Type
    private let slots: [UInt32]?
    private let withArguments: (@Sendable (any Resolver, UnsafeRawPointer) throws -> T)?
    private let expectedArguments: Any.Type?
    private let forwardWithArguments:
        (@Sendable (any Resolver, UnsafeRawPointer, Any.Type) throws -> T)?
    private let asyncClosure: (@Sendable (any Resolver) async throws -> T)?
    /// Applied to each new instance: property injections (in the order added), then
    /// `onCreate` hooks (in the order added). Composed closures, not arrays: see above.
    let injection: (@Sendable (any Resolver, T) throws -> Void)?
    let hook: (@Sendable (any Resolver, T) throws -> Void)?
    /// `.onDispose` hooks, in the order added; `nil` when there are none (this code is not
    /// specialized: even an empty array of a generic enum costs a metadata lookup, on every
    /// registration and every copy of one).
    let disposeHooks: [DisposeHook]?
    /// The `@Injected`/`@LazyInjected` properties of the instances, by their class; `nil`
    /// when `T` cannot hold a class instance (a struct, an enum).
    let wrappers: WrapperPlans?
    /// How the bound path finds an instance's class, to see whether it is another class than
    /// `T` (whose wrappers then need injecting): 0, never (`T` holds no class instance); 1,
    /// `T` is a class; 2, `T` is an existential. A stored flag: reading `wrappers` there would
    /// retain it on every creation.
    @usableFromInline let dynamicTypeCheck: UInt8
    /// Whether anything runs after the factory for every instance: key paths, hooks, or the
    /// wrappers of `T` itself.
    private let finishesAlways: Bool

    init(
        key: RegistrationKey,
        scope: Scope,
        instance: Box<T>? = nil,
        forwardsTo: RegistrationKey? = nil,
        dependencies: [Dependency] = [],
        factory: Factory,
        injection: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        hook: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        disposeHooks: [DisposeHook]? = nil,
        wrappers: WrapperPlans? = nil,
        dependencySlots: [UInt32] = []
    ) {
        boxType = Box<T>.self
        var slots: [UInt32]?
        var asyncClosure: (@Sendable (any Resolver) async throws -> T)?
        switch factory {
        case .closure(let make):
            (closure, autowired, autowiredBound) = (make, nil, nil)
            (withArguments, expectedArguments, forwardWithArguments) = (nil, nil, nil)
        case .autowired(let make, let bound, let bindings):
            (closure, autowired, autowiredBound) = (nil, make, bound)
            (withArguments, expectedArguments, forwardWithArguments) = (nil, nil, nil)
            slots = bindings
        case .arguments(let make, let type):
            (closure, autowired, autowiredBound) = (nil, nil, nil)
            (withArguments, expectedArguments, forwardWithArguments) = (make, type, nil)
        case .forward(let make, let arguments):
            (closure, autowired, autowiredBound) = (make, nil, nil)
            (withArguments, expectedArguments, forwardWithArguments) = (nil, nil, arguments)
        case .async(let make):
            (closure, autowired, autowiredBound) = (nil, nil, nil)
            (withArguments, expectedArguments, forwardWithArguments) = (nil, nil, nil)
            asyncClosure = make
        }
        self.asyncClosure = asyncClosure
        self.slots = slots
        self.injection = injection
        self.hook = hook
        self.disposeHooks = disposeHooks
        // A registered instance is the application's: Frost never injects into it.
        let wrappers = instance == nil ? (wrappers ?? WrapperPlans.of(T.self)) : nil
        self.wrappers = wrappers
        dynamicTypeCheck = wrappers.map { $0.isExistential ? 2 : 1 } ?? 0
        finishesAlways = wrappers?.staticPlan != nil || injection != nil || hook != nil
        directClosure = finishesAlways || instance != nil ? nil : closure
        directWithArguments = Self.direct(withArguments, expectedArguments, finishesAlways)
        var disposal: Disposal.Hooks?
        if let disposeHooks {
            disposal = Self.disposal(disposeHooks, weak: scope.kind == .weak && instance == nil)
        }
        super.init(
            key: key,
            scope: scope,
            instance: instance,
            forwardsTo: forwardsTo,
            dependencies: dependencies,
            boundSlots: Self.boundSlots(slots, finishesAlways: finishesAlways, instance: instance),
            makesByClosureDirectly: directClosure != nil,
            takesArgumentsDirectly: directWithArguments != nil,
            isAsync: asyncClosure != nil,
            dependencySlots: dependencySlots,
            disposal: disposal
        )
    }

    /// A copy of `other` with some parts replaced (what ``copy(scope:dependencies:slots:addingInjection:addingHook:dependencySlots:)``
    /// makes). Every other field is taken over as it is: this code is not specialized, and
    /// the designated initializer's switch over a ``Factory`` and its optionals of `T`'s types
    /// cost a generic metadata lookup each, on every registration's `.scope` and every binding
    /// at freeze.
    private init(
        copying other: TypedComponent<T>,
        scope: Scope,
        dependencies: [Dependency],
        slots: [UInt32]?,
        injection: (@Sendable (any Resolver, T) throws -> Void)?,
        hook: (@Sendable (any Resolver, T) throws -> Void)?,
        disposeHooks: [DisposeHook]?,
        dependencySlots: [UInt32]
    ) {
        boxType = other.boxType
        closure = other.closure
        autowired = other.autowired
        autowiredBound = other.autowiredBound
        self.slots = slots
        withArguments = other.withArguments
        expectedArguments = other.expectedArguments
        forwardWithArguments = other.forwardWithArguments
        asyncClosure = other.asyncClosure
        self.injection = injection
        self.hook = hook
        self.disposeHooks = disposeHooks
        wrappers = other.wrappers
        dynamicTypeCheck = other.dynamicTypeCheck
        finishesAlways = other.wrappers?.staticPlan != nil || injection != nil || hook != nil
        directClosure = finishesAlways || other.instance != nil ? nil : other.closure
        directWithArguments = Self.direct(
            other.withArguments, other.expectedArguments, finishesAlways)
        let weak = scope.kind == .weak && other.instance == nil
        var disposal = other.disposal
        if let disposeHooks,
            disposeHooks.count != other.disposeHooks?.count || weak != (other.kind == .weak)
        {
            disposal = Self.disposal(disposeHooks, weak: weak)
        }
        super.init(
            key: other.key,
            scope: scope,
            instance: other.instance,
            forwardsTo: other.forwardsTo,
            dependencies: dependencies,
            boundSlots: Self.boundSlots(
                slots, finishesAlways: finishesAlways, instance: other.instance),
            makesByClosureDirectly: directClosure != nil,
            takesArgumentsDirectly: directWithArguments != nil,
            isAsync: other.isAsync,
            dependencySlots: dependencySlots,
            disposal: disposal
        )
    }

    /// A factory with arguments and its tuple type, when nothing runs after it but a
    /// dynamic-type check (a registration with arguments is never an instance).
    private static func direct(
        _ withArguments: (@Sendable (any Resolver, UnsafeRawPointer) throws -> T)?,
        _ type: Any.Type?,
        _ finishesAlways: Bool
    ) -> (call: @Sendable (any Resolver, UnsafeRawPointer) throws -> T, type: Any.Type)? {
        guard let withArguments, let type, !finishesAlways else { return nil }
        return (withArguments, type)
    }

    /// The bound slots of an autowired factory (owned by the component: freed in `deinit`),
    /// when a frozen container can create its instances through them: every parameter bound,
    /// nothing to run after the initializer, not a registered instance.
    private static func boundSlots(
        _ slots: [UInt32]?, finishesAlways: Bool, instance: AnyObject?
    ) -> UnsafePointer<UInt32>? {
        guard let slots, !finishesAlways, instance == nil, !slots.contains(.max) else {
            return nil
        }
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: max(slots.count, 1))
        storage.initialize(from: slots, count: slots.count)
        return UnsafePointer(storage)
    }

    override var argumentType: Any.Type? { expectedArguments }

    override var finishes: Bool { finishesAlways || wrappers != nil }

    // MARK: Making instances

    /// Makes an instance: construct, then finish. Errors are the factory's and the finishing
    /// steps'; the engine wraps them with the path.
    func make(_ resolver: any Resolver) throws -> T {
        let instance = try construct(resolver)
        if finishesAlways || wrappers?.plan(for: instance) != nil {
            try finish(instance, resolver)
        }
        return instance
    }

    /// Runs the factory.
    func construct(_ resolver: any Resolver) throws -> T {
        if let closure { return try closure(resolver) }
        if let autowired { return try autowired(resolver, slots) }
        if asyncClosure != nil { throw Engine.asyncRequired(self) }
        throw FrostError(
            .argumentMismatch,
            key: key,
            detail: "it is registered with arguments \(describeArguments()); resolve it "
                + "with resolve(_:argument:) or resolve(_:arguments:)"
        )
    }

    /// Makes an instance from runtime arguments: `arguments` points to a tuple of `type`.
    func make(
        _ resolver: any Resolver,
        arguments: UnsafeRawPointer,
        type: Any.Type
    ) throws -> T {
        let instance: T
        if let forwardWithArguments {
            instance = try forwardWithArguments(resolver, arguments, type)
        } else {
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
            instance = try withArguments(resolver, arguments)
        }
        if finishesAlways || wrappers?.plan(for: instance) != nil {
            try finish(instance, resolver)
        }
        return instance
    }

    /// Property injection (wrappers, then key paths), then `onCreate` hooks: once per created
    /// instance.
    func finish(_ instance: T, _ resolver: any Resolver) throws {
        if let wrappers, let plan = wrappers.plan(for: instance) {
            try plan.inject(into: instance as AnyObject, resolver: resolver)
        }
        try injection?(resolver, instance)
        try hook?(resolver, instance)
    }

    private func describeArguments() -> String {
        argumentType.map { String(reflecting: $0) } ?? "()"
    }

    // MARK: Type-erased operations

    override func constructBox(_ resolver: any Resolver) throws -> AnyObject {
        boxType.init(try construct(resolver))
    }

    override func value(ofBox box: AnyObject) -> Any {
        unsafeDowncast(box, to: Box<T>.self).value
    }

    override func constructBoxAsync(_ resolver: any Resolver) async throws -> AnyObject {
        guard let asyncClosure else { return try constructBox(resolver) }
        return boxType.init(try await asyncClosure(resolver))
    }

    override func constructObject(_ resolver: any Resolver) throws -> AnyObject {
        try construct(resolver) as AnyObject
    }

    override func finishBox(_ box: AnyObject, _ resolver: any Resolver) throws {
        try finish(unsafeDowncast(box, to: Box<T>.self).value, resolver)
    }

    override func finishObject(_ object: AnyObject, _ resolver: any Resolver) throws {
        guard let instance = object as? T else { return }
        try finish(instance, resolver)
    }

    /// `hooks` run on what the engine tracks: a `.weak` registration's instance in a
    /// `WeakBox` (`weak`), any other one in its `Box`.
    private static func disposal(_ hooks: [DisposeHook], weak: Bool) -> Disposal.Hooks? {
        guard !hooks.isEmpty else { return nil }
        @Sendable func value(_ instance: AnyObject) -> T? {
            guard weak else { return unsafeDowncast(instance, to: Box<T>.self).value }
            return unsafeDowncast(instance, to: WeakBox.self).object as? T
        }
        var syncHooks: [@Sendable (T) -> Void] = []
        for hook in hooks {
            guard case .sync(let run) = hook else {
                syncHooks = []
                break
            }
            syncHooks.append(run)
        }
        var sync: (@Sendable (AnyObject) -> Void)?
        if syncHooks.count == hooks.count {
            // Composed here, so that running them (on every disposal of a tracked instance)
            // asks the runtime for no metadata: not `T?`'s, not the hooks' function type's.
            let run: @Sendable (T) -> Void
            if syncHooks.count == 1 {
                run = syncHooks[0]
            } else {
                run = { [syncHooks] value in
                    for hook in syncHooks { hook(value) }
                }
            }
            if weak {
                sync = { instance in
                    if let value = unsafeDowncast(instance, to: WeakBox.self).object as? T {
                        run(value)
                    }
                }
            } else {
                sync = { instance in run(unsafeDowncast(instance, to: Box<T>.self).value) }
            }
        }
        let async: @Sendable (AnyObject) async -> Void = { instance in
            guard let value = value(instance) else { return }
            for hook in hooks {
                switch hook {
                case .sync(let run): run(value)
                case .async(let run): await run(value)
                }
            }
        }
        return Disposal.Hooks(sync: sync, async: async)
    }

    override func with(scope: Scope) -> Component {
        copy(scope: scope)
    }

    override func bound(to slot: (RegistrationKey) -> UInt32) -> Component {
        // An autowired initializer without parameters is bound too (to no slots): the frozen
        // container then creates it directly, as it does one with parameters.
        guard !dependencies.isEmpty || autowired != nil else { return self }
        // A deferred parameter (Lazy, Provider) and an optional one resolve by their type.
        let slots = dependencies.map { $0.deferred || $0.optional ? UInt32.max : slot($0.key) }
        guard autowired != nil else { return copy(dependencySlots: slots) }
        return copy(slots: slots, dependencySlots: slots)
    }

    /// This component with some parts replaced.
    ///
    /// - Parameter slots: For an autowired factory, the slots freeze bound its parameters to.
    func copy(
        scope: Scope? = nil,
        dependencies: [Dependency]? = nil,
        slots: [UInt32]? = nil,
        addingInjection: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        addingHook: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        dependencySlots: [UInt32]? = nil
    ) -> TypedComponent<T> {
        TypedComponent(
            copying: self,
            scope: scope ?? self.scope,
            dependencies: dependencies ?? self.dependencies,
            slots: slots ?? self.slots,
            injection: Self.then(injection, addingInjection),
            hook: Self.then(hook, addingHook),
            disposeHooks: disposeHooks,
            dependencySlots: dependencySlots ?? self.dependencySlots
        )
    }

    /// This component with `hook` run after the ones it has (`.onDispose`). Apart from
    /// ``copy(scope:dependencies:slots:addingInjection:addingHook:dependencySlots:)``: an
    /// optional hook parameter there would cost every copy the metadata of `DisposeHook?`.
    func adding(disposeHook hook: DisposeHook) -> TypedComponent<T> {
        TypedComponent(
            copying: self, scope: scope, dependencies: dependencies, slots: slots,
            injection: injection, hook: self.hook, disposeHooks: (disposeHooks ?? []) + [hook],
            dependencySlots: dependencySlots)
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
