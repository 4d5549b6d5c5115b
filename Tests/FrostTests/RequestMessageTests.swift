import Frost
import Testing

/// What a server's per-request mistakes are told: a value registered as an optional where a
/// provided key wants the value, and an async per-request value resolved synchronously (no
/// `bootstrap()` advice: it does not make a child's values).
@Suite("Messages about per-request values")
struct RequestMessageTests {
    final class Member: Sendable {}

    final class Token: Sendable {}

    /// `register(instance: member)` with `member: Member?` registers `Member?`: the provided
    /// `Member` is not supplied, and the message points at the optional.
    @Test(arguments: Mode.allCases)
    func aValueRegisteredAsAnOptionalIsNamedWhenTheProvidedKeyIsMissing(mode: Mode) throws {
        let container = Container()
        container.provided(Member.self)
        let member: Member? = Member()
        let error = try #require(
            frostError {
                switch mode {
                case .dictionary:
                    let child = container.child { $0.register(instance: member) }
                    _ = try child.resolve(Member.self)
                case .frozen:
                    let child = try container.freeze().child { $0.register(instance: member) }
                    _ = try child.resolve(Member.self)
                }
            })
        #expect(error.code == .notProvided)
        let optional = String(reflecting: Member?.self)
        #expect(error.nearMisses.contains { $0.contains(optional) }, "\(error)")
        #expect(error.description.contains("register the value unwrapped"), "\(error)")
    }

    /// The same near miss for an ordinary registration: `Member?` registered, `Member` asked.
    @Test(arguments: Mode.allCases)
    func anOptionalRegisteredInsteadOfItsValueIsANearMiss(mode: Mode) throws {
        let container = Container()
        let member: Member? = Member()
        container.register(instance: member, name: "host")
        let resolver = try mode.resolver(container)
        let error = try #require(frostError { _ = try resolver.resolve(Member.self, name: "host") })
        #expect(error.code == .notRegistered)
        #expect(
            error.nearMisses.first?.contains(String(reflecting: Member?.self) + "#host") == true,
            "\(error.nearMisses)")
    }

    /// A child's own async `.scoped` value, resolved synchronously: `.asyncRequired`, whose
    /// advice is to await it, never to call `bootstrap()`.
    @Test(arguments: Mode.allCases)
    func aChildsAsyncValueResolvedSynchronouslyIsNotToldToBootstrap(mode: Mode) async throws {
        let container = Container()
        let configure: (Container) -> Void = { child in
            child.register(Token.self) { _ async throws in Token() }.scope(.scoped)
        }
        let error: FrostError?
        switch mode {
        case .dictionary:
            let child = container.child(configure)
            error = frostError { _ = try resolveSynchronously(Token.self, from: child) }
            let token = try await child.resolve(Token.self)
            #expect(try resolveSynchronously(Token.self, from: child) === token)
        case .frozen:
            let child = try container.freeze().child(configure)
            error = frostError { _ = try resolveSynchronously(Token.self, from: child) }
            let token = try await child.resolve(Token.self)
            #expect(try resolveSynchronously(Token.self, from: child) === token)
        }
        let found = try #require(error)
        #expect(found.code == .asyncRequired)
        #expect(!found.description.contains("bootstrap"), "\(found)")
        #expect(found.description.contains("try await"), "\(found)")
    }

    /// A root's async singleton still gets the `bootstrap()` advice: it makes it.
    @Test func aRootsAsyncSingletonIsToldToBootstrap() throws {
        let container = Container()
        container.register(Token.self) { _ async throws in Token() }.scope(.singleton)
        let frozen = try container.freeze()
        let error = try #require(frostError { _ = try frozen.resolve(Token.self) })
        #expect(error.description.contains("bootstrap()"), "\(error)")
    }
}
