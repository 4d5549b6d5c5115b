import Synchronization

/// A component whose instances are `T`s.
///
/// Most of the engine runs unspecialized for `T` (it reaches a component through a type-erased
/// slot); only a creation at the top of a resolve and an autowired graph's creation through
/// its bound parameters are specialized, in the caller (``Frame``). So this class touches only
/// what has a layout independent of `T`: optional closures and flags. An array of closures or
/// a generic enum would make the runtime look up their metadata on every resolve (measured:
/// about 850 instructions for two empty arrays).
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
        /// An autowired initializer, reading its parameters through a ``Frame`` (from the
        /// slots the container bound them to, or by type).
        case autowired(@Sendable (Frame) throws -> T)
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

    /// The factory, when it is a closure (a forward's included).
    @usableFromInline let closure: (@Sendable (any Resolver) throws -> T)?
    /// The autowired initializer, reading its parameters through a ``Frame``: called by code
    /// specialized in the caller (hence visible there).
    @usableFromInline let autowired: (@Sendable (Frame) throws -> T)?
    /// The factory with arguments and its tuple type.
    @usableFromInline let withArguments:
        (call: @Sendable (any Resolver, UnsafeRawPointer) throws -> T, type: Any.Type)?
    private let forwardWithArguments:
        (@Sendable (any Resolver, UnsafeRawPointer, Any.Type) throws -> T)?
    private let asyncClosure: (@Sendable (any Resolver) async throws -> T)?
    /// Whether an instance is kept as itself (`T` is a class), not in a `Box<T>`
    /// (``_keep(_:)``).
    private let keptAsItself: Bool
    /// `Box<T>`'s metadata, looked up on the first creation that keeps one (this code is not
    /// specialized, and looking the generic type up on each creation costs more than the
    /// creation), not when registering: a new process pays for a generic type's metadata
    /// the first time it is named, and most registrations never keep a value.
    private let boxMetadata = Atomic<UInt>(0)
    /// Applied to each new instance: an `@Injectable` type's members injector, the `.inject`
    /// key paths (in the order added), then `onCreate` hooks (in the order added). Composed
    /// closures, not arrays: see above. Called by code specialized in the caller
    /// (``Frame/finish(_:of:)``), hence visible there.
    @usableFromInline let injection: (@Sendable (any Resolver, T) throws -> Void)?
    /// The key paths, resolving through a resolver: for the engine's creations.
    @usableFromInline let keyPaths: (@Sendable (any Resolver, T) throws -> Void)?
    /// The same key paths, resolving through a frame of this component (each property's
    /// dependency read from the slot it is bound to): for a creation through a ``Frame``. The
    /// instance is passed by its address (a `T`), which code specialized for `T` loads: a
    /// conversion to `AnyObject` in code generic over `T` bridges it, through dynamic casts.
    @usableFromInline let keyPathsInFrame: FramedInjection?
    @usableFromInline let hook: (@Sendable (any Resolver, T) throws -> Void)?
    /// `.onDispose` hooks, in the order added; `nil` when there are none (an empty array of a
    /// generic enum costs a metadata lookup, on every registration and every copy of one).
    let disposeHooks: [DisposeHook]?
    /// The `@Injected`/`@LazyInjected` properties of the instances, by their class; `nil`
    /// when `T` cannot hold a class instance (a struct, an enum), or for a registered instance.
    let wrappers: WrapperPlans?
    /// How code specialized for `T` finds whether a new instance needs finishing: 0, only if
    /// ``finishesAlways``; 1, also when its class is not `T` (`T` is a class); 2, always ask
    /// the wrappers (`T` is an existential). A stored flag: reading `wrappers` there would
    /// retain it on every creation.
    @usableFromInline let dynamicTypeCheck: UInt8
    /// Whether something runs after the factory for every instance: key paths, hooks, or the
    /// wrappers of `T` itself.
    @usableFromInline let finishesAlways: Bool
    /// Whether `T`'s own class has `@Injected`/`@LazyInjected` properties (an instance of
    /// exactly `T` is then finished through the wrappers' plan).
    @usableFromInline let hasOwnWrappers: Bool

    convenience init(
        key: RegistrationKey,
        scope: Scope,
        instance: AnyObject? = nil,
        forwardsTo: RegistrationKey? = nil,
        dependencies: [Dependency] = [],
        factory: Factory,
        membersInjector: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        keptAsItself: Bool = _keptAsItself(T.self)
    ) {
        var closure: (@Sendable (any Resolver) throws -> T)?
        var autowired: (@Sendable (Frame) throws -> T)?
        var withArguments:
            (call: @Sendable (any Resolver, UnsafeRawPointer) throws -> T, type: Any.Type)?
        var forwardWithArguments:
            (@Sendable (any Resolver, UnsafeRawPointer, Any.Type) throws -> T)?
        var asyncClosure: (@Sendable (any Resolver) async throws -> T)?
        switch factory {
        case .closure(let make): closure = make
        case .autowired(let make): autowired = make
        case .arguments(let make, let type): withArguments = (make, type)
        case .forward(let make, let arguments): (closure, forwardWithArguments) = (make, arguments)
        case .async(let make): asyncClosure = make
        }
        // A registered instance is the application's: Frost never injects into it. An
        // `@Injectable` type's members injector fills the wrappers (a subclass's too).
        let wrappers = instance == nil && membersInjector == nil ? WrapperPlans.of(T.self) : nil
        self.init(
            key: key, instance: instance, forwardsTo: forwardsTo, closure: closure,
            autowired: autowired, withArguments: withArguments,
            forwardWithArguments: forwardWithArguments, asyncClosure: asyncClosure,
            keptAsItself: keptAsItself, wrappers: wrappers, scope: scope,
            dependencies: dependencies,
            injection: membersInjector, keyPaths: nil, keyPathsInFrame: nil, hook: nil,
            disposeHooks: nil, isLazy: false, slots: nil, dependencySlots: [], disposal: nil)
    }

    /// The designated initializer: every field given, each as a parameter of its own. Copies
    /// take the unchanged ones over as they are: this code is not specialized, and re-deriving
    /// a field from `T` (a switch over a ``Factory``, optionals of `T`'s types), or a struct
    /// generic over `T` to carry them, costs a generic metadata lookup each (a struct's takes
    /// its fields' too: two or three lookups, about 500 instructions each, per registration).
    private init(
        key: RegistrationKey,
        instance: AnyObject?,
        forwardsTo: RegistrationKey?,
        closure: (@Sendable (any Resolver) throws -> T)?,
        autowired: (@Sendable (Frame) throws -> T)?,
        withArguments: (
            call: @Sendable (any Resolver, UnsafeRawPointer) throws -> T, type: Any.Type
        )?,
        forwardWithArguments: (@Sendable (any Resolver, UnsafeRawPointer, Any.Type) throws -> T)?,
        asyncClosure: (@Sendable (any Resolver) async throws -> T)?,
        keptAsItself: Bool,
        wrappers: WrapperPlans?,
        scope: Scope,
        dependencies: [Dependency],
        injection: (@Sendable (any Resolver, T) throws -> Void)?,
        keyPaths: (@Sendable (any Resolver, T) throws -> Void)?,
        keyPathsInFrame: FramedInjection?,
        hook: (@Sendable (any Resolver, T) throws -> Void)?,
        disposeHooks: [DisposeHook]?,
        isLazy: Bool,
        slots: [UInt32]?,
        dependencySlots: [UInt32],
        disposal: Disposal.Hooks?
    ) {
        self.closure = closure
        self.autowired = autowired
        self.withArguments = withArguments
        self.forwardWithArguments = forwardWithArguments
        self.asyncClosure = asyncClosure
        self.keptAsItself = keptAsItself
        self.injection = injection
        self.keyPaths = keyPaths
        self.keyPathsInFrame = keyPathsInFrame
        self.hook = hook
        self.disposeHooks = disposeHooks
        self.wrappers = wrappers
        dynamicTypeCheck = wrappers.map { $0.isExistential ? 2 : 1 } ?? 0
        hasOwnWrappers = wrappers?.staticPlan != nil
        let finishesAlways =
            hasOwnWrappers || injection != nil || keyPaths != nil || hook != nil
        self.finishesAlways = finishesAlways
        // Instances made with runtime arguments are never kept: the scope is ignored.
        let scope = Self.keptScope(scope, takesArguments: withArguments != nil)
        var disposal = disposal
        if disposal == nil, let hooks = disposeHooks {
            disposal = Self.disposal(hooks, weak: scope.kind.lifetime.keepsWeakly)
        }
        super.init(
            key: key,
            scope: scope,
            instance: instance,
            forwardsTo: forwardsTo,
            dependencies: dependencies,
            isAsync: asyncClosure != nil,
            argumentType: withArguments?.type,
            disposal: disposal,
            isLazy: isLazy,
            // Bound parameters are the declared dependencies' slots (see `copy`).
            dependencySlots: slots ?? dependencySlots,
            framed: slots != nil,
            makesByClosureDirectly: closure != nil || autowired != nil,
            takesArgumentsDirectly: withArguments != nil && !finishesAlways,
            finishes: finishesAlways || wrappers != nil,
            runsCreationHooks: injection != nil || keyPaths != nil || hook != nil,
            typed: TypedComponent<T>.self
        )
    }

    /// A copy with the given fields replaced, the others taken over; `disposal` is kept
    /// unless the hooks change or the lifetime tracks its instances another way.
    private func copy(
        scope: Scope? = nil,
        dependencies: [Dependency]? = nil,
        injection: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        keyPaths: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        keyPathsInFrame: FramedInjection? = nil,
        hook: (@Sendable (any Resolver, T) throws -> Void)? = nil,
        disposeHooks: [DisposeHook]? = nil,
        isLazy: Bool? = nil,
        slots: [UInt32]? = nil,
        dependencySlots: [UInt32]? = nil
    ) -> TypedComponent<T> {
        let scope = scope ?? self.scope
        // A framed component's bound parameters are its declared dependencies' slots.
        let slots = slots ?? (boundSlots != nil ? self.dependencySlots : nil)
        let keepsDisposal =
            disposeHooks == nil
            && scope.kind.lifetime.keepsWeakly == self.scope.kind.lifetime.keepsWeakly
        return TypedComponent(
            key: key, instance: instance, forwardsTo: forwardsTo, closure: closure,
            autowired: autowired, withArguments: withArguments,
            forwardWithArguments: forwardWithArguments, asyncClosure: asyncClosure,
            keptAsItself: keptAsItself, wrappers: wrappers, scope: scope,
            dependencies: dependencies ?? self.dependencies,
            // Closures chosen with `!= nil ?`, not `??`: through the generic `??`, a closure
            // comes out wrapped in two reabstraction thunks that every call then runs.
            injection: injection != nil ? injection : self.injection,
            keyPaths: keyPaths != nil ? keyPaths : self.keyPaths,
            keyPathsInFrame: keyPathsInFrame != nil ? keyPathsInFrame : self.keyPathsInFrame,
            hook: hook != nil ? hook : self.hook,
            disposeHooks: disposeHooks ?? self.disposeHooks, isLazy: isLazy ?? self.isLazy,
            slots: slots, dependencySlots: dependencySlots ?? self.dependencySlots,
            disposal: keepsDisposal ? disposal : nil)
    }

    // MARK: Making instances

    /// Runs the factory, its dependencies resolved in `frame`'s container (an autowired
    /// initializer reads its parameters through a frame of its own).
    @inlinable
    @inline(__always)
    func construct(in frame: Frame) throws -> T {
        // `!` after a check, not `if let`: binding the closure copies (retains) it.
        if autowired != nil { return try autowired!(frame.deeper(for: self)) }
        if closure != nil { return try closure!(frame.resolver) }
        throw cannotConstruct()
    }

    /// Runs the factory, awaiting it when it is async.
    func constructAwaiting(_ resolver: any Resolver) async throws -> T {
        if let asyncClosure { return try await asyncClosure(resolver) }
        if let closure { return try closure(resolver) }
        throw cannotConstruct()
    }

    /// Why this component cannot be made by a plain resolve.
    @usableFromInline
    func cannotConstruct() -> FrostError {
        if asyncClosure != nil {
            return FrostError(.asyncRequired, key: key, path: ResolveContext.current.path(to: self))
        }
        return FrostError(
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
            guard let withArguments else {
                throw FrostError(
                    .argumentMismatch,
                    key: key,
                    detail: "it takes no runtime arguments, but was resolved with "
                        + String(reflecting: type)
                )
            }
            guard ObjectIdentifier(withArguments.type) == ObjectIdentifier(type) else {
                throw FrostError(
                    .argumentMismatch,
                    key: key,
                    detail: "it takes arguments \(describeArguments()), but was resolved with "
                        + String(reflecting: type)
                )
            }
            instance = try withArguments.call(resolver, arguments)
        }
        if needsFinishing(instance) { try finish(instance, resolver) }
        return instance
    }

    /// Whether `instance`, just constructed, needs finishing.
    @inline(__always)
    func needsFinishing(_ instance: T) -> Bool {
        finishesAlways || wrappers?.plan(for: instance) != nil
    }

    /// Property injection (wrappers, then key paths), then `onCreate` hooks: once per created
    /// instance.
    @usableFromInline
    func finish(_ instance: T, _ resolver: any Resolver) throws {
        try finishInOrder(instance, resolver, injectingWrappers: true, in: nil)
    }

    /// The order in which every new instance is finished, written once: its class's
    /// `@Injected` properties (when `injectingWrappers`), the members injector of an
    /// `@Injectable` type, the `.inject` key paths (through `frame`'s bound slots when there is
    /// one, through `resolver` otherwise), then the `onCreate` hooks. ``finish(_:_:)`` and
    /// ``Frame/finish(_:of:)`` (specialized for `T`, when the class has no wrappers) both run it.
    @inlinable
    @inline(__always)
    func finishInOrder(
        _ instance: T, _ resolver: @autoclosure () -> any Resolver, injectingWrappers: Bool,
        in frame: Frame?
    ) throws {
        // `resolver` is made where it is used (a frame's is an existential to retain).
        if injectingWrappers { try injectWrappers(into: instance, resolver()) }
        // `!` after a check, not `if let`: binding a closure copies (retains) it.
        if injection != nil { try injection!(resolver(), instance) }
        if let frame {
            if keyPathsInFrame != nil {
                let deeper = frame.deeper(for: self)
                try withUnsafePointer(to: instance) { instance in
                    try keyPathsInFrame!(deeper, UnsafeRawPointer(instance))
                }
            }
        } else if keyPaths != nil {
            try keyPaths!(resolver(), instance)
        }
        if hook != nil { try hook!(resolver(), instance) }
    }

    /// Injects the `@Injected`/`@LazyInjected` properties of `instance`'s class, if it has any.
    @usableFromInline
    func injectWrappers(into instance: T, _ resolver: any Resolver) throws {
        if let wrappers, let plan = wrappers.plan(for: instance) {
            try plan.inject(into: instance as AnyObject, resolver: resolver)
        }
    }

    private func describeArguments() -> String {
        argumentType.map { String(reflecting: $0) } ?? "()"
    }

    // MARK: Kept instances

    /// What a cell keeps for `instance` (``_keep(_:)``), without asking the runtime about `T`.
    private func keep(_ instance: T) -> AnyObject {
        if keptAsItself { return _keep(instance, in: nil) }
        var metadata = boxMetadata.load(ordering: .acquiring)
        if metadata == 0 {
            // Any thread may store it: every one stores the same pointer.
            metadata = UInt(bitPattern: ObjectIdentifier(Box<T>.self))
            boxMetadata.store(metadata, ordering: .releasing)
        }
        return _keep(instance, in: unsafeBitCast(metadata, to: Box<T>.Type.self))
    }

    /// The instance a kept object holds (``_kept(_:as:)``), without asking the runtime about
    /// `T`.
    private func kept(_ box: AnyObject) -> T {
        _kept(box, as: T.self, itself: keptAsItself)
    }

    // MARK: Disposal

    /// `hooks` run on what the engine tracks: a `.weak` registration's instance in a
    /// `WeakBox` (`weak`), any other one as a cell keeps it (``_keep(_:)``).
    private static func disposal(_ hooks: [DisposeHook], weak: Bool) -> Disposal.Hooks? {
        guard !hooks.isEmpty else { return nil }
        let itself = _keptAsItself(T.self)
        @Sendable func kept(_ instance: AnyObject) -> T {
            _kept(instance, as: T.self, itself: itself)
        }
        @Sendable func value(_ instance: AnyObject) -> T? {
            guard weak else { return kept(instance) }
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
                sync = { instance in run(kept(instance)) }
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

    // MARK: Copies

    /// See ``Component/bound(to:)``.
    func bindSlots(to slot: (RegistrationKey) -> UInt32) -> Component {
        guard !dependencies.isEmpty || autowired != nil else { return self }
        // Written straight into the memory the component keeps: no array in between.
        let slots = Component.allocateSlots(count: dependencies.count)
        for (index, dependency) in dependencies.enumerated() {
            // A deferred dependency (Lazy, Provider) and an optional one resolve by their
            // type.
            slots[index] = dependency.deferred || dependency.optional ? .max : slot(dependency.key)
        }
        // Made through a frame: an autowired initializer reads its parameters from these
        // slots, a closure's instance its key paths' dependencies.
        let framed = autowired != nil || (closure != nil && keyPathsInFrame != nil)
        if bindInPlace(slots, framed: framed) { return self }
        let array = Array(UnsafeBufferPointer(start: slots, count: dependencies.count))
        slots.deallocate()
        return copy(slots: framed ? array : nil, dependencySlots: array)
    }

    /// This component with another scope.
    func copy(scope: Scope) -> TypedComponent<T> {
        copy(scope: scope, dependencies: nil)
    }

    /// This component with another scope: itself, changed in place, when `isUnshared` (its
    /// registration's `Container` alone holds it) and the change keeps its `.onDispose`
    /// tracking (as `copy` keeps `disposal`); a copy otherwise.
    func with(scope: Scope, isUnshared: Bool) -> TypedComponent<T> {
        guard isUnshared,
            disposeHooks == nil
                || scope.kind.lifetime.keepsWeakly == self.scope.kind.lifetime.keepsWeakly
        else { return copy(scope: scope) }
        setScope(
            Self.keptScope(scope, takesArguments: withArguments != nil),
            makesDirectly: closure != nil || autowired != nil)
        return self
    }

    /// The scope a registration keeps its instances in: `scope`, but transient when its
    /// factory takes runtime arguments (instances made with arguments are never kept). What
    /// `init` and ``with(scope:isUnshared:)`` store.
    private static func keptScope(_ scope: Scope, takesArguments: Bool) -> Scope {
        takesArguments ? .transient : scope
    }

    /// This component made lazily by `bootstrap()` (`.lazy()`).
    func lazy() -> TypedComponent<T> {
        copy(isLazy: true)
    }

    /// This component with a key path's `dependency` declared and its injection run after
    /// the ones it has: `injection` resolving through a resolver, and `inFrame(index)`, the
    /// same through a frame of this component, reading the dependency at `index`.
    func adding(
        dependency: Dependency,
        injection: @escaping @Sendable (any Resolver, T) throws -> Void,
        inFrame: (_ index: Int) -> FramedInjection
    ) -> TypedComponent<T> {
        let framed = inFrame(dependencies.count)
        var keyPathsInFrame = framed
        if let first = self.keyPathsInFrame {
            keyPathsInFrame = { frame, instance throws(FrostError) in
                try first(frame, instance)
                try framed(frame, instance)
            }
        }
        return copy(
            dependencies: dependencies + [dependency],
            keyPaths: Self.then(keyPaths, injection), keyPathsInFrame: keyPathsInFrame)
    }

    /// This component with `hook` run after the `onCreate` hooks it has.
    func adding(hook: @escaping @Sendable (any Resolver, T) throws -> Void) -> TypedComponent<T> {
        copy(hook: Self.then(self.hook, hook))
    }

    /// This component with `hook` run after the `.onDispose` hooks it has.
    func adding(disposeHook hook: DisposeHook) -> TypedComponent<T> {
        copy(disposeHooks: (disposeHooks ?? []) + [hook])
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

extension TypedComponent: TypedOperations {
    static func constructBox(of component: Component, in frame: Frame) throws -> AnyObject {
        let component = unsafeDowncast(component, to: Self.self)
        return component.keep(try component.construct(in: frame))
    }

    static func constructBoxAwaiting(of component: Component, _ resolver: any Resolver)
        async throws -> AnyObject
    {
        let component = unsafeDowncast(component, to: Self.self)
        return component.keep(try await component.constructAwaiting(resolver))
    }

    static func constructObject(of component: Component, in frame: Frame) throws -> AnyObject {
        try unsafeDowncast(component, to: Self.self).construct(in: frame) as AnyObject
    }

    static func finishBox(_ box: AnyObject, of component: Component, _ resolver: any Resolver)
        throws
    {
        let component = unsafeDowncast(component, to: Self.self)
        try component.finish(component.kept(box), resolver)
    }

    static func finishObject(
        _ object: AnyObject, of component: Component, _ resolver: any Resolver
    ) throws {
        guard let instance = object as? T else { return }
        try unsafeDowncast(component, to: Self.self).finish(instance, resolver)
    }

    static func finishesBox(_ box: AnyObject, of component: Component) -> Bool {
        let component = unsafeDowncast(component, to: Self.self)
        if component.finishesAlways { return true }
        guard let wrappers = component.wrappers else { return false }
        // A class instance is kept as itself: the box is the instance.
        if component.keptAsItself { return wrappers.plan(forObject: box) != nil }
        return component.needsFinishing(component.kept(box))
    }

    static func value(ofBox box: AnyObject, of component: Component) -> Any {
        unsafeDowncast(component, to: Self.self).kept(box)
    }

    static func isInstance(_ object: AnyObject) -> Bool {
        object is T
    }

    static func bound(_ component: Component, to slot: (RegistrationKey) -> UInt32) -> Component {
        unsafeDowncast(component, to: Self.self).bindSlots(to: slot)
    }

    static func copy(of component: Component, scope: Scope) -> Component {
        unsafeDowncast(component, to: Self.self).copy(scope: scope)
    }
}
