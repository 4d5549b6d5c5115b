import CFrost
import Dispatch
import Foundation
import Testing

@testable import Frost

/// A resolve's path and state (``ResolvePath``): the facade's own fields at the start of a CFrost
/// context, which CFrost zeroes and never reads.
@Suite("Resolve path")
struct ResolvePathTests {
    /// The fields fit the words CFrost keeps for them, where it keeps them.
    @Test func theFieldsFitTheContextsFacadeWords() {
        #expect(MemoryLayout<ResolvePath>.size <= Int(FROST_CONTEXT_FACADE_WORDS) * 8)
        #expect(MemoryLayout<ResolvePath>.alignment <= 8)
        #expect(MemoryLayout<frost_context>.offset(of: \.facade) == 0)
        #expect(ResolvePath.maximumDepth < ResolvePath.capacity)
    }

    /// A thread's first resolve makes its path and a resolve leaves it empty; a thread that
    /// ends gives its context back emptied (no path entries in use, no state), and the context a
    /// new thread gets has none either.
    @Test(.timeLimit(.minutes(1))) func aPathIsMadeOnceAndLeftEmpty() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.graph)
        let frozen = try container.freeze()
        for _ in 0..<8 {
            let seen = Seen()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                seen.stateBefore = ResolveContext.current.stateIfAny != nil
                _ = try? frozen.resolve(Logger.self)  // a .graph instance: the thread's state
                let context = ResolveContext.current
                seen.depthAfter = context.depth
                seen.hasEntries = context.fields.pointee.entries != nil
                seen.stateAfter = context.stateIfAny != nil
                done.signal()
            }
            thread.start()
            done.wait()
            #expect(!seen.stateBefore && seen.depthAfter == 0 && seen.hasEntries && seen.stateAfter)
        }
        let context = ResolveContext.current
        #expect(context.depth == 0 && context.fields.pointee.entries != nil)
    }

    /// What a thread saw, read after it signals.
    final class Seen: @unchecked Sendable {
        var stateBefore = true
        var depthAfter = -1
        var hasEntries = false
        var stateAfter = false
    }
}
