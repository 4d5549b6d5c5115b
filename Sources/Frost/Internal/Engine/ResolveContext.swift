internal import CFrost

/// The resolve the calling thread is running: the components it is creating, outermost first
/// (CFrost's `frost_context`, one per thread, made on the thread's first resolve).
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
    let raw: UnsafeMutablePointer<frost_context>

    init(raw: UnsafeMutablePointer<frost_context>) {
        self.raw = raw
    }

    /// The context behind an opaque pointer (``Frame`` carries it that way).
    init(opaque: UnsafeMutableRawPointer) {
        self.raw = opaque.assumingMemoryBound(to: frost_context.self)
    }

    /// The calling thread's context.
    @inline(__always)
    static var current: ResolveContext {
        ResolveContext(raw: frost_context_current())
    }

    var opaque: UnsafeMutableRawPointer { UnsafeMutableRawPointer(raw) }

    /// How many components the resolve is creating right now (0: none, the next creation is a
    /// top-level one).
    var depth: Int { Int(raw.pointee.depth) }

    // MARK: Entering and leaving

    /// Enters the component at `address`: the resolve is now creating it, one level deeper.
    /// Works on the address alone (no retain); the component is read only to name an error.
    ///
    /// - Throws: `.cycle` when the resolve is already creating the component; `.depthLimit`
    ///   past ``Resolver/maximumDepth`` levels or when the thread's stack is nearly used up.
    @inline(__always)
    func enter(_ address: UnsafeRawPointer) throws(FrostError) {
        let depth = Int(raw.pointee.depth)
        guard depth < Self.maximumDepth, frost_stack_has_room(raw) != 0 else {
            throw depthLimit(at: address)
        }
        // Entries are component addresses, compared as numbers; the path holds
        // FROST_PATH_CAPACITY > maximumDepth of them.
        let path = raw.pointee.path
        let component = UInt(bitPattern: address)
        for index in 0..<depth where path[index] == component {
            throw cycle(closedBy: Self.key(of: address))
        }
        path[depth] = component
        raw.pointee.depth = UInt32(depth + 1)
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
        let depth = raw.pointee.depth - 1
        raw.pointee.depth = depth
        if depth == 0, raw.pointee.state_pending != 0 { resolveEnded() }
    }

    /// The end of a top-level resolve that kept something for itself: drops it.
    @inline(never)
    func resolveEnded() {
        raw.pointee.state_pending = 0
        if let state = raw.pointee.state {
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
        let depth = Int(raw.pointee.depth)
        guard depth < Self.maximumDepth else {
            throw depthLimit(at: UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()))
        }
        raw.pointee.path[depth] =
            UInt(bitPattern: Unmanaged.passUnretained(component).toOpaque()) | Self.passage
        raw.pointee.depth = UInt32(depth + 1)
        defer { leave() }
        return try body()
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
        let path = raw.pointee.path
        return (0..<Int(raw.pointee.depth)).contains { path[$0] == address }
    }

    /// The key of the component at `address`, for a message.
    private static func key(of address: UnsafeRawPointer) -> RegistrationKey {
        Unmanaged<Component>.fromOpaque(address).takeUnretainedValue().key
    }

    // MARK: The path, for errors

    /// The keys of the components being created, outermost first.
    var pathKeys: [RegistrationKey] {
        let depth = Int(raw.pointee.depth)
        let path = raw.pointee.path
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
        let depth = Int(raw.pointee.depth)
        let reason =
            depth >= Self.maximumDepth
            ? "the resolve nested \(depth) factories, the most Frost allows (maximumDepth)"
            : "the thread's stack is nearly used up after \(depth) nested factories"
        return FrostError(
            .depthLimit, key: component.key, path: pathKeys + [component.key], detail: reason)
    }

    /// How deep a resolve may nest factories: ``Resolver/maximumDepth``.
    static var maximumDepth: Int { ContextLayout.maximumDepth }

    // MARK: The thread's state

    /// The calling thread's state, if it was ever made (for a check that must not make it).
    var stateIfAny: ThreadState? {
        raw.pointee.state.map { Unmanaged<ThreadState>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The calling thread's `.graph` instances and provisional instances, made on first use.
    /// Whoever adds a `.graph` instance calls ``keepUntilTheResolveEnds()``.
    var state: ThreadState {
        if let state = raw.pointee.state {
            return Unmanaged<ThreadState>.fromOpaque(state).takeUnretainedValue()
        }
        ThreadState.installRelease
        let state = ThreadState()
        raw.pointee.state = Unmanaged.passRetained(state).toOpaque()
        return state
    }

    /// Tells the end of the current top-level resolve to drop the state's `.graph` instances.
    func keepUntilTheResolveEnds() {
        raw.pointee.state_pending = 1
    }
}

/// Where ``Frame``'s inlined code finds the
/// fields of a CFrost `frost_context` (the `FROST_CONTEXT_*_OFFSET` macros, which C checks
/// with `_Static_assert` and a test compares with these), and the depth limit it enforces.
/// The fields it reads are only ever touched by the context's own thread.
@usableFromInline
enum ContextLayout {
    /// The `uintptr_t *path` field.
    @inlinable static var path: Int { 16 }
    /// The `uint32_t depth` field.
    @inlinable static var depth: Int { 24 }
    /// The `uint32_t state_pending` field.
    @inlinable static var statePending: Int { 28 }
    /// How deep a resolve may nest factories (below `FROST_PATH_CAPACITY`).
    @inlinable static var maximumDepth: Int { 1_000 }
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

    /// Tells CFrost how to drop a thread's state, once, before the first state is made.
    static let installRelease: Void = {
        frost_context_set_state_release { state in
            Unmanaged<ThreadState>.fromOpaque(state).release()
        }
    }()
}

extension ResolveContext {
    /// A context from CFrost's pool for an awaited resolve, working for `parent` (a context of
    /// a resolve still running, or `nil`), its path starting with `path`.
    static func acquireAsync(parent: ResolveContext?, path: [UInt])
        -> ResolveContext
    {
        let context = ResolveContext(raw: frost_context_acquire(parent?.raw))
        for (index, component) in path.enumerated() { context.raw.pointee.path[index] = component }
        context.raw.pointee.depth = UInt32(path.count)
        return context
    }

    /// Gives a context from ``acquireAsync(parent:path:)`` back to the pool.
    func relinquish() {
        frost_context_relinquish(raw)
    }

    /// Runs synchronous code (no suspension) with this async resolve's context as the
    /// thread's: resolves it starts continue the path, and creations it begins may be waited
    /// for by other threads.
    func onThread<R>(_ body: () throws(FrostError) -> R) throws(FrostError) -> R {
        let thread = frost_context_enter_thread(raw)
        defer { frost_context_leave_thread(raw, thread) }
        return try body()
    }

    /// Ends the wait `Cell.begin(for:stale:waiting:)` recorded for an awaited resolve.
    func stopWaiting() {
        frost_context_stop_waiting(raw)
    }

    /// Whether an async factory runs right now anywhere in the process (CFrost counts them:
    /// a plain global, read without the lazy initialization a Swift global costs).
    @inline(__always)
    static var asyncFactoriesRun: Bool { frost_async_factories_run() != 0 }

    /// Counts an async factory that starts (`1`) or returns (`-1`).
    static func countAsyncFactory(_ delta: Int32) {
        frost_count_async_factory(delta)
    }

    /// Tells CFrost whom to call with the cell after a creation someone waited for ends.
    static func setAsyncWakeup(_ wake: @convention(c) (UnsafeMutableRawPointer) -> Void) {
        frost_set_async_wakeup(wake)
    }
}
