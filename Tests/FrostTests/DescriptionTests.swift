import Frost
import Testing

/// What a container says about itself: `description` lists the registrations with their
/// scopes, dependencies and forwards; `graphviz()` draws them as a DOT graph, one node per
/// registration; a scope describes itself.
@Suite("Descriptions and graphs")
struct DescriptionTests {
    @Test func descriptionAndGraphvizShowRegistrationsAndDependencies() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(instance: AppConfig(port: 1))
        container.autowire(Database.self) { (config: AppConfig) in Replica(config) }
        container.autowire(UserService.self, UserService.init(logger:db:))
        container.register(FileLogger.self) { _ in FileLogger() }.implements(Sink.self)
        let frozen = try container.freeze()

        let description = frozen.description
        #expect(description.contains("5 registrations") == false)
        #expect(description.contains("FrozenContainer: 6 registrations"))
        #expect(description.contains("FrostTests.UserService"))
        #expect(description.contains("-> FrostTests.Logger, FrostTests.Database"))
        #expect(description.contains("=> FrostTests.FileLogger"))
        let dot = frozen.graphviz()
        #expect(dot.hasPrefix("digraph Frost {"))
        #expect(dot.contains(#""FrostTests.UserService" -> "FrostTests.Database";"#))
        #expect(dot.contains(#""FrostTests.Sink" -> "FrostTests.FileLogger" [style=dotted];"#))
        #expect(dot.hasSuffix("}"))
    }

    /// A node's label in `graphviz()` is `"Type\nscope"` with a DOT line break (one
    /// backslash), never an escaped backslash followed by `n`.
    @Test func graphvizLabelsBreakTheLineWithOneBackslash() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        let dot = try container.freeze().graphviz()

        #expect(dot.contains(#"[label="FrostTests.Logger\nsingleton"]"#), "\(dot)")
        #expect(!dot.contains(#"\\n"#), "\(dot)")
    }

    typealias ChainPlainParameter = (() -> Int) -> Int

    typealias ChainEscapingParameter = (@escaping () -> Int) -> Int

    /// Two registrations whose types print alike (function types, one with an `@escaping`
    /// parameter) are two nodes of the graph, not one.
    @Test func registrationsWhoseTypesPrintAlikeAreTwoNodes() throws {
        #expect(
            String(reflecting: ChainPlainParameter.self)
                == String(reflecting: ChainEscapingParameter.self))
        let container = Container()
        container.register(ChainPlainParameter.self) { _ in { body in body() } }
        container.register(ChainEscapingParameter.self) { _ in { body in body() + 1 } }
        let dot = try container.freeze().graphviz()

        let nodes = dot.split(separator: "\n").compactMap { line -> Substring? in
            guard let label = line.range(of: " [label=") else { return nil }
            return line[..<label.lowerBound]
        }
        #expect(nodes.count == 2, "\(dot)")
        #expect(Set(nodes).count == 2, "two registrations drawn as one node:\n\(dot)")
    }

    @Test func scopesDescribeThemselves() {
        #expect(Scope.transient.description == "transient")
        #expect(Scope.singleton.description == "singleton")
        #expect(Scope.weak.description == "weak")
        #expect(Scope.graph.description == "graph")
        #expect(Scope.custom(LockedScopeStorage()).description == "custom(LockedScopeStorage)")
    }
}
