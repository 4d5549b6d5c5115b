/// The resolve the calling thread is running: the components it is creating, outermost first
/// (a CFrost context, one per thread, made on the thread's first resolve; its C side, which
/// cells are claimed and read for, is in Cell.swift; its path and state are ``ResolvePath``).
///
/// Every creation enters its component here and leaves it afterwards, so the path is exact at
/// every moment, without redoing anything:
/// - meeting a component already on the path is a cycle, named with its members;
/// - past ``Resolver/maximumDepth`` levels, or near the end of the thread's stack, the resolve
///   stops with `.depthLimit` (Frost's recursion never overflows the stack);
/// - a resolve started while another runs on the same thread (a `Lazy` read in a factory, a
///   resolver kept by a factory) continues that path: the same cycle is found wherever it
///   closes;
/// - errors name the path at the moment they are thrown.
struct ResolveContext {
    /// The CFrost context's address.
    let opaque: UnsafeMutableRawPointer

    /// The context at `opaque` (``Frame`` carries it that way).
    init(opaque: UnsafeMutableRawPointer) {
        self.opaque = opaque
    }

    /// The calling thread's context.
    @inline(__always)
    static var current: ResolveContext {
        let context = ResolveContext(opaque: currentAddress)
        if context.fields.pointee.entries == nil { context.makePath() }
        return context
    }

    /// Runs a synchronous top-level resolve: on the thread's context, or, when the calling
    /// task runs an async factory whose context is free, continuing that factory's resolve (a
    /// `Lazy` read in it, a synchronous `resolve` it calls; ``AwaitedResolve``).
    @inline(__always)
    static func continuing<R>(_ body: (ResolveContext) throws(FrostError) -> R)
        throws(FrostError) -> R
    {
        let thread = current
        guard thread.depth == 0, asyncFactoriesRun else {
            return try body(thread)
        }
        return try AwaitedResolve.continuingFrame(thread, body)
    }

    /// This context's path and state: the facade's fields at the start of the C context.
    var fields: UnsafeMutablePointer<ResolvePath> {
        opaque.assumingMemoryBound(to: ResolvePath.self)
    }

    /// Allocates the path of a context used for the first time (never freed: the context is
    /// reused by other threads and resolves).
    @inline(never)
    func makePath() {
        Self.checkFacadeLayout
        // Before a path is used: a thread that ends gives its context back emptied.
        Self.installFacadeRelease
        fields.pointee.entries = UnsafeMutablePointer<UInt>.allocate(capacity: ResolvePath.capacity)
    }

    /// How many components the resolve is creating right now (0: none, the next creation is a
    /// top-level one).
    var depth: Int { Int(fields.pointee.depth) }

    // MARK: Entering and leaving

    /// Enters the component at `address`: the resolve is now creating it, one level deeper.
    /// Works on the address alone (no retain); the component is read only to name an error.
    ///
    /// - Throws: `.cycle` when the resolve is already creating the component; `.depthLimit`
    ///   past ``Resolver/maximumDepth`` levels or when the thread's stack is nearly used up.
    @inline(__always)
    func enter(_ address: UnsafeRawPointer) throws(FrostError) {
        let depth = Int(fields.pointee.depth)
        guard depth < Self.maximumDepth, stackHasRoom else {
            throw depthLimit(at: address)
        }
        // Entries are component addresses, compared as numbers; the path holds
        // ResolvePath.capacity > maximumDepth of them.
        let path = fields.pointee.entries.unsafelyUnwrapped
        let component = UInt(bitPattern: address)
        for index in 0..<depth where path[index] == component {
            throw cycle(closedBy: Self.key(of: address))
        }
        path[depth] = component
        fields.pointee.depth = UInt32(depth + 1)
    }

    /// Enters `component` (see ``enter(_:)-(UnsafeRawPointer)``).
    @inline(__always)
    func enter(_ component: Component) throws(FrostError) {
        try enter(UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()))
    }

    /// Leaves the component entered last. At the end of a top-level resolve, what it kept for
    /// itself (its `.graph` instances) is dropped.
    @inline(__always)
    func leave() {
        let depth = fields.pointee.depth - 1
        fields.pointee.depth = depth
        if depth == 0, fields.pointee.statePending != 0 { resolveEnded() }
    }

    /// The end of a top-level resolve that kept something for itself: drops it.
    @inline(never)
    func resolveEnded() {
        fields.pointee.statePending = 0
        if let state = fields.pointee.state {
            Unmanaged<ThreadState>.fromOpaque(state)._withUnsafeGuaranteedRef {
                $0.resolveEnded()
            }
        }
    }

    /// Runs `body` with `component` entered (see ``enter(_:)-(Component)``). An error that is
    /// not a ``FrostError`` becomes `.factoryFailed` with the path that led to `component`.
    @inline(__always)
    func entering<R>(
        _ component: Component,
        _ body: () throws -> R
    ) throws(FrostError) -> R {
        try enter(component)
        defer { leave() }
        do {
            return try body()
        } catch {
            throw failure(error, in: component)
        }
    }

    /// Runs `body`, the resolve of the forward `component` (`.implements`, an alias), with the
    /// forward on the path as a passage, not a creation: an error's path names it, but
    /// meeting it again is no cycle (a forward resolved while its instance is being finished
    /// is that instance); a real cycle closes at the registration it forwards to. Its entry is
    /// the component's address with bit 0 set, which no creation's entry equals.
    func passing<R>(
        _ component: Component, _ body: () throws(FrostError) -> R
    ) throws(FrostError) -> R {
        try enterPassage(component)
        defer { leave() }
        return try body()
    }

    /// Enters `component` as a passage (see ``passing(_:_:)``): named in an error's path and
    /// counted in the depth, but never a cycle, and never a construction that a put-off finish
    /// waits for. Leave it with ``leave()``. (The awaited walk that makes what a synchronous
    /// factory needs passes through the registrations on the way this way: it constructs
    /// none of them.)
    func enterPassage(_ component: Component) throws(FrostError) {
        let depth = Int(fields.pointee.depth)
        guard depth < Self.maximumDepth else {
            throw depthLimit(at: UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()))
        }
        fields.pointee.entries.unsafelyUnwrapped[depth] =
            UInt(bitPattern: Unmanaged.passUnretained(component).toOpaque()) | Self.passage
        fields.pointee.depth = UInt32(depth + 1)
    }

    /// The bit that marks a forward's entry in the path (``passing(_:_:)``).
    static var passage: UInt { 1 }

    /// The component of path entry `entry`, a creation's or a forward's.
    static func component(ofEntry entry: UInt) -> Unmanaged<Component> {
        Unmanaged<Component>.fromOpaque(UnsafeRawPointer(bitPattern: entry & ~passage)!)
    }

    /// Whether the resolve is creating `component` now (it is on the path).
    func isEntered(_ component: Component) -> Bool {
        let address = UInt(bitPattern: Unmanaged.passUnretained(component).toOpaque())
        let path = fields.pointee.entries.unsafelyUnwrapped
        return (0..<depth).contains { path[$0] == address }
    }

    /// The key of the component at `address`, for a message.
    private static func key(of address: UnsafeRawPointer) -> RegistrationKey {
        Unmanaged<Component>.fromOpaque(address).takeUnretainedValue().key
    }

    // MARK: The path, for errors

    /// The keys of the components being created, outermost first.
    var pathKeys: [RegistrationKey] {
        let path = fields.pointee.entries.unsafelyUnwrapped
        return (0..<depth).map { index in
            Self.component(ofEntry: path[index]).takeUnretainedValue().key
        }
    }

    /// The keys of the path, with `component` after them: for an error about it, before it is
    /// entered (none at the top of a resolve).
    func path(to component: Component) -> [RegistrationKey] {
        depth > 0 ? pathKeys + [component.key] : []
    }

    /// What `error`, thrown while creating `component` (entered last), becomes: a
    /// ``FrostError`` as it is (it names its own path), anything else `.factoryFailed` with
    /// the path to `component`.
    func failure(_ error: any Error, in component: Component) -> FrostError {
        if let error = error as? FrostError { return error }
        return FrostError(.factoryFailed, key: component.key, path: pathKeys, underlying: error)
    }

    /// The error of meeting `key` again while creating it.
    @inline(never)
    func cycle(closedBy key: RegistrationKey) -> FrostError {
        FrostError(.cycle, key: key, path: pathKeys + [key])
    }

    /// The error of nesting deeper than the resolve may.
    @inline(never)
    func depthLimit(at address: UnsafeRawPointer) -> FrostError {
        let component = Unmanaged<Component>.fromOpaque(address).takeUnretainedValue()
        let reason =
            depth >= Self.maximumDepth
            ? "the resolve nested \(depth) factories, the most Frost allows (maximumDepth)"
            : "the thread's stack is nearly used up after \(depth) nested factories"
        return FrostError(
            .depthLimit, key: component.key, path: pathKeys + [component.key], detail: reason)
    }

    /// How deep a resolve may nest factories: ``Resolver/maximumDepth``.
    static var maximumDepth: Int { ResolvePath.maximumDepth }

    // MARK: The thread's state

    /// The calling thread's state, if it was ever made (for a check that must not make it).
    var stateIfAny: ThreadState? {
        fields.pointee.state.map { Unmanaged<ThreadState>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The calling thread's `.graph` instances and provisional instances, made on first use.
    /// Whoever adds a `.graph` instance calls ``keepUntilTheResolveEnds()``.
    var state: ThreadState {
        if let state = fields.pointee.state {
            return Unmanaged<ThreadState>.fromOpaque(state).takeUnretainedValue()
        }
        let state = ThreadState()
        fields.pointee.state = Unmanaged.passRetained(state).toOpaque()
        return state
    }

    /// Tells the end of the current top-level resolve to drop the state's `.graph` instances.
    func keepUntilTheResolveEnds() {
        fields.pointee.statePending = 1
    }

    /// Empties the path and state of the context whose facade fields are at `fields` (its
    /// thread ended, or its async resolve gave it back): the state is released.
    static func emptyFields(_ fields: UnsafeMutablePointer<ResolvePath>) {
        fields.pointee.depth = 0
        fields.pointee.statePending = 0
        if let state = fields.pointee.state {
            fields.pointee.state = nil
            Unmanaged<ThreadState>.fromOpaque(state).release()  // may run deinits
        }
    }
}

/// The facade's own fields of a CFrost context (its `facade` words, at the context's start):
/// the resolve's path and the thread's state. Laid out here; ``Frame``'s inlined code reads them
/// through a typed pointer. CFrost zeroes them when it makes a context and never reads them;
/// a test checks that they fit (`FROST_CONTEXT_FACADE_WORDS`).
@usableFromInline
struct ResolvePath {
    /// The addresses of the components being created, outermost first (``capacity`` entries,
    /// made on the context's first use), or `nil` before.
    @usableFromInline var entries: UnsafeMutablePointer<UInt>?
    /// The number of entries in use.
    @usableFromInline var depth: UInt32
    /// Nonzero while `state` holds something the end of the current resolve must drop.
    @usableFromInline var statePending: UInt32
    /// The context's ``ThreadState`` (an owned reference), or `nil`.
    var state: UnsafeMutableRawPointer?

    /// How deep a resolve may nest factories (below ``capacity``).
    @inlinable static var maximumDepth: Int { 1_000 }
    /// The entries a path holds.
    static var capacity: Int { 1_024 }
}

/// What the calling thread's resolve keeps besides its path: `.graph` instances (one per
/// top-level resolve) and instances made but not yet finished (their properties are being
/// injected), which a re-entry of the same registration gets instead of a cycle.
///
/// Only its thread touches it; CFrost drops it when the thread ends.
final class ThreadState {
    // Only this thread touches it: no dynamic exclusivity checks.
    /// `.graph` instances of the current top-level resolve, boxed, by registration and the
    /// container it was resolved in.
    @exclusivity(unchecked) var graphInstances: [GraphKey: AnyObject] = [:]
    /// Boxes made and being finished (property injection, `onCreate`), by cell.
    @exclusivity(unchecked) var provisional: [(cell: UnsafeMutableRawPointer, box: AnyObject)] =
        []
    /// Finishes put off until an instance they need exists (``DeferredFinish``), oldest first.
    @exclusivity(unchecked) var deferred: [DeferredFinish] = []
    /// The registrations on the path whose instances are constructed and being finished, not
    /// constructed: what ``ResolveContext/constructingBlocker(finishing:)`` passes over.
    @exclusivity(unchecked) var finishing: [UnsafeRawPointer] = []

    /// The top-level resolve ended: its `.graph` instances go (a finish still put off, which
    /// cannot happen, is abandoned: nothing is left claimed).
    func resolveEnded() {
        if !graphInstances.isEmpty { graphInstances.removeAll() }
        if !deferred.isEmpty {
            for entry in deferred { entry.abandon(in: self) }
            deferred.removeAll()
        }
    }

    /// Drops the provisional box of `cell` this thread shows (the newest, if several).
    func removeProvisional(_ cell: UnsafeMutableRawPointer) {
        if let index = provisional.lastIndex(where: { $0.cell == cell }) {
            provisional.remove(at: index)
        }
    }

    /// The provisional box of `cell`, if this thread is finishing one.
    func provisionalBox(for cell: UnsafeMutableRawPointer) -> AnyObject? {
        provisional.last { $0.cell == cell }?.box
    }
}
