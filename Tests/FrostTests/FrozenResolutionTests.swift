import Frost
import Testing

/// What only the frozen container does: sizes from empty to 100,000 keys, handles, lookups by
/// canonical key, independence from the container it was frozen from.
@Suite("Frozen resolution")
struct FrozenResolutionTests {
    @Test(arguments: [0, 1, 2, 3, 7, 12, 100, 1_000, 100_000])
    func everyRegistrationResolvesToItsOwnInstance(count: Int) throws {
        let container = Container()
        for index in 0..<count {
            container.register(Int.self, name: "key-\(index)") { _ in index }
        }
        container.register(instance: "unnamed")
        let frozen = try container.freeze()
        #expect(frozen.count == count + 1)

        for index in 0..<count {
            let value = try frozen.resolve(Int.self, name: "key-\(index)")
            if value != index {
                Issue.record("key-\(index) resolved to \(value)")
                break
            }
        }
        #expect(try frozen.resolve(String.self) == "unnamed")
        #expect(frostError { _ = try frozen.resolve(Int.self) }?.code == .notRegistered)
        #expect(
            frostError { _ = try frozen.resolve(Int.self, name: "key-\(count)") }?.code
                == .notRegistered)
        #expect(frostError { _ = try frozen.resolve(Double.self) }?.code == .notRegistered)
    }

    @Test func handleResolvesTheSameAsTheType() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(Database.self, name: "primary") { _ in Primary() }
        let frozen = try container.freeze()

        let logger = try frozen.handle(for: Logger.self)
        #expect(try frozen.resolve(logger) === frozen.resolve(Logger.self))
        let primary = try frozen.handle(for: Database.self, name: "primary")
        #expect(try frozen.resolve(primary).label == "primary")
        #expect(try frozen.resolve(primary) !== frozen.resolve(primary))
        #expect(frostError { _ = try frozen.handle(for: Database.self) }?.code == .notRegistered)
    }

    @Test func canonicalKeysAreTheQualifiedTypeNameAndName() throws {
        let container = Container()
        container.register(Database.self, name: "replica") { _ in Primary() }
        container.register(Logger.self) { _ in ConsoleLogger() }
        let frozen = try container.freeze()

        #expect(frozen.contains(canonicalKey: "FrostTests.Database#replica"))
        #expect(frozen.contains(canonicalKey: "FrostTests.Logger"))
        #expect(!frozen.contains(canonicalKey: "FrostTests.Database"))
        #expect(!frozen.contains(canonicalKey: ""))
        #expect(frozen.contains(Database.self, name: "replica"))
        #expect(!frozen.contains(Database.self))
    }

    @Test func frozenContainerIgnoresLaterRegistrations() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        let frozen = try container.freeze()
        container.register(Logger.self) { _ in FileLogger() }
        container.register(instance: AppConfig(port: 1))

        #expect(try frozen.resolve(Logger.self) is ConsoleLogger)
        #expect(!frozen.contains(AppConfig.self))
        #expect(try container.resolve(Logger.self) is FileLogger)
    }

    @Test func valueTypesAndExistentialsRoundTrip() throws {
        let container = Container()
        container.register(instance: [1, 2, 3])
        container.register(instance: AppConfig(port: 9))
        container.register((any Sendable).self) { _ in 42 }
        let frozen = try container.freeze()

        #expect(try frozen.resolve([Int].self) == [1, 2, 3])
        #expect(try frozen.resolve(AppConfig.self).port == 9)
        #expect(try frozen.resolve((any Sendable).self) as? Int == 42)
    }
}
