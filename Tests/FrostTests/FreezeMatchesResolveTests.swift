import Frost
import Testing

/// Engine rule 9, "validation matches what resolving can do": a registration `freeze()`
/// accepts can be resolved from some container it describes, and one it cannot make is
/// rejected with the reason; an `.onDispose` hook on a registration whose instances are never
/// tracked (a transient) is rejected; a scope that the docs say is ignored (a registration
/// with runtime arguments) does not make `bootstrap()` or `handle(for:)` fail.
@Suite("Freezing accepts only what resolving can do", .timeLimit(.minutes(1)))
struct FreezeMatchesResolveTests {
    /// A value each child supplies.
    final class GateUser: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    /// A long-lived user of the provided value.
    final class GateBadge: Sendable {
        let user: GateUser
        init(user: GateUser) { self.user = user }
    }

    final class GateReceipt: Sendable {}
    final class GateTicket: Sendable {}

    struct GateGreeting: Sendable {
        let text: String
        init(to name: String) { text = "Hello, \(name)" }
    }

    /// A lifetime whose instances are kept by the container that registers them.
    enum GateLifetime: String, CaseIterable, CustomTestStringConvertible {
        case weak
        case custom

        var testDescription: String { rawValue }

        var scope: Scope { self == .weak ? .weak : .custom(LockedScopeStorage()) }
    }

    /// A `.weak` or custom-scoped registration of the root that depends (autowired) on a key
    /// each child supplies is either rejected by `freeze()` with a reason naming it, or made
    /// where the value is: resolved through a child that supplies it, it gets that value.
    /// (Accepted and never resolvable is the defect.)
    @Test(arguments: GateLifetime.allCases)
    func aKeptUserOfAProvidedKeyIsRejectedAtFreezeOrMadeWhereTheValueIs(
        lifetime: GateLifetime
    ) throws {
        let container = Container()
        container.provided(GateUser.self)
        container.autowire(GateBadge.self, GateBadge.init(user:)).scope(lifetime.scope)
        let badgeName = String(reflecting: GateBadge.self)

        let frozen: FrozenContainer
        do {
            frozen = try container.freeze()
        } catch {
            #expect(error.code == .invalidRegistrations)
            #expect(
                error.problems.contains { $0.description.contains(badgeName) },
                "the rejection does not name \(badgeName): \(error)")
            return
        }
        let ann = GateUser(id: "ann")
        let child = try frozen.child { $0.register(instance: ann) }
        do {
            let badge = try child.resolve(GateBadge.self)
            #expect(badge.user === ann)
        } catch {
            Issue.record("freeze() accepted \(badgeName), which no resolve can make: \(error)")
        }
    }

    /// Where the registrations with hooks are frozen: a root, or a frozen container's child.
    enum GateWhere: String, CaseIterable, CustomTestStringConvertible {
        case root
        case child

        var testDescription: String { rawValue }

        /// Registers with `configure` there and freezes.
        func freeze(_ configure: (Container) -> Void) throws(FrostError) {
            switch self {
            case .root:
                let container = Container()
                configure(container)
                _ = try container.freeze()
            case .child:
                _ = try Container().freeze().child { configure($0) }
            }
        }
    }

    /// An `.onDispose` hook, sync or async, on a transient (never tracked, so it could never
    /// run) is rejected by `freeze()`, naming the registration.
    @Test(arguments: GateWhere.allCases)
    func anOnDisposeHookOnATransientIsRejectedAtFreeze(place: GateWhere) throws {
        let error = #expect(throws: FrostError.self) {
            try place.freeze { c in
                c.register(GateReceipt.self) { _ in GateReceipt() }.onDispose { _ in }
                c.register(GateTicket.self) { _ in GateTicket() }.onDispose { _ async in }
            }
        }
        #expect(error?.code == .invalidRegistrations)
        for type in [GateReceipt.self, GateTicket.self] as [Any.Type] {
            let name = String(reflecting: type)
            #expect(
                error?.problems.contains { $0.description.contains(name) } == true,
                "no problem names \(name): \(String(describing: error))")
        }
    }

    /// `bootstrap()` makes the singletons; a registration with runtime arguments is never
    /// cached (its scope is ignored), so `.scope(.singleton)` on it does not make bootstrap
    /// fail, and it still makes one instance per resolve.
    @Test func bootstrapIgnoresTheSingletonScopeOfARegistrationWithArguments() async throws {
        let container = Container()
        container.register(GateGreeting.self) { _, name in GateGreeting(to: name) }
            .scope(.singleton)
        let frozen = try container.freeze()

        await #expect(throws: Never.self) { try await frozen.bootstrap() }
        #expect(try await frozen.resolve(GateGreeting.self, argument: "Ann").text == "Hello, Ann")
        #expect(try await frozen.resolve(GateGreeting.self, argument: "Bob").text == "Hello, Bob")
    }

    /// `handle(for:)` on a registration with runtime arguments and `.scope(.singleton)` gives
    /// a handle (the scope is ignored: there is no singleton to make and hold).
    @Test func aHandleIgnoresTheSingletonScopeOfARegistrationWithArguments() throws {
        let container = Container()
        container.register(GateGreeting.self) { _, name in GateGreeting(to: name) }
            .scope(.singleton)
        let frozen = try container.freeze()

        #expect(throws: Never.self) { _ = try frozen.handle(for: GateGreeting.self) }
        #expect(try frozen.resolve(GateGreeting.self, argument: "Ann").text == "Hello, Ann")
    }
}
