import Frost
import Testing

/// Engine rule 3 where the synchronous and awaited paths meet, and where hooks finish an
/// instance: a cycle closed through a `Lazy` read inside an async factory is a `.cycle` naming
/// its members (not `.asyncRequired`, whose advice cannot fix it); a forwarded type
/// (`.implements`) resolved while its instance is being finished is that instance, not a
/// cycle.
@Suite("Cycles are found exactly on the seams", .timeLimit(.minutes(1)))
struct SeamCycleTests {
    /// Made by an async factory that reads a `Lazy<SeamSpoke>` while it runs.
    final class SeamHub: Sendable {}

    /// Needs the hub: reading it from the hub's factory closes the cycle.
    final class SeamSpoke: Sendable {
        let hub: SeamHub
        init(hub: SeamHub) { self.hub = hub }
    }

    protocol SeamMotor: AnyObject, Sendable {}

    /// Registered `.implements(SeamMotor.self)`; its `.onCreate` hook resolves the forward.
    final class SeamEngine: SeamMotor {}

    /// Where the instance lives: a root's singleton, or a `.scoped` instance made in a child.
    enum SeamLifetime: String, CaseIterable, CustomTestStringConvertible {
        case singleton
        case scoped

        var testDescription: String { rawValue }

        var scope: Scope { self == .singleton ? .singleton : .scoped }

        /// The container to resolve from.
        func resolver(in root: DoorHost) throws -> DoorHost {
            self == .singleton ? root : try root.child()
        }
    }

    /// hub (async factory) → `Lazy<SeamSpoke>.get()` → spoke → hub, which this resolve is
    /// making: a `.cycle` whose path names the hub and the spoke.
    @Test(arguments: DoorKind.allCases, SeamLifetime.allCases)
    func aCycleClosedThroughALazyReadInAnAsyncFactoryIsACycle(
        kind: DoorKind, lifetime: SeamLifetime
    ) async throws {
        let container = Container()
        container.register(SeamHub.self) { r async throws in
            let spoke = try await r.resolve(Lazy<SeamSpoke>.self)
            _ = try spoke.get()
            return SeamHub()
        }
        .scope(lifetime.scope)
        container.autowire(SeamSpoke.self, SeamSpoke.init(hub:))
        let host = try lifetime.resolver(in: try DoorHost.root(container, kind))

        do {
            _ = try await host.resolveAwaited(SeamHub.self)
            Issue.record("the cycle resolved")
        } catch {
            #expect(error.code == .cycle, "\(error)")
            let path = error.dependencyPath
            #expect(path.contains(String(reflecting: SeamHub.self)), "\(path)")
            #expect(path.contains(String(reflecting: SeamSpoke.self)), "\(path)")
        }
    }

    /// Resolving the forwarded type runs the instance's own `.onCreate` hook, which resolves
    /// the forwarded type again while the instance is being finished: it gets that same
    /// instance, not a false `.cycle` (the forward is on the path, the instance exists).
    @Test(arguments: DoorKind.allCases, [Scope.singleton, .graph])
    func aForwardResolvedFromTheInstancesOwnHookIsThatInstance(kind: DoorKind, scope: Scope)
        throws
    {
        let container = Container()
        let seen = DoorLocked<ObjectIdentifier?>(nil)
        container.register(SeamEngine.self) { _ in SeamEngine() }
            .scope(scope)
            .implements((any SeamMotor).self)
            .onCreate { r, _ in
                let motor = try r.resolve((any SeamMotor).self)
                seen.value = ObjectIdentifier(motor)
            }
        let host = try DoorHost.root(container, kind)

        let motor = Result { () throws(FrostError) in try host.resolveNow((any SeamMotor).self) }
        #expect(motor.doorCode == nil, "\(motor)")
        if case .success(let motor) = motor {
            #expect(seen.value == ObjectIdentifier(motor))
        }
    }
}
