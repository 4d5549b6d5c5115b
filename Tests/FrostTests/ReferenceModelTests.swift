import Foundation
import Frost
import Testing

/// Random registration sets, resolved through both containers, checked against a simple model
/// of what must happen: which resolves succeed, which fail and why (the missing key, the key
/// that closes a cycle), and the identity rules of each scope. Seeded: a failure prints its
/// seed, and `FROST_MODEL_SEED=<seed>` replays it.
@Suite("Reference model")
struct ReferenceModelTests {
    /// A generated type: `Node<Tag>` is a distinct type for each tag.
    protocol Tag: Sendable {}
    enum T0: Tag {}
    enum T1: Tag {}
    enum T2: Tag {}
    enum T3: Tag {}
    enum T4: Tag {}
    enum T5: Tag {}

    /// What every generated registration makes: its key and its dependencies' instances.
    final class Node<T: Tag>: @unchecked Sendable {
        let key: Key
        let children: [AnyObject]
        init(key: Key, children: [AnyObject]) {
            self.key = key
            self.children = children
        }
    }

    struct Key: Hashable, CustomStringConvertible, Sendable {
        let type: Int
        let name: String?
        var description: String { "T\(type)" + (name.map { "#\($0)" } ?? "") }
    }

    /// Registers and resolves the generated type with tag index `type`.
    struct KeyType: Sendable {
        let register: @Sendable (Container, Key, Scope, [Key]) -> Void
        let resolve: @Sendable (any Resolver, String?) throws -> AnyObject
        let canonicalName: String

        static func of<T: Tag>(_ tag: T.Type) -> KeyType {
            KeyType(
                register: { container, key, scope, dependencies in
                    container.register(Node<T>.self, name: key.name) { resolver in
                        let children = try dependencies.map { dependency in
                            try ReferenceModelTests.keyTypes[dependency.type].resolve(
                                resolver, dependency.name)
                        }
                        return Node<T>(key: key, children: children)
                    }.scope(scope)
                },
                resolve: { resolver, name in try resolver.resolve(Node<T>.self, name: name) },
                canonicalName: String(reflecting: Node<T>.self)
            )
        }
    }

    static let keyTypes: [KeyType] = [
        .of(T0.self), .of(T1.self), .of(T2.self), .of(T3.self), .of(T4.self), .of(T5.self),
    ]
    static let names: [String?] = [nil, "a", "b"]
    static let scopes: [Scope] = [.transient, .singleton, .weak, .graph]

    /// One generated registration set.
    struct Case {
        var registrations: [Key: (scope: Scope, dependencies: [Key])] = [:]
        var order: [Key] = []

        init(seed: UInt64) {
            var random = SplitMix(seed: seed)
            let allKeys = ReferenceModelTests.keyTypes.indices.flatMap { type in
                ReferenceModelTests.names.map { Key(type: type, name: $0) }
            }
            let count = Int.random(in: 1...10, using: &random)
            for _ in 0..<count {
                let key = allKeys.randomElement(using: &random)!
                let scope = ReferenceModelTests.scopes.randomElement(using: &random)!
                // Dependencies on any key, registered or not: some go missing, some loop.
                let dependencies = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    allKeys.randomElement(using: &random)!
                }
                if registrations[key] == nil { order.append(key) }
                registrations[key] = (scope, dependencies)  // later registrations replace
            }
        }

        func container() -> Container {
            let container = Container()
            for key in order {
                let (scope, dependencies) = registrations[key]!
                ReferenceModelTests.keyTypes[key.type].register(container, key, scope, dependencies)
            }
            return container
        }

        /// What resolving `key` must do: succeed, or fail naming the missing key or the key
        /// that closes a cycle (dependencies resolve in order, depth first).
        func expected(_ key: Key, path: [Key] = []) -> Outcome {
            guard let registration = registrations[key] else {
                return .failure(.notRegistered, key)
            }
            if path.contains(key) { return .failure(.cycle, key) }
            for dependency in registration.dependencies {
                let outcome = expected(dependency, path: path + [key])
                if case .failure = outcome { return outcome }
            }
            return .success
        }
    }

    enum Outcome: Equatable {
        case success
        case failure(FrostError.Code, Key)
    }

    /// Checks one resolver against the model; returns the first disagreement.
    static func check(_ resolver: any Resolver, _ model: Case, seed: UInt64, mode: Mode) -> String?
    {
        let allKeys = keyTypes.indices.flatMap { type in names.map { Key(type: type, name: $0) } }
        var singletons: [Key: ObjectIdentifier] = [:]
        var held: [AnyObject] = []  // keeps .weak instances alive, so they must be reused
        for key in allKeys {
            let expected = model.expected(key)
            let first: AnyObject
            do {
                first = try keyTypes[key.type].resolve(resolver, key.name)
            } catch let error as FrostError {
                let expectedName = {
                    if case .failure(_, let failing) = expected {
                        return keyTypes[failing.type].canonicalName
                            + (failing.name.map { "#\($0)" } ?? "")
                    }
                    return ""
                }()
                guard case .failure(let code, _) = expected, error.code == code,
                    error.requestedKey == expectedName
                else {
                    return "seed \(seed) \(mode): \(key) failed with \(error.code) for "
                        + "\(error.requestedKey ?? "-"), the model expects \(expected)"
                }
                continue
            } catch {
                return "seed \(seed) \(mode): \(key) threw a non-Frost error \(error)"
            }
            guard expected == .success else {
                return "seed \(seed) \(mode): \(key) resolved, the model expects \(expected)"
            }
            held.append(first)
            // Identity rules inside one resolve: a .graph key is one instance, a transient
            // key a new one each time, a singleton the container's one.
            var graph: [Key: ObjectIdentifier] = [:]
            var transients = Set<ObjectIdentifier>()
            var stack = [first]
            while let object = stack.popLast() {
                let (nodeKey, children) = nodeParts(object)
                let id = ObjectIdentifier(object)
                switch model.registrations[nodeKey]!.scope {
                case .graph:
                    if let known = graph.updateValue(id, forKey: nodeKey), known != id {
                        return
                            "seed \(seed) \(mode): two .graph \(nodeKey) in one resolve of \(key)"
                    }
                case .singleton:
                    if let known = singletons.updateValue(id, forKey: nodeKey), known != id {
                        return "seed \(seed) \(mode): two singletons \(nodeKey)"
                    }
                case .transient:
                    if !transients.insert(id).inserted {
                        return "seed \(seed) \(mode): transient \(nodeKey) reused within a resolve"
                    }
                default:
                    break
                }
                stack += children
            }
            // Across top-level resolves.
            guard let second = try? keyTypes[key.type].resolve(resolver, key.name) else {
                return "seed \(seed) \(mode): \(key) resolved once, then failed"
            }
            let same = first === second
            switch model.registrations[key]!.scope {
            case .singleton, .weak:
                if !same { return "seed \(seed) \(mode): \(key) is not reused across resolves" }
            default:
                if same { return "seed \(seed) \(mode): \(key) was reused across resolves" }
            }
        }
        return withExtendedLifetime(held) { nil }
    }

    /// The key and children of any generated node.
    static func nodeParts(_ object: AnyObject) -> (Key, [AnyObject]) {
        switch object {
        case let node as Node<T0>: (node.key, node.children)
        case let node as Node<T1>: (node.key, node.children)
        case let node as Node<T2>: (node.key, node.children)
        case let node as Node<T3>: (node.key, node.children)
        case let node as Node<T4>: (node.key, node.children)
        case let node as Node<T5>: (node.key, node.children)
        default: preconditionFailure("not a generated node: \(object)")
        }
    }

    /// The seeds of one run: a fixed sweep, plus a replayed seed from the environment.
    static let seeds: [UInt64] = {
        if let replay = ProcessInfo.processInfo.environment["FROST_MODEL_SEED"].flatMap(UInt64.init)
        {
            return [replay]
        }
        return Array(1...3_000)
    }()

    @Test func bothContainersAgreeWithTheModel() throws {
        var failures = 0
        for seed in Self.seeds {
            let model = Case(seed: seed)
            for mode in Mode.allCases {
                let resolver = try mode.resolver(model.container())
                if let disagreement = Self.check(resolver, model, seed: seed, mode: mode) {
                    Issue.record(
                        "\(disagreement) (replay: FROST_MODEL_SEED=\(seed) swift test --filter ReferenceModel)"
                    )
                    failures += 1
                }
            }
            if failures >= 5 { break }
        }
    }

    @Test func typesOutsideTheSetNeverResolve() throws {
        for seed in Self.seeds.prefix(500) {
            let frozen = try Case(seed: seed).container().freeze()
            #expect(throws: FrostError.self) { try frozen.resolve(Unregistered.self) }
            #expect(throws: FrostError.self) { try frozen.resolve(Node<T0>.self, name: "c") }
        }
    }
}
