import Foundation
import Frost
import Testing

/// The lookup, the one thing the two containers do differently: the dictionary of a
/// `Container` and the perfect-hash table of a `FrozenContainer` find the same registration
/// for a type and a name (names equal as Swift strings are one name; types that print alike
/// are two keys), through `.implements` forwards and aliases, after a later registration
/// replaced an earlier one; `resolveAll` finds every registration of a type in order; a frozen
/// container holds from empty to 100,000 keys, by canonical key too, and ignores what is
/// registered after it was frozen.
@Suite("Both containers find a registration alike")
struct LookupTests {
    @Test(arguments: Mode.allCases)
    func factoriesResolveTheirDependencies(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 5432))
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.register(Database.self, name: "replica") { r in
            Replica(try r.resolve(AppConfig.self))
        }
        container.register(UserService.self) { r in
            UserService(
                logger: try r.resolve(Logger.self),
                db: try r.resolve(Database.self, name: "replica"))
        }
        let resolver = try mode.resolver(container)

        let service = try resolver.resolve(UserService.self)
        #expect(service.db.label == "replica:5432")
        #expect(service.logger === (try resolver.resolve(Logger.self)))
    }

    // MARK: Names and types

    @Test(arguments: Mode.allCases)
    func namesSelectAmongRegistrationsOfOneType(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 1))
        container.register(Database.self) { _ in Primary() }
        container.register(Database.self, name: "replica") { r in
            Replica(try r.resolve(AppConfig.self))
        }
        container.register(Database.self, name: "") { _ in Primary() }
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(Database.self).label == "primary")
        #expect(try resolver.resolve(Database.self, name: "replica").label == "replica:1")
        #expect(try resolver.resolve(Database.self, name: "").label == "primary")
    }

    /// Names that are equal as Swift strings (NFC "café" and NFD "café") find the same
    /// registration in both containers.
    @Test(arguments: Mode.allCases)
    func namesEqualAsStringsFindTheSameRegistration(mode: Mode) throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        try #require(composed == decomposed)
        let container = Container()
        container.register(instance: AppConfig(port: 1), name: composed)
        container.register(Database.self, name: decomposed) { _ in Primary() }
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(AppConfig.self, name: decomposed).port == 1)
        #expect(try resolver.resolve(Database.self, name: composed).label == "primary")
    }

    /// A name finds its registration however the string that carries it was made: a literal,
    /// one built at run time, a long one (not stored inline), a substring made a string, one
    /// that differs from a registered name in its last character, or the name of another
    /// type's registration; a name that is not registered is not found.
    @Test(arguments: Mode.allCases)
    func namesAreFoundHoweverTheirStringsWereMade(mode: Mode) throws {
        let long = "a-registration-name-longer-than-fifteen-bytes"
        let container = Container()
        container.register(instance: AppConfig(port: 1), name: "primary")
        container.register(instance: AppConfig(port: 2), name: "primarz")
        container.register(instance: AppConfig(port: 3), name: long)
        container.register(Database.self, name: "primary") { _ in Primary() }
        let resolver = try mode.resolver(container)

        let built = ["pri", "mary"].joined()
        let longBuilt = String(long.prefix(20)) + String(long.dropFirst(20))
        let sliced = String("the primary one".split(separator: " ")[1])
        #expect(try resolver.resolve(AppConfig.self, name: "primary").port == 1)
        #expect(try resolver.resolve(AppConfig.self, name: built).port == 1)
        #expect(try resolver.resolve(AppConfig.self, name: sliced).port == 1)
        #expect(try resolver.resolve(AppConfig.self, name: "primarz").port == 2)
        #expect(try resolver.resolve(AppConfig.self, name: long).port == 3)
        #expect(try resolver.resolve(AppConfig.self, name: longBuilt).port == 3)
        #expect(try resolver.resolve(Database.self, name: built).label == "primary")
        #expect(throws: FrostError.self) { try resolver.resolve(AppConfig.self, name: "prim") }
        #expect(throws: FrostError.self) { try resolver.resolve(Database.self, name: "primarz") }
    }

    typealias PlainParameter = (() -> Int) -> Int

    typealias EscapingParameter = (@escaping () -> Int) -> Int

    /// Two function types that print alike (one with an `@escaping` parameter) are two keys:
    /// both register, freeze, and resolve to their own instance.
    @Test(arguments: Mode.allCases)
    func functionTypesThatPrintAlikeAreDifferentRegistrations(mode: Mode) throws {
        try #require(PlainParameter.self != EscapingParameter.self)
        try #require(
            String(reflecting: PlainParameter.self) == String(reflecting: EscapingParameter.self))
        let plain: PlainParameter = { body in body() }
        let escaping: EscapingParameter = { body in body() + 1 }
        let container = Container()
        container.register(instance: plain)
        container.register(instance: escaping)
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(PlainParameter.self)({ 1 }) == 1)
        #expect(try resolver.resolve(EscapingParameter.self)({ 1 }) == 2)
    }

    @Test(arguments: Mode.allCases)
    func laterRegistrationReplacesEarlierOne(mode: Mode) throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        container.register(Logger.self) { _ in FileLogger() }.scope(.singleton)
        #expect(container.count == 1)
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(Logger.self) is FileLogger)
    }

    // MARK: Forwards and aliases

    @Test(arguments: Mode.allCases)
    func implementsForwardsEveryTypeToOneSingleton(mode: Mode) throws {
        let container = Container()
        container.register(FileLogger.self) { _ in FileLogger() }
            .scope(.singleton)
            .implements(Logger.self, Sink.self)
        let resolver = try mode.resolver(container)

        let file = try resolver.resolve(FileLogger.self)
        #expect(try resolver.resolve(Logger.self) === file)
        #expect(try resolver.resolve(Sink.self) === file)
    }

    @Test(arguments: Mode.allCases)
    func implementsFollowsAScopeSetAfterIt(mode: Mode) throws {
        let container = Container()
        container.register(FileLogger.self) { _ in FileLogger() }
            .implements(Logger.self)
            .scope(.singleton)
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(Logger.self) === resolver.resolve(Logger.self))
    }

    @Test(arguments: Mode.allCases)
    func implementsOfATypeTheInstanceIsNotThrowsTypeMismatch(mode: Mode) throws {
        let container = Container()
        container.register(instance: AppConfig(port: 1)).implements(Logger.self)
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve(Logger.self) })
        #expect(error.code == .typeMismatch)
        #expect(error.description.contains("AppConfig"))
        #expect(error.description.contains("Logger"))
    }

    @Test(arguments: Mode.allCases)
    func aliasResolvesTheSameRegistration(mode: Mode) throws {
        let container = Container()
        container.register(Database.self, name: "primary") { _ in Primary() }
            .scope(.singleton)
            .alias("default")
        let resolver = try mode.resolver(container)

        #expect(
            try resolver.resolve(Database.self, name: "default")
                === resolver.resolve(Database.self, name: "primary"))
    }

    @Test func resolveAllReturnsEveryRegistrationInOrder() throws {
        let container = Container()
        container.register((any Plugin).self, name: "b") { _ in NamedPlugin(id: "b") }
        container.register((any Plugin).self) { _ in NamedPlugin(id: "unnamed") }
        container.register((any Plugin).self, name: "a") { _ in NamedPlugin(id: "a") }
        container.register(Logger.self) { _ in ConsoleLogger() }
        let frozen = try container.freeze()

        let plugins: [any Plugin] = try frozen.resolveAll((any Plugin).self)
        #expect(plugins.map(\.id) == ["b", "unnamed", "a"])
        #expect(try frozen.resolveAll(Session.self).isEmpty)
    }

    /// `resolveAll`'s index is built on a frozen container's first `resolveAll`: four threads
    /// asking at once, on a container that never answered one, all get every registration of
    /// the type, in order (the index is installed once; the thread sanitizer checks the rest).
    @Test func resolveAllFromFourThreadsAtOnceOnItsFirstUse() async throws {
        let container = Container()
        for index in 0..<40 {
            container.register(Int.self, name: "n\(index)") { _ in index }
            container.register(String.self, name: "s\(index)") { _ in "\(index)" }
        }
        let mismatches = Counter()
        for _ in 0..<20 {
            let frozen = try container.freeze()
            // The four start their resolveAll together: each waits for the others to be up.
            let started = Counter()
            let bodies = (0..<4).map { thread in
                { @Sendable in
                    started.increment()
                    while started.value < 4 {}
                    let answer =
                        thread.isMultiple(of: 2)
                        ? (try? frozen.resolveAll(Int.self)) == Array(0..<40)
                        : (try? frozen.resolveAll(String.self)) == (0..<40).map { "\($0)" }
                    if !answer { mismatches.increment() }
                }
            }
            guard await runOnThreads(within: 50, bodies) else {
                Issue.record("deadlock: four threads' resolveAll did not finish within 50 s")
                return
            }
        }
        #expect(mismatches.value == 0)
    }

    /// Types registered interleaved, many of them: each type's registrations come back in
    /// registration order, and no other type's (the frozen container keeps them sorted by
    /// type, not by registration).
    @Test func resolveAllKeepsEachTypesOrderAmongInterleavedTypes() throws {
        let container = Container()
        var expected: [Int: [String]] = [:]
        for index in 0..<60 {
            let name = "n\(index)"
            switch index % 4 {
            case 0:
                container.register(Int.self, name: name) { _ in index }
                expected[0, default: []].append(name)
            case 1:
                container.register((any Plugin).self, name: name) { _ in NamedPlugin(id: name) }
                expected[1, default: []].append(name)
            case 2:
                container.register(String.self, name: name) { _ in name }
                expected[2, default: []].append(name)
            default:
                container.register(Double.self, name: name) { _ in Double(index) }
                expected[3, default: []].append(name)
            }
        }
        let frozen = try container.freeze()
        #expect(try frozen.resolveAll(Int.self).map { "n\($0)" } == expected[0])
        #expect(try frozen.resolveAll((any Plugin).self).map(\.id) == expected[1])
        #expect(try frozen.resolveAll(String.self) == expected[2])
        #expect(try frozen.resolveAll(Double.self).map { "n\(Int($0))" } == expected[3])
        #expect(try frozen.resolveAll(Session.self).isEmpty)
        #expect(try container.resolveAll(Int.self).map { "n\($0)" } == expected[0])
        #expect(try container.resolveAll((any Plugin).self).map(\.id) == expected[1])
        #expect(try container.resolveAll(String.self) == expected[2])
        #expect(try container.resolveAll(Double.self).map { "n\(Int($0))" } == expected[3])
        #expect(try container.resolveAll(Session.self).isEmpty)
    }

    /// A child that registers new keys of several types, interleaved: its `resolveAll` gives
    /// its own registrations of a type, in its registration order, then its parent's.
    @Test func aChildsResolveAllKeepsItsOwnOrderThenItsParents() throws {
        let container = Container()
        container.register(Int.self, name: "p0") { _ in 100 }
        container.register(String.self, name: "p1") { _ in "p1" }
        container.register(Int.self, name: "p2") { _ in 102 }
        let root = try container.freeze()
        let configure: (Container) -> Void = { c in
            for index in 0..<24 {
                if index % 3 == 0 {
                    c.register(Int.self, name: "c\(index)") { _ in index }
                } else if index % 3 == 1 {
                    c.register(String.self, name: "c\(index)") { _ in "c\(index)" }
                } else {
                    c.register(Double.self, name: "c\(index)") { _ in Double(index) }
                }
            }
        }
        let frozenChild = try root.child(configure)
        let dictionaryChild = container.child(configure)
        let ints = Array(stride(from: 0, to: 24, by: 3)) + [100, 102]
        let strings = stride(from: 1, to: 24, by: 3).map { "c\($0)" } + ["p1"]
        let doubles = stride(from: 2, to: 24, by: 3).map(Double.init)
        #expect(try frozenChild.resolveAll(Int.self) == ints)
        #expect(try frozenChild.resolveAll(String.self) == strings)
        #expect(try frozenChild.resolveAll(Double.self) == doubles)
        #expect(try dictionaryChild.resolveAll(Int.self) == ints)
        #expect(try dictionaryChild.resolveAll(String.self) == strings)
        #expect(try dictionaryChild.resolveAll(Double.self) == doubles)
    }

    // MARK: The frozen table

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

    /// A name is found the same way on every lookup, however its string is held: many names
    /// of two types, resolved three times in different orders, by run-time strings short
    /// (held in the `String` itself, looked up by those two words) and long (by their bytes),
    /// through a child too; a string mutated after a lookup finds its new name; NFC and NFD
    /// spellings of one name, looked up alternately, find it.
    @Test(arguments: Mode.allCases)
    func namesAreFoundAlikeOnEveryLookup(mode: Mode) throws {
        let count = 3_000
        func name(_ index: Int) -> String {
            index.isMultiple(of: 3)
                ? "a-long-name-of-more-than-fifteen-bytes-\(index)" : "n\(index)"
        }
        let container = Container()
        for index in 0..<count {
            container.register(instance: AppConfig(port: index), name: name(index))
            container.register(Database.self, name: name(index)) { _ in
                Replica(AppConfig(port: -index))
            }
        }
        container.register(instance: AppConfig(port: -1), name: "caf\u{E9}")
        let resolver = try mode.resolver(container)
        let frozen = try container.freeze()
        let child = try frozen.child { $0.register(instance: 1) }

        let orders = [
            Array(0..<count), Array((0..<count).reversed()),
            (0..<count).map { ($0 * 7_919) % count },
        ]
        for order in orders {
            for index in order {
                let made = name(index)
                #expect(try resolver.resolve(AppConfig.self, name: made).port == index)
                #expect(
                    try resolver.resolve(Database.self, name: made).label == "replica:\(-index)")
                #expect(try child.resolve(AppConfig.self, name: made).port == index)
            }
        }
        #expect(try resolver.resolve(AppConfig.self, name: "n1").port == 1)
        #expect(try resolver.resolve(AppConfig.self, name: "n1").port == 1)

        var mutated = "n\(count - 1)"
        #expect(try resolver.resolve(AppConfig.self, name: mutated).port == count - 1)
        mutated.removeLast()
        mutated += "8"
        #expect(try resolver.resolve(AppConfig.self, name: mutated).port == count - 2)
        var longMutated = name(count - 3)
        #expect(try resolver.resolve(AppConfig.self, name: longMutated).port == count - 3)
        longMutated.removeLast()
        longMutated += "4"
        #expect(try resolver.resolve(AppConfig.self, name: longMutated).port == count - 6)
        #expect(throws: FrostError.self) { try resolver.resolve(AppConfig.self, name: "n\(count)") }

        for _ in 0..<3 {
            #expect(try resolver.resolve(AppConfig.self, name: "cafe\u{301}").port == -1)
            #expect(try resolver.resolve(AppConfig.self, name: "caf\u{E9}").port == -1)
        }
    }

    /// A named singleton found by its small name is made anew after `releaseCachedInstances()`,
    /// and a named resolve after `dispose()` fails with `.disposed`; a child that overrides a
    /// named key answers its own registration, though the parent found that name first.
    @Test func namedLookupsFollowTheContainersLife() throws {
        let container = Container()
        container.register(Database.self, name: "replica") { _ in Primary() }.scope(.singleton)
        container.register(instance: AppConfig(port: 1), name: "port")
        let frozen = try container.freeze()
        let first = try frozen.resolve(Database.self, name: "replica")
        #expect(try frozen.resolve(Database.self, name: "replica") === first)
        #expect(try frozen.resolve(AppConfig.self, name: "port").port == 1)

        let child = try frozen.child { c in
            c.register(instance: AppConfig(port: 2), name: "port")
            c.register(Database.self, name: "replica") { _ in Replica(AppConfig(port: 2)) }
        }
        #expect(try child.resolve(AppConfig.self, name: "port").port == 2)
        #expect(try child.resolve(Database.self, name: "replica").label == "replica:2")
        #expect(try frozen.resolve(AppConfig.self, name: "port").port == 1)

        frozen.releaseCachedInstances()
        let second = try frozen.resolve(Database.self, name: "replica")
        #expect(second !== first)
        #expect(try frozen.resolve(Database.self, name: "replica") === second)

        frozen.dispose()
        let error = frostError { _ = try frozen.resolve(Database.self, name: "replica") }
        #expect(error?.code == .disposed)
    }

    /// Threads that look names up at once, the first time, each find their own registration.
    @Test(.timeLimit(.minutes(1)))
    func namesLookedUpFromManyThreadsAtOnceFindTheirRegistrations() throws {
        let count = 200
        let container = Container()
        for index in 0..<count {
            container.register(instance: AppConfig(port: index), name: "service-\(index)")
        }
        let frozen = try container.freeze()
        let wrong = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<count {
                let index = (round * (thread + 1)) % count
                if (try? frozen.resolve(AppConfig.self, name: "service-\(index)"))?.port != index {
                    wrong.increment()
                }
            }
        }
        #expect(wrong.value == 0)
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
