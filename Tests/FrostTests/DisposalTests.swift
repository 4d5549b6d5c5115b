import Foundation
import Frost
import Testing

/// `dispose()` on both containers and their children: the `.onDispose` hooks of the instances
/// a container created and caches, in reverse order of completed creation, once; never a
/// registered instance's or a transient's; async hooks awaited; a parent's dispose does not
/// reach its children; and a disposed container refuses to resolve.
@Suite("Disposal")
struct DisposalTests {
    /// The hooks that ran, in order, and the instances they were given.
    final class Journal: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [(line: String, instance: ObjectIdentifier)] = []

        func record(_ line: String, _ instance: AnyObject) {
            lock.lock()
            recorded.append((line, ObjectIdentifier(instance)))
            lock.unlock()
        }

        var lines: [String] {
            lock.lock()
            defer { lock.unlock() }
            return recorded.map(\.line)
        }

        var instances: [ObjectIdentifier] {
            lock.lock()
            defer { lock.unlock() }
            return recorded.map(\.instance)
        }
    }

    final class Connection: Sendable {}

    final class Repository: Sendable {
        let connection: Connection
        init(connection: Connection) { self.connection = connection }
    }

    final class Cache: Sendable {}

    final class Resource: Sendable {}

    /// `.scoped`, on the parent's singleton connection.
    final class UnitOfWork: Sendable {
        let connection: Connection
        init(connection: Connection) { self.connection = connection }
    }

    /// `.scoped`, on the `.scoped` unit of work.
    final class Transaction: Sendable {
        let uow: UnitOfWork
        init(uow: UnitOfWork) { self.uow = uow }
    }

    /// Singletons' hooks run on `dispose()`, users before their dependencies, once.
    @Test(arguments: Mode.allCases)
    func hooksRunInReverseOrderOfCompletedCreationOnce(mode: Mode) throws {
        let container = Container()
        let journal = Journal()
        container.register(Connection.self) { _ in Connection() }
            .scope(.singleton)
            .onDispose { journal.record("connection", $0) }
        container.autowire(Repository.self, Repository.init(connection:))
            .scope(.singleton)
            .onDispose { journal.record("repository", $0) }
        container.register(Cache.self) { _ in Cache() }
            .scope(.singleton)
            .onDispose { journal.record("cache", $0) }
        container.register(Resource.self) { _ in Resource() }  // never resolved: never made
            .scope(.singleton)
            .onDispose { journal.record("unused", $0) }
        let family = try mode.family(container)

        let repository = try family.resolver.resolve(Repository.self)
        let cache = try family.resolver.resolve(Cache.self)
        #expect(journal.lines.isEmpty)
        family.dispose()
        #expect(journal.lines == ["cache", "repository", "connection"])
        #expect(
            journal.instances == [
                ObjectIdentifier(cache), ObjectIdentifier(repository),
                ObjectIdentifier(repository.connection),
            ])
        family.dispose()
        #expect(journal.lines == ["cache", "repository", "connection"])
    }

    /// Several hooks on one registration all run, in the order they were added, on the one
    /// instance: a singleton's and a living `.weak` one's.
    @Test(arguments: Mode.allCases)
    func severalHooksOfOneRegistrationRunInTheOrderAdded(mode: Mode) throws {
        let container = Container()
        let journal = Journal()
        container.register(Connection.self) { _ in Connection() }
            .scope(.singleton)
            .onDispose { journal.record("connection 1", $0) }
            .onDispose { journal.record("connection 2", $0) }
            .onDispose { journal.record("connection 3", $0) }
        container.register(Resource.self) { _ in Resource() }
            .scope(.weak)
            .onDispose { journal.record("resource 1", $0) }
            .onDispose { journal.record("resource 2", $0) }
        let family = try mode.family(container)

        let connection = try family.resolver.resolve(Connection.self)
        let resource = try family.resolver.resolve(Resource.self)
        family.dispose()
        #expect(
            journal.lines == [
                "resource 1", "resource 2", "connection 1", "connection 2", "connection 3",
            ])
        #expect(
            journal.instances
                == [ObjectIdentifier(resource), ObjectIdentifier(resource)]
                + Array(repeating: ObjectIdentifier(connection), count: 3))
        withExtendedLifetime((connection, resource)) {}
    }

    /// Only what the container made and caches is disposed: a living `.weak`, not a gone one.
    @Test(arguments: Mode.allCases)
    func onlyInstancesTheContainerCreatedAndStillCachesAreDisposed(mode: Mode) throws {
        let container = Container()
        let journal = Journal()
        container.register(Resource.self, name: "kept") { _ in Resource() }
            .scope(.weak)
            .onDispose { journal.record("kept", $0) }
        container.register(Resource.self, name: "gone") { _ in Resource() }
            .scope(.weak)
            .onDispose { journal.record("gone", $0) }
        container.register(instance: Resource(), name: "instance")
        // A registered instance and a transient carry no `.onDispose` hook: `freeze()` rejects
        // one on either (see "Freezing accepts only what resolving can do").
        container.register(Resource.self, name: "transient") { _ in Resource() }
        let family = try mode.family(container)

        let kept = try family.resolver.resolve(Resource.self, name: "kept")
        _ = try family.resolver.resolve(Resource.self, name: "gone")  // nobody holds it
        let instance = try family.resolver.resolve(Resource.self, name: "instance")
        let transient = try family.resolver.resolve(Resource.self, name: "transient")
        _ = try family.resolver.resolve(Resource.self, name: "transient")
        family.dispose()
        #expect(journal.lines == ["kept"])
        #expect(journal.instances == [ObjectIdentifier(kept)])
        withExtendedLifetime((kept, instance, transient)) {}
    }

    /// A hook added before the scope changes follows the instance the new scope tracks: a
    /// `.weak` one in a weak box, a singleton in its box (the hooks are rebuilt for the new
    /// scope, not kept from the old one).
    @Test(arguments: Mode.allCases)
    func aHookAddedBeforeTheScopeChangesRunsOnTheInstanceTheNewScopeKeeps(mode: Mode) throws {
        let container = Container()
        let journal = Journal()
        container.register(Resource.self, name: "weak") { _ in Resource() }
            .onDispose { journal.record("weak", $0) }
            .scope(.weak)
        container.register(Resource.self, name: "singleton") { _ in Resource() }
            .scope(.weak)
            .onDispose { journal.record("singleton", $0) }
            .scope(.singleton)
        let family = try mode.family(container)

        let weak = try family.resolver.resolve(Resource.self, name: "weak")
        let singleton = try family.resolver.resolve(Resource.self, name: "singleton")
        family.dispose()
        #expect(Set(journal.lines) == ["weak", "singleton"])
        #expect(Set(journal.instances) == [ObjectIdentifier(weak), ObjectIdentifier(singleton)])
        withExtendedLifetime((weak, singleton)) {}
    }

    /// A child's dispose runs its `.scoped` hooks only; the parent's dispose does not reach it.
    @Test(arguments: Mode.allCases)
    func aChildDisposesItsOwnInstancesAndItsParentsDisposeDoesNotReachIt(mode: Mode) throws {
        let container = Container()
        let journal = Journal()
        container.register(Connection.self) { _ in Connection() }
            .scope(.singleton)
            .onDispose { journal.record("connection", $0) }
        container.autowire(UnitOfWork.self, UnitOfWork.init(connection:))
            .scope(.scoped)
            .onDispose { journal.record("uow", $0) }
        container.autowire(Transaction.self, Transaction.init(uow:))
            .scope(.scoped)
            .onDispose { journal.record("transaction", $0) }
        let parent = try mode.family(container)
        let first = try parent.child()
        let second = try parent.child()

        let transaction = try first.resolver.resolve(Transaction.self)  // the connection too
        let other = try second.resolver.resolve(UnitOfWork.self)
        #expect(other !== transaction.uow)
        first.dispose()
        #expect(journal.lines == ["transaction", "uow"])  // not the parent's connection
        first.dispose()
        #expect(journal.lines == ["transaction", "uow"])
        parent.dispose()
        #expect(journal.lines == ["transaction", "uow", "connection"])  // not second's uow
        second.dispose()
        #expect(journal.lines == ["transaction", "uow", "connection", "uow"])
        #expect(
            journal.instances == [
                ObjectIdentifier(transaction), ObjectIdentifier(transaction.uow),
                ObjectIdentifier(transaction.uow.connection), ObjectIdentifier(other),
            ])
    }

    /// In a child too, neither a transient's hook nor a registered instance's ever runs.
    @Test(arguments: Mode.allCases)
    func aChildDisposesNeitherTransientsNorRegisteredInstances(mode: Mode) throws {
        let container = Container()
        let journal = Journal()
        // Transients carry no `.onDispose` hook: `freeze()` rejects one (they are never
        // tracked), nor do registered instances (never made).
        container.register(Resource.self) { _ in Resource() }
        container.register(Cache.self) { _ in Cache() }
            .scope(.scoped)
            .onDispose { journal.record("scoped", $0) }
        let parent = try mode.family(container)
        let child = try parent.child { c in
            c.register(Connection.self) { _ in Connection() }
            // A registered instance carries no `.onDispose` hook: `freeze()` rejects one.
            c.register(instance: Resource(), name: "instance")
        }

        let resources = try (0..<3).map { _ in try child.resolver.resolve(Resource.self) }
        let connection = try child.resolver.resolve(Connection.self)
        let instance = try child.resolver.resolve(Resource.self, name: "instance")
        let cache = try child.resolver.resolve(Cache.self)
        child.dispose()
        parent.dispose()
        #expect(journal.lines == ["scoped"])
        #expect(journal.instances == [ObjectIdentifier(cache)])
        withExtendedLifetime((resources, connection, instance)) {}
    }

    /// A disposed parent's registrations are refused through a child that lives on: its
    /// transients too, whether a closure or an initializer makes them.
    @Test(arguments: Mode.allCases)
    func aDisposedParentsTransientsAreRefusedThroughItsChild(mode: Mode) throws {
        let container = Container()
        container.register(Cache.self) { _ in Cache() }
        container.autowire(Connection.self, Connection.init)
        let parent = try mode.family(container)
        let child = try parent.child()
        _ = try child.resolver.resolve(Cache.self)

        parent.dispose()
        let resolver = child.resolver
        #expect(frostError { _ = try resolver.resolve(Cache.self) }?.code == .disposed)
        #expect(frostError { _ = try resolver.resolve(Connection.self) }?.code == .disposed)
    }

    /// After `dispose()`, every resolve through that container throws `.disposed`.
    @Test(arguments: Mode.allCases)
    func resolvingThroughADisposedContainerThrowsDisposed(mode: Mode) throws {
        let container = Container()
        container.register(Connection.self) { _ in Connection() }.scope(.singleton)
        container.register(instance: AppConfig(port: 1))
        container.register(Cache.self) { _ in Cache() }
        container.register(Resource.self) { _ in Resource() }.scope(.scoped)
        let parent = try mode.family(container)
        let child = try parent.child()
        let connection = try child.resolver.resolve(Connection.self)
        _ = try child.resolver.resolve(Resource.self)

        child.dispose()
        let resolver = child.resolver
        #expect(frostError { _ = try resolver.resolve(Connection.self) }?.code == .disposed)
        #expect(frostError { _ = try resolver.resolve(AppConfig.self) }?.code == .disposed)
        #expect(frostError { _ = try resolver.resolve(Cache.self) }?.code == .disposed)
        #expect(frostError { _ = try resolver.resolve(Resource.self) }?.code == .disposed)
        #expect(frostError { _ = try resolver.resolve(Lazy<Cache>.self) }?.code == .disposed)
        #expect(frostError { _ = try resolver.resolve(Provider<Cache>.self) }?.code == .disposed)
        #expect(frostError { _ = try resolver.resolve(Cache?.self) }?.code == .disposed)
        #expect(try parent.resolver.resolve(Connection.self) === connection)  // parent's own

        parent.dispose()
        let root = parent.resolver
        #expect(frostError { _ = try root.resolve(Connection.self) }?.code == .disposed)
        #expect(frostError { _ = try root.resolve(AppConfig.self) }?.code == .disposed)
        #expect(frostError { _ = try root.resolve(Cache.self) }?.code == .disposed)
    }

    @Test func anAwaitedDisposeRunsAsyncHooksNewestFirst() async throws {
        let journal = Locked<[String]>([])
        let container = Container()
        container.register(AsyncPool.self) { _ async in AsyncPool(id: 1) }
            .scope(.singleton)
            .onDispose { _ async in
                try? await Task.sleep(for: .milliseconds(5))
                journal.withLock { $0.append("pool") }
            }
        container.autowire(AsyncRepository.self, AsyncRepository.init(pool:))
            .scope(.singleton)
            .onDispose { _ in journal.withLock { $0.append("repository") } }
        let frozen = try container.freeze()
        try await frozen.bootstrap()
        await frozen.dispose()
        #expect(journal.withLock { $0 } == ["repository", "pool"])
        do {
            _ = try await frozen.resolve(AsyncPool.self)
            Issue.record("a disposed container resolved")
        } catch {
            #expect(error.code == .disposed)
        }
    }
}
