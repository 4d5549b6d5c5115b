// frost-smoke: freezes and resolves through every path of the public API, many times, then
// exits. Run under valgrind (`make memcheck`) to prove that the C tables, cached instances and
// errors are all freed: every allocation has one owner and one place it is freed.

import Frost

protocol Service: AnyObject, Sendable {}
final class Implementation: Service {}
final class Dependent: Sendable {
    let service: any Service
    init(_ service: any Service) { self.service = service }
}
final class Loop: Sendable {
    init(_ loop: Loop) {}
}
struct Failure: Error {}
struct User: Sendable { let id: Int }
final class UnitOfWork: Sendable {
    let user: User
    init(_ user: User) { self.user = user }
}
/// The delegate pattern: the client takes the server in its initializer, the server gets the
/// client through a hook (weakly, as a delegate is held).
final class Server: @unchecked Sendable {
    weak var client: Client?
}
final class Client: Sendable {
    let server: Server
    init(server: Server) { self.server = server }
}
final class Plugin: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}
final class Weakly: Sendable {}
final class PerGraph: Sendable {}
final class Scoped: Sendable {}
final class Level: Sendable {
    let next: Level?
    init(_ next: Level?) { self.next = next }
}

func exercise(registrations count: Int) throws {
    let container = Container()
    for index in 0..<count {
        container.register(Int.self, name: "value-\(index)") { _ in index }
    }
    container.register(Implementation.self) { _ in Implementation() }
        .scope(.singleton)
        .implements(Service.self)
    container.register(Dependent.self) { r in Dependent(try r.resolve(Service.self)) }
    container.register(instance: "configuration")
    container.register(Loop.self) { r in Loop(try r.resolve(Loop.self)) }.scope(.singleton)
    container.register(Double.self) { _ in throw Failure() }
    container.register(Weakly.self) { _ in Weakly() }.scope(.weak)
    container.register(PerGraph.self) { _ in PerGraph() }.scope(.graph)
    let storage = LockedScopeStorage()
    container.register(Scoped.self) { _ in Scoped() }.scope(.custom(storage))

    let frozen = try container.freeze()
    for index in 0..<count where try frozen.resolve(Int.self, name: "value-\(index)") != index {
        fatalError("value-\(index) resolved wrongly")
    }
    let dependent = try frozen.resolve(Dependent.self)
    let service = try frozen.resolve(Service.self)
    precondition(dependent.service === service)
    let configuration = try frozen.resolve(String.self)
    precondition(configuration == "configuration")
    let handle = try frozen.handle(for: Implementation.self)
    let viaHandle = try frozen.resolve(handle)
    precondition(viaHandle === service)
    let lent = try frozen.withResolved(handle) { $0 }
    precondition(lent === service)
    // Errors, with their messages built: a miss, a wrong name, a cycle, a factory failure.
    for attempt in [
        { _ = try frozen.resolve(Float.self) },
        { _ = try frozen.resolve(Int.self, name: "missing") },
        { _ = try frozen.resolve(Loop.self) },
        { _ = try frozen.resolve(Double.self) },
    ] as [() throws -> Void] {
        do {
            try attempt()
            fatalError("expected an error")
        } catch let error as FrostError {
            precondition(!error.description.isEmpty)
        }
    }
    // Every scope's cells, Lazy and Provider, releases while instances are held, children.
    let weak = try frozen.resolve(Weakly.self)
    let weakAgain = try frozen.resolve(Weakly.self)
    precondition(weakAgain === weak)
    _ = try frozen.resolve(PerGraph.self)
    let scoped = try frozen.resolve(Scoped.self)
    let scopedAgain = try frozen.resolve(Scoped.self)
    precondition(scopedAgain === scoped)
    let lazy = try frozen.resolve(Lazy<Dependent>.self).get()
    precondition(lazy.service === service)
    let provided = try frozen.resolve(Provider<Service>.self).resolve()
    precondition(provided === service)
    frozen.releaseCachedInstances()
    let renewed = try frozen.resolve(Service.self)
    precondition(renewed !== service)
    let child = try frozen.child { c in c.register(instance: "child") }
    let childValue = try child.resolve(String.self)
    precondition(childValue == "child")
    let throughChild = try child.resolve(Service.self)
    precondition(throughChild === renewed)
    _ = try container.resolve(Dependent.self)
    try exerciseChildrenAndPeers(container, frozen)
}

/// Per-request children (withChild, provided values, `.scoped` with hooks, put-off hooks of
/// the delegate pattern), a lazy singleton, a default scope, resolveAll through a child, and
/// disposal of both containers.
func exerciseChildrenAndPeers(_ container: Container, _ frozen: FrozenContainer) throws {
    let app = Container(defaultScope: .graph)
    app.provided(User.self)
    app.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(User.self)) }
        .scope(.scoped)
        .onDispose { _ in }
    app.register(Server.self) { _ in Server() }
        .onCreate { r, server in server.client = try r.resolve(Client.self) }
    app.autowire(Client.self, Client.init(server:))
    app.register(Implementation.self) { _ in Implementation() }.scope(.singleton).lazy()
    app.register(Plugin.self, name: "a") { _ in Plugin("a") }
    app.register(Plugin.self, name: "b") { _ in Plugin("b") }
    let frozenApp = try app.freeze()
    for id in 0..<3 {
        let uow = try frozenApp.withChild({ c in
            c.register(instance: User(id: id))
            c.register(Plugin.self, name: "b") { _ in Plugin("child-b") }
        }) { request in
            let uow = try request.resolve(UnitOfWork.self)
            let again = try request.resolve(UnitOfWork.self)
            precondition(again === uow)
            let client = try request.resolve(Client.self)
            precondition(client.server.client === client)
            let plugins = try request.resolveAll(Plugin.self).map(\.name)
            precondition(plugins.count == 2 && plugins.contains("child-b"))
            return uow
        }
        precondition(uow.user.id == id)
    }
    _ = try frozenApp.resolve(Implementation.self)
    frozenApp.dispose()
    let dictionaryChild = try container.withChild({ c in c.register(instance: 1.5) }) { child in
        try child.resolve(Double.self)
    }
    precondition(dictionaryChild == 1.5)
    frozen.dispose()
    container.dispose()
}

/// A chain of factories one level deeper than the limit: an error, not a crash; and the
/// deepest chain allowed resolves.
func exerciseDepth() throws {
    let container = Container()
    for level in 0...Container.maximumDepth {
        container.register(Level.self, name: "\(level)") { r in
            guard level < Container.maximumDepth else { return Level(nil) }
            return Level(try r.resolve(Level.self, name: "\(level + 1)"))
        }
    }
    let frozen = try container.freeze()
    do {
        _ = try frozen.resolve(Level.self, name: "0")
        fatalError("expected the depth limit")
    } catch {
        precondition(error.code == .depthLimit)
    }
    _ = try frozen.resolve(Level.self, name: "1")
}

try exerciseDepth()
for round in 0..<20 {
    for count in [0, 1, 2, 3, 7, 12, 100, round == 0 ? 10_000 : 1_000] {
        try exercise(registrations: count)
    }
}
print("frost-smoke: ok")
