import Foundation
import Frost
import Testing

/// The delegate pattern (Dip's `resolvingProperties`, Swinject's `initCompleted`): a client
/// takes its server in its initializer, the server gets its client through a property — set by
/// an `.onCreate` hook or an `.inject` key path. Resolving either side, in `.graph` or singleton
/// scope, gives one pair wired both ways; the server's hook, which needs the client still being
/// made, runs once the client exists, before the resolve returns, once per server, and never
/// sees an error that is not a real failure. A cycle through initializers alone stays a
/// cycle.
@Suite("An initializer and a property that point at each other", .timeLimit(.minutes(1)))
struct DelegatePatternTests {
    /// Holds its client strongly, as a delegate often is held: each test breaks the pairs it
    /// made when it is done (`unpair`), so that none leaks.
    final class Server: @unchecked Sendable {
        // @unchecked: set once, by the container, before the pair is handed out.
        var client: Client?
        init() {}

        func unpair() { client = nil }
    }

    final class Client: Sendable {
        let server: Server
        init(server: Server) { self.server = server }
    }

    /// How the server gets its client.
    enum Wiring: String, CaseIterable, CustomTestStringConvertible {
        case hook
        case keyPath

        var testDescription: String { rawValue }
    }

    /// Client(server:) autowired, the server registered by a closure and wired as `wiring`
    /// says, both in `scope`; `hooks` counts the server's hook runs.
    static func container(_ scope: Scope, _ wiring: Wiring, hooks: Locked<Int>) -> Container {
        let container = Container()
        container.autowire(Client.self, Client.init(server:)).scope(scope)
        let server = container.register(Server.self) { _ in Server() }.scope(scope)
        switch wiring {
        case .hook:
            server.onCreate { r, server in
                server.client = try r.resolve(Client.self)
                hooks.withLock { $0 += 1 }
            }
        case .keyPath:
            server.inject(\.client).onCreate { _, _ in hooks.withLock { $0 += 1 } }
        }
        return container
    }

    static let scopes: [Scope] = [.graph, .singleton]

    @Test(arguments: Mode.allCases, Self.scopes)
    func resolvingTheInitializerSideGivesOnePairWiredBothWays(mode: Mode, scope: Scope) throws {
        for wiring in Wiring.allCases {
            let hooks = Locked(0)
            let resolver = try mode.resolver(Self.container(scope, wiring, hooks: hooks))
            let client = try resolver.resolve(Client.self)
            #expect(client.server.client === client, "\(wiring)")
            #expect(hooks.withLock { $0 } == 1, "\(wiring): the hook completes once")
            client.server.unpair()
        }
    }

    @Test(arguments: Mode.allCases, Self.scopes)
    func resolvingThePropertySideGivesOnePairWiredBothWays(mode: Mode, scope: Scope) throws {
        for wiring in Wiring.allCases {
            let hooks = Locked(0)
            let resolver = try mode.resolver(Self.container(scope, wiring, hooks: hooks))
            let server = try resolver.resolve(Server.self)
            let client = try #require(server.client, "\(wiring)")
            #expect(client.server === server, "\(wiring)")
            #expect(hooks.withLock { $0 } == 1, "\(wiring)")
            server.unpair()
        }
    }

    /// In singleton scope, the pair is the container's: both sides resolve to it, later and
    /// from a child.
    @Test(arguments: Mode.allCases)
    func aSingletonPairIsTheSameFromEitherSideAndThroughAChild(mode: Mode) throws {
        let hooks = Locked(0)
        let container = Self.container(.singleton, .hook, hooks: hooks)
        let client: Client
        let server: Server
        let childClient: Client
        switch mode {
        case .dictionary:
            client = try container.resolve(Client.self)
            server = try container.resolve(Server.self)
            childClient = try container.child { _ in }.resolve(Client.self)
        case .frozen:
            let frozen = try container.freeze()
            let child = try frozen.child { _ in }
            client = try child.resolve(Client.self)  // made through the child, kept in the root
            server = try frozen.resolve(Server.self)
            childClient = try frozen.resolve(Client.self)
        }
        #expect(client.server === server)
        #expect(server.client === client)
        #expect(childClient === client)
        #expect(hooks.withLock { $0 } == 1)
        server.unpair()
    }

    /// In `.graph` scope, each top-level resolve makes its own pair.
    @Test(arguments: Mode.allCases)
    func eachGraphResolveMakesItsOwnPair(mode: Mode) throws {
        let hooks = Locked(0)
        let resolver = try mode.resolver(Self.container(.graph, .hook, hooks: hooks))
        let first = try resolver.resolve(Client.self)
        let second = try resolver.resolve(Client.self)
        #expect(first !== second)
        #expect(first.server !== second.server)
        #expect(first.server.client === first)
        #expect(second.server.client === second)
        #expect(hooks.withLock { $0 } == 2)
        first.server.unpair()
        second.server.unpair()
    }

    /// Eight threads resolve the client at once, their resolves overlapping (the client's
    /// factory — the server's, for the other side — waits, at most twenty seconds, until all
    /// are in flight, and the test checks that they were): a singleton pair is made once, and
    /// every thread gets it; `.graph` gives each resolve its own pair, wired both ways.
    @Test(arguments: Self.scopes)
    func eightThreadsAtOnceGetWiredPairs(scope: Scope) async throws {
        for side in ["client", "server"] {
            let hooks = Locked(0)
            let race = RaceWitness()
            let container = Container()
            container.register(Client.self) { r in
                _ = race.waitForPeak(8)
                return Client(server: try r.resolve(Server.self))
            }.scope(scope)
            container.register(Server.self) { _ in Server() }.scope(scope)
                .onCreate { r, server in
                    server.client = try r.resolve(Client.self)
                    hooks.withLock { $0 += 1 }
                }
            let frozen = try container.freeze()
            let pairs = Locked<[(client: Client, server: Server)]>([])
            let finished = await runOnThreads(
                within: 30,
                (0..<8).map { _ in
                    {
                        if side == "client" {
                            let client = try! race.during { try frozen.resolve(Client.self) }
                            pairs.withLock { $0.append((client, client.server)) }
                        } else {
                            let server = try! race.during { try frozen.resolve(Server.self) }
                            pairs.withLock { $0.append((server.client!, server)) }
                        }
                    }
                })
            #expect(finished)
            #expect(race.peak == 8, "\(side): the race did not happen: never all in flight at once")
            let all = pairs.withLock { $0 }
            #expect(all.count == 8)
            #expect(
                all.allSatisfy { $0.client.server === $0.server && $0.server.client === $0.client })
            let distinct = Set(all.map { ObjectIdentifier($0.client) }).count
            if scope == .singleton {
                #expect(distinct == 1, "\(side)")
                #expect(hooks.withLock { $0 } == 1, "\(side)")
            } else {
                #expect(distinct == 8, "\(side)")
                #expect(hooks.withLock { $0 } == 8, "\(side)")
            }
            for pair in all { pair.server.unpair() }
        }
    }

    /// How the server's hook reaches its client, as users write it: propagating errors,
    /// swallowing them (`try?`), catching them (`do/catch`), or resolving through the
    /// container on the same thread inside `DispatchQueue.global().sync { }` (Dip's
    /// `resolveClientSync`) and catching there.
    enum HookStyle: String, CaseIterable, CustomTestStringConvertible {
        case propagates
        case tryOptional
        case catches
        case dispatchSyncCatches

        var testDescription: String { rawValue }

        /// Sets `server.client` from `resolver`; counts every error it sees in `failures`.
        func wire(_ server: Server, _ resolver: any Resolver, failures: Locked<Int>) throws {
            switch self {
            case .propagates:
                server.client = try resolver.resolve(Client.self)
            case .tryOptional:
                server.client = try? resolver.resolve(Client.self)
                if server.client == nil { failures.withLock { $0 += 1 } }
            case .catches:
                do {
                    server.client = try resolver.resolve(Client.self)
                } catch {
                    failures.withLock { $0 += 1 }
                }
            case .dispatchSyncCatches:
                DispatchQueue.global().sync {
                    do {
                        server.client = try resolver.resolve(Client.self)
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
        }
    }

    /// Engine rule 2: the server's hook never sees the internal condition of a client still
    /// being constructed, and runs once, however it handles errors — from the initializer's
    /// side, from the property's, through the resolver it gets and through the container.
    @Test(arguments: Mode.allCases, Self.scopes)
    func aHookThatCatchesErrorsSeesNoneAndRunsOnce(mode: Mode, scope: Scope) throws {
        for style in HookStyle.allCases {
            for throughContainer in [false, true] {
                let runs = Locked(0)
                let failures = Locked(0)
                let resolverBox = Locked<(any Resolver)?>(nil)
                let container = Container()
                container.autowire(Client.self, Client.init(server:)).scope(scope)
                container.register(Server.self) { _ in Server() }.scope(scope)
                    .onCreate { r, server in
                        runs.withLock { $0 += 1 }
                        let resolver = throughContainer ? resolverBox.withLock { $0 }! : r
                        try style.wire(server, resolver, failures: failures)
                    }
                let resolver = try mode.resolver(container)
                resolverBox.withLock { $0 = resolver }
                let label = "\(style), through the container: \(throughContainer)"
                let client = try resolver.resolve(Client.self)
                #expect(client.server.client === client, "\(label)")
                #expect(runs.withLock { $0 } == 1, "\(label): the hook runs once")
                #expect(failures.withLock { $0 } == 0, "\(label): the hook saw an error")
                client.server.unpair()
                if scope == .graph {
                    let server = try resolver.resolve(Server.self)
                    #expect(server.client?.server === server, "\(label)")
                    #expect(runs.withLock { $0 } == 2, "\(label)")
                    #expect(failures.withLock { $0 } == 0, "\(label)")
                    server.unpair()
                }
                // The hook holds the box, which holds the container: break the cycle.
                resolverBox.withLock { $0 = nil }
            }
        }
    }

    /// Eight threads at once resolve the client whose server's hook resolves it inside
    /// `DispatchQueue.global().sync { }` and catches errors: every thread gets a pair wired
    /// both ways, and no hook sees an error.
    @Test(arguments: Self.scopes)
    func eightThreadsWithADispatchSyncHookGetWiredPairs(scope: Scope) async throws {
        let failures = Locked(0)
        let race = RaceWitness()
        let container = Container()
        container.register(Client.self) { r in
            _ = race.waitForPeak(8)
            return Client(server: try r.resolve(Server.self))
        }.scope(scope)
        container.register(Server.self) { _ in Server() }.scope(scope)
            .onCreate { r, server in
                try HookStyle.dispatchSyncCatches.wire(server, r, failures: failures)
            }
        let frozen = try container.freeze()
        let clients = Locked<[Client]>([])
        let finished = await runOnThreads(
            within: 30,
            (0..<8).map { _ in
                {
                    let client = try! race.during { try frozen.resolve(Client.self) }
                    clients.withLock { $0.append(client) }
                }
            })
        #expect(finished)
        #expect(race.peak == 8, "the race did not happen: never all in flight at once")
        let all = clients.withLock { $0 }
        #expect(all.count == 8)
        #expect(all.allSatisfy { $0.server.client === $0 })
        #expect(failures.withLock { $0 } == 0)
        for client in all { client.server.unpair() }
    }

    /// Client(server:) and Server(client:): a cycle through initializers alone, which no order
    /// can make. `freeze()` reports it when both are autowired; a resolve reports it otherwise.
    @Test(arguments: Mode.allCases, Self.scopes)
    func aCycleThroughInitializersAloneIsStillACycle(mode: Mode, scope: Scope) throws {
        final class Left: Sendable {
            let right: Right
            init(right: Right) { self.right = right }
        }
        final class Right: Sendable {
            let left: Left
            init(left: Left) { self.left = left }
        }
        let autowired = Container()
        autowired.autowire(Left.self, Left.init(right:)).scope(scope)
        autowired.autowire(Right.self, Right.init(left:)).scope(scope)
        let frozenError = try #require(frostError { _ = try autowired.freeze() })
        #expect(frozenError.problems.contains { $0.code == .cycle })

        let closures = Container()
        closures.register(Left.self) { r in Left(right: try r.resolve(Right.self)) }.scope(scope)
        closures.register(Right.self) { r in Right(left: try r.resolve(Left.self)) }.scope(scope)
        let resolver = try mode.resolver(closures)
        let error = try #require(frostError { _ = try resolver.resolve(Left.self) })
        #expect(error.code == .cycle)
        #expect(error.dependencyPath.contains(String(reflecting: Right.self)))
    }

    /// A hook that fails for a reason of its own, once the instance it needed exists, fails
    /// the resolve; nothing half-made is kept: the next resolve makes a new pair.
    @Test(arguments: Mode.allCases)
    func aPutOffHookThatFailsFailsTheResolveAndKeepsNothing(mode: Mode) throws {
        struct Refused: Error {}
        let attempts = Locked(0)
        let container = Container()
        container.autowire(Client.self, Client.init(server:)).scope(.singleton)
        container.register(Server.self) { _ in Server() }.scope(.singleton)
            .onCreate { r, server in
                let client = try r.resolve(Client.self)
                if attempts.withLock({
                    $0 += 1
                    return $0
                }) == 1 {
                    throw Refused()
                }
                server.client = client
            }
        let resolver = try mode.resolver(container)
        let error = try #require(frostError { _ = try resolver.resolve(Client.self) })
        #expect(error.code == .factoryFailed)
        #expect(error.underlying is Refused)
        let client = try resolver.resolve(Client.self)
        #expect(client.server.client === client)
        #expect(try resolver.resolve(Server.self) === client.server)
        client.server.unpair()
    }
}
