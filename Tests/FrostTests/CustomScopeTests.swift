import Foundation
import Frost
import Testing

/// `.custom(storage)`: the storage keeps the instance until it forgets it. Engine rule 6: what
/// a custom `ScopeStorage` answers is checked, never trusted, and each container keeps its own
/// instances in a storage it shares with another.
@Suite("Custom scopes")
struct CustomScopeTests {
    final class Cart: Sendable {}
    final class Wallet: Sendable {}

    /// A storage that answers an object of its own instead of what `make` made.
    final class ForeignObjectStorage: ScopeStorage, @unchecked Sendable {
        func instance(forKey key: ScopeKey, make: () throws -> AnyObject) throws -> AnyObject {
            _ = try make()
            return NSObject()
        }

        func removeAll() {}
    }

    /// A storage that ignores the key: the first instance it keeps is its answer for every key.
    final class OneForAllStorage: ScopeStorage, @unchecked Sendable {
        private let lock = NSLock()
        private var kept: AnyObject?

        func instance(forKey key: ScopeKey, make: () throws -> AnyObject) throws -> AnyObject {
            lock.lock()
            let existing = kept
            lock.unlock()
            if let existing { return existing }
            let made = try make()
            lock.lock()
            defer { lock.unlock() }
            if let kept { return kept }
            kept = made
            return made
        }

        func removeAll() {
            lock.lock()
            kept = nil
            lock.unlock()
        }
    }

    /// A storage that keeps instances by key and remembers every key it was asked for.
    final class RecordingStorage: ScopeStorage, @unchecked Sendable {
        private let lock = NSLock()
        private var instances: [ScopeKey: AnyObject] = [:]
        private var asked: [ScopeKey] = []

        func instance(forKey key: ScopeKey, make: () throws -> AnyObject) throws -> AnyObject {
            lock.lock()
            asked.append(key)
            let existing = instances[key]
            lock.unlock()
            if let existing { return existing }
            let made = try make()
            lock.lock()
            defer { lock.unlock() }
            if let kept = instances[key] { return kept }
            instances[key] = made
            return made
        }

        func removeAll() {
            lock.lock()
            instances.removeAll()
            lock.unlock()
        }

        /// The distinct keys asked for, in the order first asked.
        var keys: [ScopeKey] {
            lock.lock()
            defer { lock.unlock() }
            var seen = Set<ScopeKey>()
            return asked.filter { seen.insert($0).inserted }
        }
    }

    /// Engine rule 6: a storage that answers an object other than the one `make` made gives
    /// `.typeMismatch`, never a crash or another object.
    @Test(arguments: Mode.allCases)
    func aStorageAnsweringAForeignObjectGivesTypeMismatch(mode: Mode) throws {
        let container = Container()
        container.register(Cart.self) { _ in Cart() }.scope(.custom(ForeignObjectStorage()))
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Cart.self) })
        #expect(error.code == .typeMismatch)
        #expect(error.description.contains(String(reflecting: Cart.self)))
    }

    /// Engine rule 6: a storage that answers the instance of another registration (it ignores
    /// the key) gives `.typeMismatch` for the second type, and the first type still resolves.
    @Test(arguments: Mode.allCases)
    func aStorageAnsweringAnotherRegistrationsInstanceGivesTypeMismatch(mode: Mode) throws {
        let storage = OneForAllStorage()
        let container = Container()
        container.register(Cart.self) { _ in Cart() }.scope(.custom(storage))
        container.register(Wallet.self) { _ in Wallet() }.scope(.custom(storage))
        let resolver = try mode.resolver(container)

        let cart = try resolver.resolve(Cart.self)
        let error = try #require(frostError { _ = try resolver.resolve(Wallet.self) })
        #expect(error.code == .typeMismatch)
        #expect(try resolver.resolve(Cart.self) === cart)
    }

    /// An instance that says which container's factory made it.
    final class Tab: Sendable {
        let id: String
        init(id: String) { self.id = id }
    }

    /// Engine rule 6: a child that overrides a custom-scoped registration of its parent with
    /// the same storage gets its own instance, and the parent keeps its own, whichever
    /// resolves first.
    @Test(arguments: ["child first", "parent first"])
    func aChildOverridingACustomScopedRegistrationInASharedStorageKeepsItsOwn(order: String)
        throws
    {
        let storage = LockedScopeStorage()
        let container = Container()
        container.register(Tab.self) { _ in Tab(id: "parent") }.scope(.custom(storage))
        let parent = try container.freeze()
        let child = try parent.child { c in
            c.register(Tab.self) { _ in Tab(id: "child") }.scope(.custom(storage))
        }

        let fromChild: Tab
        let fromParent: Tab
        if order == "child first" {
            fromChild = try child.resolve(Tab.self)
            fromParent = try parent.resolve(Tab.self)
        } else {
            fromParent = try parent.resolve(Tab.self)
            fromChild = try child.resolve(Tab.self)
        }
        #expect(fromChild.id == "child")
        #expect(fromParent.id == "parent")
        #expect(try child.resolve(Tab.self) === fromChild)
        #expect(try parent.resolve(Tab.self) === fromParent)
        #expect(storage.count == 2)
    }

    /// A parent's and a child's registrations of one key are two `ScopeKey`s; each container
    /// asks for its own registration under one key every time.
    @Test func aParentAndAChildAskASharedStorageForDifferentKeys() throws {
        let storage = RecordingStorage()
        let container = Container()
        container.register(Tab.self) { _ in Tab(id: "parent") }.scope(.custom(storage))
        let parent = try container.freeze()
        let child = try parent.child { c in
            c.register(Tab.self) { _ in Tab(id: "child") }.scope(.custom(storage))
        }

        _ = try parent.resolve(Tab.self)
        _ = try child.resolve(Tab.self)
        _ = try parent.resolve(Tab.self)
        _ = try child.resolve(Tab.self)
        let keys = storage.keys
        #expect(keys.count == 2)
        #expect(keys.allSatisfy { !$0.description.isEmpty })
        #expect(try child.resolve(Tab.self).id == "child")
        #expect(try parent.resolve(Tab.self).id == "parent")
    }

    @Test(arguments: Mode.allCases)
    func customScopeKeepsUntilItsStorageForgets(mode: Mode) throws {
        let session = LockedScopeStorage()
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.custom(session))
        let resolver = try mode.resolver(container)

        let first = try resolver.resolve(Session.self)
        #expect(try resolver.resolve(Session.self) === first)
        #expect(session.count == 1)
        session.removeAll()
        #expect(try resolver.resolve(Session.self) !== first)
    }
}
