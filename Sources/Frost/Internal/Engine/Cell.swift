internal import CFrost
import Foundation

/// Where one cached instance lives: a CFrost `frost_cell` (a slot's, or one a dictionary entry
/// or a scope storage owns). The instance is a boxed value published once and read without a
/// lock; this file is the one spelling of every operation on it, and of every call on the
/// CFrost contexts cells are read and claimed for (``ResolveContext``'s C side, below).
///
/// The instance in a cell is a +1 reference owned by the cell.
///
/// `@unchecked Sendable`: a cell is an address; every operation on what it points to is one of
/// CFrost's atomic protocols (published with release, read with acquire under a hazard
/// pointer, created once).
struct Cell: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<frost_cell>

    init(_ pointer: UnsafeMutablePointer<frost_cell>) {
        self.pointer = pointer
    }

    init(raw: UnsafeMutableRawPointer) {
        self.pointer = raw.assumingMemoryBound(to: frost_cell.self)
    }

    /// The cell's address, as an opaque key (a thread's provisional instances are kept by it).
    var address: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

    /// A new empty cell, owned by the caller: free it with ``deallocate()``.
    static func allocate() -> Cell {
        allocateArray(count: 1)
    }

    /// Frees a cell made by ``allocate()``, releasing its instance. No thread may use it any
    /// more.
    func deallocate() {
        // No thread uses the cell any more: a load, not an exchange.
        if let instance = peek() { Unmanaged<AnyObject>.fromOpaque(instance).release() }
        frost_cells_free(pointer)
    }

    /// `count` empty cells in one block, owned by the caller: the first; the others are
    /// ``advanced(by:)`` it. Free them with ``deallocateArray(count:)``.
    static func allocateArray(count: Int) -> Cell {
        guard let pointer = frost_cells_new(max(count, 1)) else {
            fatalError("Frost: out of memory for \(count) cells")
        }
        return Cell(pointer)
    }

    /// The cell `offset` places after this one in a block of ``allocateArray(count:)``.
    func advanced(by offset: Int) -> Cell {
        Cell(pointer + offset)
    }

    /// Frees a block made by ``allocateArray(count:)``, releasing every instance in it.
    func deallocateArray(count: Int) {
        emptyArray(count: count)
        frost_cells_free(pointer)
    }

    /// Empties a block made by ``allocateArray(count:)``, releasing every instance in it: its
    /// cells are as new (for another owner). No thread may use them any more.
    func emptyArray(count: Int) {
        for index in 0..<count {
            // Every cell as new, its creator word too (no claim outlives its owner; if one
            // did, it must not reach the next owner), before what it held is released (a
            // deinit may run there).
            let cell = advanced(by: index)
            let instance = cell.peek()
            cell.pointer.initialize(to: frost_cell())
            if let instance { Unmanaged<AnyObject>.fromOpaque(instance).release() }
        }
    }

    /// The instance, protected against reclamation until this thread's next protected read
    /// (the thread's hazard pointer names this cell): copy the value out of it before reading
    /// another cell.
    @inline(__always)
    func read() -> UnsafeMutableRawPointer? {
        frost_cell_read(pointer)
    }

    /// ``read()`` for a thread whose context the caller already has.
    @inline(__always)
    func read(in context: ResolveContext) -> UnsafeMutableRawPointer? {
        frost_cell_read_in(pointer, context.c)
    }

    /// The instance's address, for a comparison only: never read through it.
    @inline(__always)
    func peek() -> UnsafeMutableRawPointer? {
        frost_cell_peek(pointer)
    }

    /// Stores `box` if the cell is empty (a registered instance, before the cell is shared; a
    /// helper installed on first use). Returns `false`, storing nothing, when the cell holds
    /// something already.
    @discardableResult
    func preset(_ box: AnyObject) -> Bool {
        let instance = Unmanaged.passRetained(box).toOpaque()
        guard frost_cell_preset(pointer, instance) != 0 else {
            Unmanaged<AnyObject>.fromOpaque(instance).release()
            return false
        }
        return true
    }

    /// Stores `box` in place of what the cell holds, which is released: only before the cell
    /// is shared with other threads (a value registered again replaces the first).
    func replace(with box: AnyObject) {
        let old = peek()
        frost_cell_store_unshared(pointer, Unmanaged.passRetained(box).toOpaque())
        if let old { Unmanaged<AnyObject>.fromOpaque(old).release() }
    }

    /// Takes the instance out (the cell is empty afterwards): +1 to the caller. Another thread
    /// may still be reading it: hand it to ``RetiredInstances``, with this cell, unless none
    /// can be.
    func take() -> UnsafeMutableRawPointer? {
        frost_cell_take(pointer)
    }

    /// Takes `instance` out if the cell still holds it (+1 to the caller); `false`, taking
    /// nothing, when it holds another or none.
    func take(ifHolding instance: UnsafeMutableRawPointer) -> Bool {
        frost_cell_compare_exchange(pointer, instance, nil) != 0
    }
}

/// What ``Cell/begin(for:stale:)`` or ``Cell/beginAwaiting(for:)`` found: the create-once
/// protocol's decision, the same for a synchronous resolve and an awaited one (only the wait
/// differs: a thread blocks in `begin`, a task is told to suspend by `beginAwaiting`).
enum CellClaim {
    /// The cell holds an instance: read it (a protected read) before any other cell.
    case ready(UnsafeMutableRawPointer)
    /// The caller creates the instance and must call ``Cell/end(for:publishing:)`` once.
    case create
    /// The caller's own resolve is already creating it (a re-entry).
    case own
    /// Waiting for the creator would close a circle of resolves waiting for each other.
    case cycle
    /// An awaited resolve creates it: a synchronous resolve must not block for it.
    case awaited
}

// MARK: What a cell keeps

/// Holds a resolved value that is not a class instance (a struct, an enum, a protocol
/// existential) as one object, so that a cell can cache it behind a single pointer and hand it
/// back without a dynamic cast. A class instance needs no box: a cell keeps the instance
/// itself (``_keep(_:)``), so caching one allocates nothing.
///
/// Only ever read through a cell whose key was verified to be `T`'s, which is what makes
/// reading it as a `Box<T>` sound (``_readBox(_:as:)``).
///
/// `@unchecked Sendable`: the box itself is immutable. The value it holds is shared by every
/// thread that resolves it, exactly as a singleton is in any container; a singleton used from
/// many threads must be thread-safe itself (documented on ``Scope/singleton``).
@usableFromInline
final class Box<T>: @unchecked Sendable {
    @usableFromInline let value: T

    @usableFromInline
    init(_ value: T) {
        self.value = value
    }
}

/// Whether a `T` is kept as itself (a class instance, one reference) rather than in a
/// `Box<T>`. Decided by the compiler in code specialized for `T`, at run time elsewhere, with
/// the same answer.
@inlinable
@inline(__always)
func _keptAsItself<T>(_ type: T.Type) -> Bool {
    T.self is AnyClass
}

/// `Box<T>`, or `nil` when a `T` is kept as itself: taken where `T` is known statically, so
/// that code that is not specialized makes boxes without looking the generic type up, and a
/// class's registration never instantiates a box type at all.
@inlinable
@inline(__always)
func _boxType<T>(_ type: T.Type) -> Box<T>.Type? {
    _keptAsItself(T.self) ? nil : Box<T>.self
}

/// The object a cell keeps for `value`: the instance itself, or a new `Box<T>`.
@inlinable
@inline(__always)
func _keep<T>(_ value: T) -> AnyObject {
    _keep(value, in: _boxType(T.self))
}

/// ``_keep(_:)`` with `T`'s box type known (``_boxType(_:)``, `nil` for a class): what code
/// that is not specialized for `T` calls, to ask the runtime nothing.
@inlinable
@inline(__always)
func _keep<T>(_ value: T, in boxType: Box<T>.Type?) -> AnyObject {
    guard let boxType else { return unsafeBitCast(value, to: AnyObject.self) }
    return boxType.init(value)
}

/// The `T` a kept object (``_keep(_:)``) holds. `object` must have been kept for a `T`.
@inlinable
@inline(__always)
func _kept<T>(_ object: AnyObject, as type: T.Type) -> T {
    _kept(object, as: T.self, itself: _keptAsItself(T.self))
}

/// ``_kept(_:as:)`` with whether a `T` is kept as itself known (``_keptAsItself(_:)``): what
/// code that is not specialized for `T` calls, to ask the runtime nothing.
@inlinable
@inline(__always)
func _kept<T>(_ object: AnyObject, as type: T.Type, itself: Bool) -> T {
    itself ? unsafeBitCast(object, to: T.self) : unsafeDowncast(object, to: Box<T>.self).value
}

/// Implementation detail: the one spelling of reading a cached instance. Copies the value out
/// of the object kept at `box` (the instance itself, or its `Box<T>`) without retaining what
/// the cell holds beyond the copy.
///
/// `box` must come from a protected read of a cell whose key is `T`'s (a lookup, a bound slot,
/// a handle), and nothing may read another cell between that read and this one: the cell's
/// protection covers one read at a time (see `Cell.read()`).
@inlinable
@inline(__always)
func _readBox<T>(_ box: UnsafeMutableRawPointer, as type: T.Type) -> T {
    Unmanaged<AnyObject>.fromOpaque(box)._withUnsafeGuaranteedRef { _kept($0, as: T.self) }
}

/// The `T` `object` holds when it is what a cell keeps for a `T` (``_keep(_:)``); `nil` when it
/// is something else (what a custom scope's storage answers is checked).
func _keptChecked<T>(_ object: AnyObject, as type: T.Type) -> T? {
    if _keptAsItself(T.self) { return object as? T }
    return (object as? Box<T>)?.value
}

extension Cell {
    /// Reads the instance or takes the creation over, for `context`, blocking the thread
    /// (inside CFrost) while another resolve creates this cell's instance. An instance equal to
    /// `stale` (a dead weak reference's box) counts as none.
    func begin(for context: ResolveContext, stale: UnsafeMutableRawPointer? = nil) -> CellClaim {
        var instance: UnsafeMutableRawPointer?
        let found = frost_cell_begin(pointer, context.c, stale, &instance)
        // A blocking begin never answers FROST_BEGIN_WAIT.
        return Self.claim(found, instance)!
    }

    /// ``begin(for:stale:)`` for an awaited resolve, which never blocks its thread: `nil` when
    /// another resolve creates the instance (suspend until a creation ends, in
    /// ``AwaitedResolve``, stop waiting, and begin again).
    func beginAwaiting(for context: ResolveContext) -> CellClaim? {
        var instance: UnsafeMutableRawPointer?
        let found = frost_cell_begin_async(pointer, context.c, &instance)
        return Self.claim(found, instance)
    }

    /// The claim CFrost's answer `found` says (`nil`: wait).
    private static func claim(_ found: frost_begin, _ instance: UnsafeMutableRawPointer?)
        -> CellClaim?
    {
        switch found {
        case FROST_BEGIN_READY: .ready(instance!)
        case FROST_BEGIN_CREATE: .create
        case FROST_BEGIN_OWN: .own
        case FROST_BEGIN_CYCLE: .cycle
        case FROST_BEGIN_ASYNC: .awaited
        default: nil
        }
    }

    /// Ends `context`'s creation: publishes `box` (given to the cell) or, with `nil`, nothing
    /// (a failed creation: the next resolve creates again); wakes the waiters. Returns the
    /// instance the box replaced (+1: a dead weak reference's box), to retire.
    @discardableResult
    func end(for context: ResolveContext, publishing box: AnyObject?) -> UnsafeMutableRawPointer? {
        frost_cell_end(pointer, context.c, box.map { Unmanaged.passRetained($0).toOpaque() })
    }
}

extension Cell {
    /// Splits instances taken out of their cells into those a thread may still be reading
    /// (its hazard pointer names the cell: keep them) and those none can (free them): CFrost's
    /// reclamation.
    static func partitionByReaders(_ taken: [(instance: UnsafeMutableRawPointer, cell: Cell)])
        -> (
            stillRead: [(instance: UnsafeMutableRawPointer, cell: Cell)],
            free: [UnsafeMutableRawPointer]
        )
    {
        guard !taken.isEmpty else { return ([], []) }
        var instances = taken.map { Optional($0.instance) }
        var cells = taken.map { Optional($0.cell.address) }
        let stillRead = instances.withUnsafeMutableBufferPointer { instances in
            cells.withUnsafeMutableBufferPointer { cells in
                Int(
                    frost_reclaim_partition(
                        instances.baseAddress!, cells.baseAddress!, UInt32(instances.count)))
            }
        }
        return (
            (0..<stillRead).map { (instances[$0]!, Cell(raw: cells[$0]!)) },
            instances[stillRead...].map { $0! }
        )
    }
}

/// One word for the engine's own compare-and-swap protocols (an async factory's frame): a
/// CFrost atomic, which the thread sanitizer understands. Owns its storage: allocated here,
/// freed in `deinit`.
final class AtomicWord: @unchecked Sendable {
    // @unchecked: every access is one of CFrost's atomic operations.
    private let word: UnsafeMutablePointer<frost_word>

    init() {
        word = UnsafeMutablePointer<frost_word>.allocate(capacity: 1)
        word.initialize(to: frost_word())
    }

    deinit {
        word.deallocate()
    }

    /// Sets the word to `desired` if it holds `expected`; whether it did.
    func compareExchange(expected: UInt, desired: UInt) -> Bool {
        frost_word_compare_exchange(word, expected, desired) != 0
    }

    func store(_ value: UInt) {
        frost_word_store(word, value)
    }

    func load() -> UInt {
        frost_word_load(word)
    }
}

// MARK: - The contexts cells are read and claimed for

/// ``ResolveContext``'s C side: a CFrost `frost_context` is who reads a cell (its hazard
/// pointer) and who claims one (the create-once protocol's creator, waiter and wait graph).
/// Its first words are the facade's own (``ResolvePath``).
extension ResolveContext {
    /// The CFrost context, typed.
    var c: UnsafeMutablePointer<frost_context> {
        opaque.assumingMemoryBound(to: frost_context.self)
    }

    /// The calling thread's CFrost context, made on its first call.
    @inline(__always)
    static var currentAddress: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(frost_context_current())
    }

    /// Whether the calling thread's stack has room for another level of resolving: the
    /// context's limit, provisional until a resolve first reaches it (where the stack really
    /// ends is asked for then, once per thread).
    @inline(__always)
    var stackHasRoom: Bool {
        frost_stack_has_room(c) != 0 || frost_context_refine_stack_limit(c) != 0
    }

    /// Stops the program if ``ResolvePath`` outgrew the words CFrost keeps for it (a test
    /// checks it too): once, before the first path is made.
    static let checkFacadeLayout: Void = {
        precondition(
            MemoryLayout<ResolvePath>.size <= Int(FROST_CONTEXT_FACADE_WORDS) * 8
                && MemoryLayout<ResolvePath>.alignment <= 8,
            "ResolvePath does not fit a frost_context's facade words")
    }()

    /// Tells CFrost how to empty a context's facade fields when its thread ends, once, before
    /// the first path is made (``makePath()``).
    static let installFacadeRelease: Void = {
        frost_context_set_facade_release { fields in
            ResolveContext.emptyFields(fields.assumingMemoryBound(to: ResolvePath.self))
        }
    }()

    /// A context from CFrost's pool for an awaited resolve, working for `parent` (a context of
    /// a resolve still running, or `nil`), its path starting with `path`.
    static func acquireAsync(parent: ResolveContext?, path: [UInt]) -> ResolveContext {
        let context = ResolveContext(
            opaque: UnsafeMutableRawPointer(frost_context_acquire(parent?.c)))
        if context.fields.pointee.entries == nil { context.makePath() }
        let entries = context.fields.pointee.entries.unsafelyUnwrapped
        for (index, component) in path.enumerated() { entries[index] = component }
        context.fields.pointee.depth = UInt32(path.count)
        return context
    }

    /// Gives a context from ``acquireAsync(parent:path:)`` back to the pool, its path emptied
    /// and its state released.
    func relinquish() {
        Self.emptyFields(fields)
        frost_context_relinquish(c)
    }

    /// Runs synchronous code (no suspension) with this async resolve's context as the
    /// thread's: resolves it starts continue the path, and creations it begins may be waited
    /// for by other threads.
    func onThread<R>(_ body: () throws(FrostError) -> R) throws(FrostError) -> R {
        let thread = frost_context_enter_thread(c)
        defer { frost_context_leave_thread(c, thread) }
        return try body()
    }

    /// Ends the wait ``Cell/beginAwaiting(for:)`` recorded for an awaited resolve.
    func stopWaiting() {
        frost_context_stop_waiting(c)
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

/// A table of words, each used as an ``AtomicWord`` is (read without a lock, published with
/// release stores), in one block: one allocation for the table, not an object and a word per
/// entry. Owns its storage: allocated here, freed in `deinit`.
final class AtomicWords: @unchecked Sendable {
    // @unchecked: every access is one of CFrost's atomic operations.
    private let words: UnsafeMutablePointer<frost_word>
    /// How many words it holds.
    let count: Int

    /// `count` words, each 0.
    init(count: Int) {
        words = UnsafeMutablePointer<frost_word>.allocate(capacity: max(count, 1))
        words.initialize(repeating: frost_word(), count: count)
        self.count = count
    }

    deinit {
        words.deallocate()
    }

    /// Stores `value` in the word at `index` (below ``count``).
    func store(_ value: UInt, at index: Int) {
        precondition(index >= 0 && index < count, "AtomicWords: index out of range")
        frost_word_store(words + index, value)
    }

    /// The word at `index` (below ``count``).
    func load(at index: Int) -> UInt {
        precondition(index >= 0 && index < count, "AtomicWords: index out of range")
        return frost_word_load(words + index)
    }
}
