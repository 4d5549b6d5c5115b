// The code of the "Testing with Frost" article (Sources/Frost/Frost.docc/TestingWithFrost.md),
// as the article shows it: `make readme-check` checks that each block between the "snippet"
// markers is the article's, character for character.

import Foundation
// snippet testing-freezes: begin
import Frost
import Testing

@Test func theApplicationFreezes() throws {
    let container = Container()
    registerApplication(in: container)
    _ = try container.freeze()
}
// snippet testing-freezes: end

// snippet testing-register: begin
func registerApplication(in container: Container) {
    container.register(Database.self) { _ in Postgres() }.scope(.singleton)
    container.register(Clock.self) { _ in SystemClock() }.scope(.singleton)
    container.provided(CurrentUser.self)
    container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(Database.self)) }
        .scope(.scoped)
        .onDispose { uow in uow.rollbackIfOpen() }
    container.autowire(TodoService.self, TodoService.init(clock:uow:))
    container.autowire(TodoHandler.self, TodoHandler.init(service:user:uow:))
    container.autowire(BillingService.self, BillingService.init(clock:))  // transient
    container.autowire(Scheduler.self, Scheduler.init(clock:)).scope(.singleton)
}
// snippet testing-register: end

// snippet testing-override-child: begin
struct FakeClock: Clock {
    let now: Date
}

@Test func billingUsesTheClock() throws {
    let container = Container()
    registerApplication(in: container)
    let app = try container.freeze()

    let test = try app.child { c in
        c.register(Clock.self) { _ in FakeClock(now: .distantPast) }  // overrides the parent's
        c.register(instance: CurrentUser(id: 7))  // a provided value
    }
    let billing = try test.resolve(BillingService.self)  // a transient of the parent
    #expect(billing.clock.now == .distantPast)
}
// snippet testing-override-child: end

// snippet testing-override-singleton: begin
@Test func theSchedulerUsesTheClock() throws {
    let container = Container()
    registerApplication(in: container)
    container.register(Clock.self) { _ in FakeClock(now: .distantPast) }.scope(.singleton)
    let app = try container.freeze()

    #expect(try app.resolve(Scheduler.self).clock.now == .distantPast)
}
// snippet testing-override-singleton: end

// snippet testing-errors: begin
@Test func theCurrentUserComesFromARequest() throws {
    let container = Container()
    registerApplication(in: container)
    let app = try container.freeze()

    let error = #expect(throws: FrostError.self) { try app.resolve(CurrentUser.self) }
    #expect(error?.code == .notProvided)
}
// snippet testing-errors: end

// snippet testing-request: begin
@Test func aRequestRollsBackItsUnitOfWork() async throws {
    let container = Container()
    registerApplication(in: container)
    let app = try container.freeze()

    let user = CurrentUser(id: 1)
    let uow = try await app.withChild({ c in c.register(instance: user) }) { request in
        let uow = try await request.resolve(UnitOfWork.self)
        #expect(try await request.resolve(UnitOfWork.self) === uow)  // one per child
        return uow
    }  // the child is disposed here: its hooks have run
    #expect(!uow.isOpen)
}
// snippet testing-request: end

/// The article's last example, which sets an `@Injected` property before injecting.
@Test func aPropertyATestSetIsLeftAlone() throws {
    let container = Container()
    registerApplication(in: container)
    let app = try container.freeze()

    // snippet testing-injected: begin
    final class ReportScreen {
        @Injected var clock: any Clock
        @Injected var billing: BillingService
    }

    let screen = ReportScreen()
    screen.clock = FakeClock(now: .distantPast)  // kept
    try app.inject(into: screen)  // fills `billing` only
    // snippet testing-injected: end

    #expect(screen.clock.now == .distantPast)
    #expect(screen.billing.clock is SystemClock)
}
