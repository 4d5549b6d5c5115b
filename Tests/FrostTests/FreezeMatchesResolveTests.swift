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

    /// A user of each child's unit of work (`.scoped`).
    final class GateUnit: Sendable {}
    final class GateAudit: Sendable {
        let unit: GateUnit
        init(unit: GateUnit) { self.unit = unit }
    }

    /// Takes a `Lazy` and a `Provider` of a registration that takes runtime arguments.
    final class GateHost: Sendable {
        init(greeting: Lazy<GateGreeting>) {}
    }
    final class GateFactory: Sendable {
        init(greetings: Provider<GateGreeting>) {}
    }

    /// Engine rule 9: `.onCreate`, `.inject` and `.onDispose` on a registered instance or on a
    /// provided key can never run (Frost never makes nor disposes the application's own
    /// objects): `freeze()` rejects each with the reason, naming the type; and so does a
    /// frozen child for a value it supplies with a hook.
    @Test func hooksOnARegisteredInstanceOrAProvidedKeyAreRejected() throws {
        let container = Container()
        container.register(instance: GateReceipt()).onDispose { _ in }
        container.register(instance: GateTicket()).onCreate { _, _ in }
        container.provided(GateUser.self).onDispose { _ in }
        let error = frostError { _ = try container.freeze() }
        #expect(error?.code == .invalidRegistrations)
        for type in [GateReceipt.self, GateTicket.self, GateUser.self] as [Any.Type] {
            let name = String(reflecting: type)
            let problem = error?.problems.first { $0.description.contains(name) }
            #expect(problem?.code == .lifetimeMismatch, "\(name): \(String(describing: error))")
            #expect(
                problem?.description.contains("would never run") == true,
                "\(String(describing: problem))")
        }

        let app = Container()
        app.provided(GateUser.self)
        let frozen = try app.freeze()
        let childError = frostError {
            _ = try frozen.child { c in
                c.register(instance: GateUser(id: "ann")).onDispose { _ in }
            }
        }
        #expect(childError?.code == .invalidRegistrations)
        #expect(
            childError?.problems.contains {
                $0.description.contains(String(reflecting: GateUser.self))
            } == true, "\(String(describing: childError))")
    }

    /// Engine rule 9: a declared `Lazy<T>` or `Provider<T>` of a registration that takes runtime
    /// arguments can never resolve (neither can pass arguments): `freeze()` rejects it.
    @Test func aLazyOrProviderOfARegistrationWithArgumentsIsRejected() throws {
        let container = Container()
        container.register(GateGreeting.self) { _, name in GateGreeting(to: name) }
        container.autowire(GateHost.self, GateHost.init(greeting:))
        container.autowire(GateFactory.self, GateFactory.init(greetings:))
        let error = frostError { _ = try container.freeze() }
        #expect(error?.code == .invalidRegistrations)
        for type in [GateHost.self, GateFactory.self] as [Any.Type] {
            let name = String(reflecting: type)
            let problem = error?.problems.first { $0.description.contains(name) }
            #expect(problem?.code == .argumentMismatch, "\(name): \(String(describing: error))")
        }
    }

    /// The captive-dependency advice for a singleton on a `.scoped` key works when followed:
    /// it names no `Provider` (which would resolve in the root, outside any child), and
    /// making the user `.scoped`, as it says, freezes and resolves through a child.
    @Test func theAdviceForASingletonOnAScopedKeyFreezesAndResolvesWhenFollowed() throws {
        let container = Container()
        container.register(GateUnit.self) { _ in GateUnit() }.scope(.scoped)
        container.autowire(GateAudit.self, GateAudit.init(unit:)).scope(.singleton)
        let error = frostError { _ = try container.freeze() }
        let problem = try #require(error?.problems.first { $0.code == .captiveDependency })
        #expect(!problem.description.contains("Provider"), "\(problem)")
        #expect(problem.description.contains("make GateAudit scoped"), "\(problem)")

        container.autowire(GateAudit.self, GateAudit.init(unit:)).scope(.scoped)
        let frozen = try container.freeze()
        let child = try frozen.child { _ in }
        let audit = try child.resolve(GateAudit.self)
        #expect(audit.unit === (try child.resolve(GateUnit.self)))
        child.dispose()
    }
}
