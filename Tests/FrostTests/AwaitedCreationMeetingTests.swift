import Foundation
import Frost
import Testing

/// DESIGN.md, "Swift concurrency": a synchronous resolve that meets a creation an awaited
/// resolve has in progress fails with `.asyncRequired` at once instead of blocking its thread
/// (the creation may be waiting for that very thread), and the awaited resolve then finishes
/// with the one instance.
///
/// The creation is held open by a gate, not by a sleep: it is certainly in progress while the
/// synchronous resolve runs, and it finishes only when the test lets it.
@Suite("A synchronous resolve never waits for an awaited creation", .timeLimit(.minutes(1)))
struct AwaitedCreationMeetingTests {
    final class MeetingPool: Sendable {}

    @Test(arguments: DoorKind.allCases)
    func aSynchronousResolveThatMeetsAnAwaitedCreationFailsInsteadOfBlocking(
        kind: DoorKind
    ) async throws {
        let container = Container()
        let started = DoorGate()
        let release = DoorGate()
        let made = DoorLocked(0)
        container.register(MeetingPool.self) { _ async in
            made.change { $0 += 1 }
            started.open()
            _ = await release.passed()
            return MeetingPool()
        }
        .scope(.singleton)
        let host = try DoorHost.root(container, kind)

        let creation = Task { () async throws -> MeetingPool in
            try await host.resolveAwaited(MeetingPool.self)
        }
        #expect(await started.passed(), "the awaited creation never started")
        let outcome = DoorLocked<Result<MeetingPool, FrostError>?>(nil)
        let resolved = doorRunOnThread {
            outcome.value = Result { () throws(FrostError) in try host.resolveNow(MeetingPool.self)
            }
        }
        // A resolve that blocked on the creation is let go after 20 s, when the creation is
        // released; it then fails the checks below (it would get the instance).
        #expect(await resolved.passed(), "the synchronous resolve blocked on the creation")
        let releasedAfterTheResolve = !release.isOpen
        release.open()
        _ = await resolved.passed()

        #expect(releasedAfterTheResolve)
        #expect(outcome.value?.doorCode == .asyncRequired, "\(String(describing: outcome.value))")
        let pool = try await creation.value
        #expect(try host.resolveNow(MeetingPool.self) === pool)
        #expect(made.value == 1)
    }
}
