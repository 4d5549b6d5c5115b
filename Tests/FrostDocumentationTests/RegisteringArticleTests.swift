import Frost
import Testing

// The code of the "Registering and resolving" article
// (Sources/Frost/Frost.docc/RegisteringAndResolving.md): `make readme-check` checks that each
// block between the "snippet" markers is the article's, character for character.

@Suite("Registering and resolving snippets")
struct RegisteringArticleTests {
    // The article's plugin types.
    protocol Plugin: Sendable {}
    struct Metrics: Plugin {}
    struct Tracing: Plugin {}

    /// The article's application container: two named plugins.
    static func container() -> Container {
        let container = Container()
        container.register(Plugin.self, name: "metrics") { _ in Metrics() }
        container.register(Plugin.self, name: "tracing") { _ in Tracing() }
        return container
    }

    static func names(_ plugins: [any Plugin]) -> [String] {
        plugins.map { String(describing: type(of: $0)) }
    }

    /// Through a child, resolveAll answers once per key: the child's new names first, then the
    /// parent's keys as the child sees them, in both containers.
    @Test func resolveAllThroughAChildAnswersOncePerKey() throws {
        let frozen = try Self.container().freeze()
        // snippet registering-resolve-all-child: begin
        struct Audit: Plugin {}
        struct FakeTracing: Plugin {}

        let test = try frozen.child { c in
            c.register(Plugin.self, name: "tracing") { _ in FakeTracing() }  // overrides
            c.register(Plugin.self, name: "audit") { _ in Audit() }  // a new name
        }
        let plugins: [any Plugin] = try test.resolveAll(Plugin.self)  // Audit, Metrics, FakeTracing
        // snippet registering-resolve-all-child: end
        #expect(Self.names(plugins) == ["Audit", "Metrics", "FakeTracing"])
        #expect(Self.names(try frozen.resolveAll(Plugin.self)) == ["Metrics", "Tracing"])

        let dictionaryChild = Self.container().child { c in
            c.register(Plugin.self, name: "tracing") { _ in FakeTracing() }
            c.register(Plugin.self, name: "audit") { _ in Audit() }
        }
        #expect(
            Self.names(try dictionaryChild.resolveAll(Plugin.self))
                == ["Audit", "Metrics", "FakeTracing"])

        // A chain of children answers each key once, from the nearest child that registers it.
        let nested = try test.child { c in
            c.register(Plugin.self, name: "tracing") { _ in Tracing() }
        }
        #expect(Self.names(try nested.resolveAll(Plugin.self)) == ["Audit", "Metrics", "Tracing"])
        let nestedDictionary = dictionaryChild.child { c in
            c.register(Plugin.self, name: "tracing") { _ in Tracing() }
        }
        #expect(
            Self.names(try nestedDictionary.resolveAll(Plugin.self))
                == ["Audit", "Metrics", "Tracing"])
    }
}
