import Foundation

/// What an awaited resolve runs in: a CFrost context of its own (a thread's context cannot
/// follow a task from thread to thread), the frame of the async factory it was started from,
/// if any, and the suspended resolves waiting for another's creation.
///
/// A resolve started from inside an async factory continues that factory's resolve — same
/// path, so a cycle is found wherever it closes, and the same `.graph` instances — by
/// borrowing the factory's context through its frame (``AsyncFrame``), found as a task-local
/// value (a factory may resolve through its `Resolver` or through a container it captured, and
/// synchronously too: a `Lazy` it reads). Only the factory's own task borrows the context. Its
/// child tasks (`async let`, task groups, `Task { }`) inherit the frame but resolve in a
/// context of their own, whose path starts with the frame's and whose parent is the factory's
/// context: the factory awaits them, so a circle of waits that reaches the factory's creations
/// is a circle, and two children creating the same singleton at once simply wait for each
/// other.
///
/// Waiting: CFrost calls ``wake(_:)`` with the cell after any creation that someone waited for
/// ends; the resolves suspended on that cell then look again. A resolve reads ``epoch`` before
/// it asks CFrost to record its wait, and suspends only if no creation ended since: a wake-up
/// between the two is never lost.
enum AwaitedResolve {
    /// The frame of the async factory the current task runs in, if any.
    @TaskLocal static var frame: AsyncFrame?

    /// Whether an async factory runs right now anywhere in the process: while none does, a
    /// synchronous resolve need not look for a frame to continue (CFrost counts them: a plain
    /// global, read without the lazy initialization a Swift global costs).
    @inline(__always)
    static var factoriesRun: Bool { ResolveContext.asyncFactoriesRun }

    /// Runs `body` with the context the resolve continues in, or a new one. `body` runs on
    /// the caller's executor, as the resolve does: on the main actor, no hop to the global
    /// executor and back.
    nonisolated(nonsending)
        static func withContext<R>(
            _ body: nonisolated(nonsending) (ResolveContext) async throws(FrostError) -> R
        ) async throws(FrostError) -> R
    {
        guard let frame else {
            let context = ResolveContext.acquireAsync(parent: nil, path: [])
            defer { context.relinquish() }
            return try await body(context)
        }
        if frame.claim() {
            defer { frame.unclaim() }
            return try await body(frame.context)
        }
        let context = ResolveContext.acquireAsync(parent: frame.openContext, path: frame.path)
        defer { context.relinquish() }
        return try await body(context)
    }

    /// ``ResolveContext/continuing(_:)`` while an async factory runs somewhere: continues the
    /// calling task's factory's resolve when its context is free, else runs on `thread`'s.
    @inline(never)
    static func continuingFrame<R>(
        _ thread: ResolveContext, _ body: (ResolveContext) throws(FrostError) -> R
    ) throws(FrostError) -> R {
        guard let frame, frame.claim() else { return try body(thread) }
        defer { frame.unclaim() }
        return try frame.context.onThread { () throws(FrostError) -> R in
            try body(frame.context)
        }
    }

    /// Runs an async factory of `component` (entered last in `context`) with its frame as
    /// the task's.
    nonisolated(nonsending)
        static func running<R>(
            _ component: Component,
            in context: ResolveContext,
            _ factory: () async throws -> R
        ) async throws -> R
    {
        let frame = AsyncFrame(
            context: context, component: component, parent: AwaitedResolve.frame)
        ResolveContext.countAsyncFactory(1)
        defer {
            frame.close()
            ResolveContext.countAsyncFactory(-1)
        }
        return try await AwaitedResolve.$frame.withValue(frame) { try await factory() }
    }

    // MARK: Waiting for another resolve's creation

    // The lock guards both; NSLock, which the thread sanitizer understands.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var ends: UInt64 = 0
    nonisolated(unsafe) private static var suspended:
        [UnsafeMutableRawPointer: [CheckedContinuation<Void, Never>]] = [:]

    /// How many waited-for creations have ended.
    static var epoch: UInt64 {
        installed
        return lock.withLock { ends }
    }

    /// Suspends until the creation in `cell` ends, or returns at once if any creation ended
    /// after `epoch` was read.
    nonisolated(nonsending)
        static func wait(for cell: UnsafeMutableRawPointer, since epoch: UInt64) async
    {
        await withCheckedContinuation { continuation in
            let ended = lock.withLock {
                guard ends == epoch else { return true }
                suspended[cell, default: []].append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// Resumes the resolves suspended on `cell`.
    static func wake(_ cell: UnsafeMutableRawPointer) {
        let resumed = lock.withLock {
            ends &+= 1
            return suspended.removeValue(forKey: cell) ?? []
        }
        for continuation in resumed { continuation.resume() }
    }

    /// Tells CFrost whom to call, once.
    private static let installed: Void = {
        ResolveContext.setAsyncWakeup { cell in AwaitedResolve.wake(cell) }
    }()
}

/// An async factory while it runs: the context its resolve runs in, lent to the resolves the
/// factory starts, one at a time.
///
/// Its state is one atomic word: ``free`` (a resolve may borrow the context), ``busy`` (one
/// does), ``closed`` (the factory returned; the context went on, maybe to another resolve).
final class AsyncFrame: @unchecked Sendable {
    // @unchecked: `context` and `depth` are set once; the state is a CFrost atomic word.
    /// The context of the resolve that runs the factory.
    let context: ResolveContext
    /// The path's length with the factory's component entered: where resolves it starts
    /// begin.
    let depth: Int
    /// The factory's component.
    let component: UnsafeRawPointer
    /// The frame of the async factory that resolved this one, if any.
    let parent: AsyncFrame?
    /// The task the factory runs in: the only one that borrows the context.
    private let task: UnsafeCurrentTask?
    private let state = AtomicWord()

    private static let free: UInt = 0
    private static let busy: UInt = 1
    private static let closed: UInt = 2

    init(context: ResolveContext, component: Component, parent: AsyncFrame?) {
        self.context = context
        self.depth = context.depth
        self.component = UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque())
        self.parent = parent
        // Compared only while the factory runs, when its task is alive.
        task = withUnsafeCurrentTask { $0 }
    }

    /// Borrows the context for one resolve; `false` when another resolve has it, the factory
    /// returned, or the resolve runs in another task than the factory (a child task).
    func claim() -> Bool {
        guard withUnsafeCurrentTask(body: { $0 == task }),
            state.compareExchange(expected: Self.free, desired: Self.busy)
        else { return false }
        // The factory's own resolve leaves the context as it lent it; if it did not, the
        // resolve takes a context of its own rather than trust this one.
        guard context.depth == depth else {
            unclaim()
            return false
        }
        return true
    }

    /// Gives the context back.
    func unclaim() {
        state.store(Self.free)
    }

    /// The factory returned: its context is no longer lent.
    func close() {
        state.store(Self.closed)
    }

    /// The context of the nearest frame, from this one out, whose factory still runs: what a
    /// resolve started on its behalf works for.
    var openContext: ResolveContext? {
        var frame: AsyncFrame? = self
        while let current = frame {
            if current.state.load() != Self.closed { return current.context }
            frame = current.parent
        }
        return nil
    }

    /// The components of the path up to and including this factory's, outermost first (at a
    /// suspension, an async resolve's path holds only async factories' components).
    var path: [UInt] {
        var components: [UInt] = []
        var frame: AsyncFrame? = self
        while let current = frame {
            components.append(UInt(bitPattern: current.component))
            frame = current.parent
        }
        return components.reversed()
    }
}
