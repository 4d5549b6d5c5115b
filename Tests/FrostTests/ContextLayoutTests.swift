import CFrost
import Testing

@testable import Frost

/// The fields of a CFrost context that autowiring's inlined code reads at fixed offsets.
@Suite("Context layout")
struct ContextLayoutTests {
    @Test func theInlinedOffsetsAreCFrosts() {
        #expect(ContextLayout.path == Int(FROST_CONTEXT_PATH_OFFSET))
        #expect(ContextLayout.depth == Int(FROST_CONTEXT_DEPTH_OFFSET))
        #expect(ContextLayout.statePending == Int(FROST_CONTEXT_STATE_PENDING_OFFSET))
        #expect(MemoryLayout<frost_context>.offset(of: \.depth) == ContextLayout.depth)
        #expect(ContextLayout.maximumDepth < Int(FROST_PATH_CAPACITY))
    }
}
