import Frost
import Synchronization
import Testing

// The code of the "Lifetimes and scopes" article (Sources/Frost/Frost.docc/LifetimesAndScopes.md):
// `make readme-check` checks that each block between the "snippet" markers is the article's,
// character for character. Each test checks what the article says of its code.

// snippet lifetimes-delegate-types: begin
protocol NetworkClientDelegate: AnyObject, Sendable {}

final class NetworkClient: @unchecked Sendable {  // delegate is set once, before it is shared
    weak var delegate: (any NetworkClientDelegate)?
}

final class Interactor: NetworkClientDelegate {
    let client: NetworkClient
    init(client: NetworkClient) { self.client = client }
}
// snippet lifetimes-delegate-types: end

@Suite("Lifetimes and scopes snippets", .timeLimit(.minutes(1)))
struct LifetimesArticleTests {
    // MARK: The default scope

    @Test func aRegistrationThatNamesNoScopeTakesTheContainersDefault() throws {
        // snippet lifetimes-default-scope: begin
        let container = Container(defaultScope: .graph)
        container.register(Session.self) { _ in Session() }  // names no scope: .graph
        container.register(Clock.self) { _ in SystemClock() }.scope(.singleton)
        container.autowire(Parts.self, Parts.init(first:second:))  // .graph too

        let frozen = try container.freeze()
        let parts = try frozen.resolve(Parts.self)  // parts.first === parts.second
        let summary = frozen.description  // its first line ends "default scope graph"
        // snippet lifetimes-default-scope: end
        #expect(parts.first === parts.second)
        #expect(try frozen.resolve(Parts.self).first !== parts.first)  // a new graph
        let lines = summary.split(separator: "\n")
        #expect(lines.first?.hasSuffix(", default scope graph") == true, "\(summary)")
        #expect(lines.contains { $0.contains("Clock") && $0.hasSuffix("singleton") })
        #expect(Container().defaultScope == .transient)
        #expect(try Container().freeze().description.contains("default scope") == false)
    }

    /// A registration with runtime arguments stays transient; a child takes its parent's
    /// default, and its description names it.
    @Test func argumentsStayTransientAndAChildTakesItsParentsDefault() throws {
        let container = Container(defaultScope: .graph)
        container.register(Session.self) { _ in Session() }
        container.register(Parts.self) { (_: any Resolver, session: Session) in
            Parts(first: session, second: session)
        }
        let frozen = try container.freeze()
        let session = Session()
        #expect(
            try frozen.resolve(Parts.self, argument: session)
                !== frozen.resolve(Parts.self, argument: session))

        let child = try frozen.child { c in
            c.autowire(Parts.self, Parts.init(first:second:))  // names no scope
        }
        let parts = try child.resolve(Parts.self)
        #expect(parts.first === parts.second)
        #expect(try child.resolve(Parts.self) !== parts)
        let firstLine = child.description.split(separator: "\n").first
        #expect(firstLine?.hasSuffix("default scope graph") == true, "\(child.description)")
    }

    // MARK: Lazy singletons

    @Test func bootstrapLeavesALazySingletonToItsFirstResolve() async throws {
        let container = Container()
        // snippet lifetimes-lazy: begin
        container.register(Database.self) { _ in Postgres() }.scope(.singleton)
        container.autowire(ReportGenerator.self, ReportGenerator.init(database:))
            .scope(.singleton)
            .lazy()

        let frozen = try container.freeze()
        try await frozen.bootstrap()  // makes the database only
        let made = frozen.createdSingletons(of: ReportGenerator.self)  // []
        let reports = try await frozen.resolve(ReportGenerator.self)  // made now, once
        // snippet lifetimes-lazy: end
        #expect(made.isEmpty)
        #expect(frozen.createdSingletons(of: (any Database).self).count == 1)
        #expect(try await frozen.resolve(ReportGenerator.self) === reports)
        let all = frozen.createdSingletons(of: ReportGenerator.self)
        #expect(all.count == 1 && all.first === reports)
        #expect(frozen.description.contains("singleton (lazy)"), "\(frozen.description)")
    }

    /// A lazy singleton that an eager one depends on is made by `bootstrap()`, as its
    /// dependency.
    @Test func aLazySingletonThatAnEagerOneNeedsIsMadeWithIt() async throws {
        let container = Container()
        container.register(Database.self) { _ in Postgres() }.scope(.singleton)
        container.autowire(ReportGenerator.self, ReportGenerator.init(database:))
            .scope(.singleton)
            .lazy()
        container.autowire(NightlyReport.self, NightlyReport.init(reports:)).scope(.singleton)
        let frozen = try container.freeze()
        try await frozen.bootstrap()
        let made = frozen.createdSingletons(of: ReportGenerator.self)
        #expect(made.count == 1)
        #expect(try await frozen.resolve(NightlyReport.self).reports === made.first)
    }

    // MARK: Objects that point at each other

    @Test func resolvingTheInitializerSideGivesAPairWiredBothWays() throws {
        // snippet lifetimes-delegate: begin
        let container = Container()
        container.autowire(Interactor.self, Interactor.init(client:))
            .scope(.graph)
            .implements(NetworkClientDelegate.self)
        container.register(NetworkClient.self) { _ in NetworkClient() }
            .scope(.graph)
            .inject(\.delegate)

        let frozen = try container.freeze()
        let interactor = try frozen.resolve(Interactor.self)
        // interactor.client.delegate === interactor
        // snippet lifetimes-delegate: end
        #expect(interactor.client.delegate === interactor)
        let next = try frozen.resolve(Interactor.self)  // .graph: a pair per resolve
        #expect(next !== interactor && next.client !== interactor.client)
        #expect(next.client.delegate === next)
        // The property side on its own: wired while the resolve runs, but nothing holds the
        // interactor once it returns, and the delegate is weak.
        #expect(try frozen.resolve(NetworkClient.self).delegate == nil)
    }

    @Test func aSingletonPairResolvedFromThePropertySideIsTheContainers() throws {
        // snippet lifetimes-delegate-singleton: begin
        let container = Container()
        container.autowire(Interactor.self, Interactor.init(client:))
            .scope(.singleton)
            .implements(NetworkClientDelegate.self)
        container.register(NetworkClient.self) { _ in NetworkClient() }
            .scope(.singleton)
            .onCreate { r, client in
                client.delegate = try r.resolve(NetworkClientDelegate.self)
            }

        let frozen = try container.freeze()
        let client = try frozen.resolve(NetworkClient.self)  // the property side first
        // client.delegate is the interactor, whose client is this one
        // snippet lifetimes-delegate-singleton: end
        let interactor = try frozen.resolve(Interactor.self)
        #expect(client.delegate === interactor)
        #expect(interactor.client === client)
        let child = try frozen.child { _ in }
        #expect(try child.resolve(Interactor.self) === interactor)
    }

    /// A hook put off runs once, whole, once the instance it needs exists (it used to stop at
    /// the resolve that needed the missing instance and run again from the start).
    @Test func aPutOffHookRunsOnceAndCompletes() throws {
        let started = Mutex(0)
        let completed = Mutex(0)
        let container = Container()
        container.autowire(Interactor.self, Interactor.init(client:))
            .scope(.graph)
            .implements(NetworkClientDelegate.self)
        container.register(NetworkClient.self) { _ in NetworkClient() }
            .scope(.graph)
            .onCreate { r, client in
                started.withLock { $0 += 1 }
                client.delegate = try r.resolve(NetworkClientDelegate.self)
                completed.withLock { $0 += 1 }
            }
        let interactor = try container.freeze().resolve(Interactor.self)
        #expect(interactor.client.delegate === interactor)
        #expect(started.withLock { $0 } == 1)
        #expect(completed.withLock { $0 } == 1)
    }

    /// A hook that swallows errors (`try?`) is wired all the same: it never sees the partner
    /// still being constructed (it used to, and left the property unset).
    @Test func aHookThatSwallowsErrorsIsWiredAllTheSame() throws {
        let container = Container()
        container.autowire(Interactor.self, Interactor.init(client:))
            .scope(.graph)
            .implements(NetworkClientDelegate.self)
        container.register(NetworkClient.self) { _ in NetworkClient() }
            .scope(.graph)
            .onCreate { r, client in
                client.delegate = try? r.resolve(NetworkClientDelegate.self)
            }
        let interactor = try container.freeze().resolve(Interactor.self)
        #expect(interactor.client.delegate === interactor)
    }

    /// Initializers that take each other: `freeze()` reports the cycle when both are autowired,
    /// a resolve otherwise.
    @Test func aCycleThroughInitializersAloneIsACycle() throws {
        final class Left: Sendable {
            let right: Right
            init(right: Right) { self.right = right }
        }
        final class Right: Sendable {
            let left: Left
            init(left: Left) { self.left = left }
        }
        let autowired = Container()
        autowired.autowire(Left.self, Left.init(right:)).scope(.graph)
        autowired.autowire(Right.self, Right.init(left:)).scope(.graph)
        let error = #expect(throws: FrostError.self) { try autowired.freeze() }
        #expect(error?.problems.contains { $0.code == .cycle } == true)

        let closures = Container()
        closures.register(Left.self) { r in Left(right: try r.resolve(Right.self)) }.scope(.graph)
        closures.register(Right.self) { r in Right(left: try r.resolve(Left.self)) }.scope(.graph)
        let frozen = try closures.freeze()
        #expect(frostCode { _ = try frozen.resolve(Left.self) } == .cycle)
    }

    /// A pair with a side that the resolve does not keep (`.transient`, `.weak`) has no one
    /// instance to wait for: resolving the initializer side is a cycle.
    @Test(arguments: [Scope.transient, .weak])
    func aPairWhoseSidesAreNotKeptIsACycle(scope: Scope) throws {
        let container = Container()
        container.autowire(Interactor.self, Interactor.init(client:))
            .scope(scope)
            .implements(NetworkClientDelegate.self)
        container.register(NetworkClient.self) { _ in NetworkClient() }
            .scope(scope)
            .onCreate { r, client in
                client.delegate = try r.resolve(NetworkClientDelegate.self)
            }
        let frozen = try container.freeze()
        #expect(frostCode { _ = try frozen.resolve(Interactor.self) } == .cycle)
    }

    /// The code of the error `body` throws, if it throws a `FrostError`.
    func frostCode(_ body: () throws -> Void) -> FrostError.Code? {
        do {
            try body()
            return nil
        } catch let error as FrostError {
            return error.code
        } catch {
            return nil
        }
    }
}
