import Testing

@testable import Frost

/// Near misses: what a miss suggests — the names registered for the type, closest first (found
/// in one bounded pass, among a million too), a conformer of a protocol, a child's
/// registrations — and never a type whose name merely contains the missed one's.
@Suite("Near misses")
struct NearMissTests {
    /// Levenshtein distance, the plain way: what the banded one must agree with.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1,
                    previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    @Test(arguments: [0, 1, 2, 3, 5])
    func theBandedDistanceAgreesWithThePlainOneWithinItsBound(bound: Int) {
        var random = SplitMix(seed: UInt64(bound) + 11)
        var rows: [Int] = []
        for _ in 0..<2_000 {
            let a = (0..<Int.random(in: 0...9, using: &random)).map { _ in
                UInt8.random(in: 97...100, using: &random)
            }
            let b = (0..<Int.random(in: 0...9, using: &random)).map { _ in
                UInt8.random(in: 97...100, using: &random)
            }
            rows = [Int](repeating: 0, count: 2 * (a.count + 1))
            let banded = b.withUnsafeBufferPointer {
                Catalog.boundedDistance(a, $0, bound: bound, rows: &rows)
            }
            let plain = Self.distance(a, b)
            #expect(banded == (plain <= bound ? plain : nil), "\(a) \(b)")
        }
    }

    @Test func theClosestNamesComeFirst() {
        let names = ["replica", "primary", "replicas", "archive", "reporter"]
        #expect(Catalog.closest(to: "replcia", among: names, limit: 2) == ["replica", "replicas"])
        #expect(Catalog.closest(to: "zzzzzzz", among: names, limit: 2).isEmpty)
    }

    @Test(arguments: [
        ("ConsoleLogger", "Logger", true), ("LoggerImpl", "Logger", true),
        ("Logger", "Logger", false), ("Int", "Printer", false), ("Blogger", "Logger", false),
        ("Printers", "Printer", false), ("LoggerFactory", "Logger", true),
    ])
    func aConformerIsNamedForItsProtocolAsAWholeWord(name: String, wanted: String, yes: Bool) {
        #expect(Catalog.looksLikeConformer(name, of: wanted) == yes)
    }

    // MARK: What a miss suggests

    @Test(arguments: Mode.allCases)
    func wrongNameListsTheNamesThatExist(mode: Mode) throws {
        let container = Container()
        container.register(Database.self, name: "replica") { _ in Primary() }
        container.register(Database.self, name: "primary") { _ in Primary() }
        let resolver = try mode.resolver(container)

        let error = try #require(
            frostError { _ = try resolver.resolve(Database.self, name: "replcia") })
        #expect(error.code == .notRegistered)
        #expect(error.description.contains(#"FrostTests.Database named "replcia""#))
        #expect(error.nearMisses.contains { $0.contains(#"name "replica""#) })
        #expect(error.nearMisses.contains { $0.contains(#"name "primary""#) })
        let unnamed = try #require(frostError { _ = try resolver.resolve(Database.self) })
        #expect(unnamed.nearMisses.count == 2)
    }

    @Test(arguments: Mode.allCases)
    func protocolWithoutImplementsSuggestsTheConformer(mode: Mode) throws {
        let container = Container()
        container.register(ConsoleLogger.self) { _ in ConsoleLogger() }
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Logger.self) })
        #expect(error.description.contains("FrostTests.ConsoleLogger"))
        #expect(error.description.contains(".implements(Logger.self)"))
    }

    /// A protocol whose name contains a registered type's name (`Printer` contains `Int`) is
    /// not suggested that type; a protocol with a registered conformer still gets it.
    @Test(arguments: Mode.allCases)
    func nearMissesDoNotMatchASubstringOfAnotherName(mode: Mode) throws {
        let container = Container()
        container.register(instance: 1)
        container.register(instance: "text")
        container.register(ConsoleLogger.self) { _ in ConsoleLogger() }
        let resolver = try mode.resolver(container)

        let printer = try #require(frostError { _ = try resolver.resolve((any Printer).self) })
        #expect(printer.code == .notRegistered)
        #expect(!printer.nearMisses.contains { $0.hasPrefix("Swift.Int") }, "\(printer.nearMisses)")
        let logger = try #require(frostError { _ = try resolver.resolve(Logger.self) })
        #expect(logger.nearMisses.contains { $0.hasPrefix("FrostTests.ConsoleLogger") })
    }

    /// A miss on `[String: Int]` suggests neither `String` nor `Int`, whose names it contains.
    @Test(arguments: Mode.allCases)
    func aMissOnADictionaryTypeSuggestsNeitherItsKeyNorItsValueType(mode: Mode) throws {
        let container = Container()
        container.register(instance: 1)
        container.register(instance: "text")
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve([String: Int].self) })
        #expect(error.code == .notRegistered)
        #expect(!error.nearMisses.contains { $0.hasPrefix("Swift.String") }, "\(error.nearMisses)")
        #expect(!error.nearMisses.contains { $0.hasPrefix("Swift.Int") }, "\(error.nearMisses)")
    }

    /// Among 1,000,000 names of one type, a miss one letter away from a name ("itm-123456")
    /// lists that name ("item-123456") in its message.
    @Test(arguments: Mode.allCases)
    func aMissAmongAMillionNamesListsTheCloseName(mode: Mode) throws {
        let container = Container()
        for index in 0..<1_000_000 {
            container.register(Session.self, name: "item-\(index)") { _ in Session() }
        }
        let resolver = try mode.resolver(container)

        let error = try #require(
            frostError { _ = try resolver.resolve(Session.self, name: "itm-123456") })
        #expect(error.code == .notRegistered)
        let message = error.description  // near misses are computed when it is read
        #expect(message.contains(#"name "item-123456""#), "\(message)")
    }

    /// A miss through a child lists the child's registration of the type among its near misses.
    @Test(arguments: Mode.allCases)
    func aMissThroughAChildListsTheChildsNearMisses(mode: Mode) throws {
        let container = Container()
        container.register(instance: 1.5)
        let parent = try mode.family(container)
        let child = try parent.child { c in c.register(instance: 2.5, name: "child") }

        let error = try #require(
            frostError { _ = try child.resolver.resolve(Double.self, name: "chlid") })
        #expect(error.code == .notRegistered)
        #expect(error.nearMisses.contains { $0.contains(#"name "child""#) }, "\(error.nearMisses)")
        #expect(error.nearMisses.contains { $0.hasPrefix("Swift.Double (unnamed)") })
        #expect(error.description.contains(#"name "child""#), "\(error)")
        #expect(try child.resolver.resolve(Double.self, name: "child") == 2.5)
        #expect(try child.resolver.resolve(Double.self) == 1.5)
    }
}

/// A protocol whose name contains `Int`; nothing conforms to it.
protocol Printer {}
