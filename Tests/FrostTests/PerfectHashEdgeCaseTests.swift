import CFrost
import Dispatch
import Foundation
import Testing

@testable import Frost

/// The C table at its edges: tiny and huge key sets, keys outside the set, duplicates, and every
/// rung of the retry ladder.
@Suite("Perfect-hash table edge cases")
struct PerfectHashEdgeCaseTests {
    /// A reproducible key set: `count` distinct 8-byte identities and names.
    struct KeySet {
        var identities: [[UInt8]]
        var names: [String]

        init(count: Int, seed: UInt64, nameLength: Int = 12) {
            var generator = SplitMix(seed: seed)
            var seen = Set<UInt64>()
            identities = []
            names = []
            while identities.count < count {
                let value = generator.next() & ~7  // aligned like real metadata pointers
                guard seen.insert(value).inserted else { continue }
                identities.append(withUnsafeBytes(of: value) { Array($0) })
                names.append(
                    "Module.Type\(value)".padding(
                        toLength: max(nameLength, 1), withPad: "x", startingAt: 0)
                        + "#\(identities.count)")
            }
        }

        func table(options: frost_build_options = frost_build_options()) throws -> PerfectHashTable
        {
            try PerfectHashTable(identities: identities, names: names, options: options)
        }
    }

    /// Every key has its own slot, found by identity and by name; nothing else is found.
    static func checkLookups(_ table: PerfectHashTable, _ keys: KeySet, probes: Int = 200) {
        #expect(table.count == keys.identities.count)
        #expect(table.capacity >= table.count)
        var slots = Set<UInt32>()
        for (index, identity) in keys.identities.enumerated() {
            let bits = identity.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let slot = table.slot(identity: bits)
            guard slot != PerfectHashTable.notFound, table.inputIndex(of: slot) == index else {
                Issue.record("key \(index) of \(keys.identities.count) not found by identity")
                return
            }
            guard table.slot(tableName: keys.names[index]) == slot else {
                Issue.record("key \(index) of \(keys.identities.count) not found by name")
                return
            }
            let found = table.find(identity: bits)
            #expect(found.location == UInt(slot) && found.instance == nil)
            slots.insert(slot)
        }
        #expect(slots.count == keys.identities.count)
        let known = Set(
            keys.identities.map { $0.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } })
        var generator = SplitMix(seed: 99)
        for _ in 0..<probes {
            let probe = generator.next()
            if !known.contains(probe) {
                #expect(table.slot(identity: probe) == PerfectHashTable.notFound)
                #expect(table.find(identity: probe) == (UInt.max, nil))
            }
            #expect(table.slot(tableName: "Not.A.Key\(probe)") == PerfectHashTable.notFound)
        }
    }

    @Test(arguments: 0...3)
    func tinyKeySets(count: Int) throws {
        for seed in 0..<50 {
            let keys = KeySet(count: count, seed: UInt64(seed))
            Self.checkLookups(try keys.table(), keys, probes: 20)
        }
    }

    /// A name of up to 15 UTF-8 bytes is looked up by the two words its `String` is stored in
    /// (its small image): the standard library's layout is the one CFrost hashes, and a name
    /// held as a small string, a longer one, or a short one stored on the heap finds the same
    /// key as its bytes do, with the same instance; names that differ only in trailing NULs
    /// are different keys; an NFD spelling finds its NFC key, even where NFC is longer.
    @Test func shortNamesAreLookedUpByTheirSmallImage() throws {
        #if _pointerBitWidth(_64)
            #expect(SmallName.layoutHolds)
        #endif
        let names = [
            "", "a", "a\0", "a\0\0", "console", "caf\u{E9}", "123456789012345",
            "1234567890123456", "\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}x",
            "\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}", "\u{0958}",
        ]
        let table = try PerfectHashTable(keys: names.map { RegistrationKey(Int.self, name: $0) })
        #expect(table.hasShortKeys)
        var onHeap = String()
        onHeap.reserveCapacity(64)
        onHeap += "console"
        #expect(SmallName.image(of: onHeap) == nil)
        #expect(SmallName.image(of: "console")?.isASCII == true)
        #expect(SmallName.image(of: "caf\u{E9}")?.isASCII == false)
        #expect(SmallName.image(of: "1234567890123456") == nil)
        let bits = UInt64(UInt(bitPattern: ObjectIdentifier(Int.self)))
        let other = UInt64(UInt(bitPattern: ObjectIdentifier(String.self)))
        var slots = Set<UInt>()
        for name in names + [onHeap] {
            let bySmallImage = PerfectHashTable.find(
                in: table.cTable, smallNames: true, identity: bits, name: name)
            let byBytes = PerfectHashTable.find(
                in: table.cTable, smallNames: false, identity: bits, name: name)
            #expect(bySmallImage.location == byBytes.location)
            #expect(bySmallImage.location != .max)
            slots.insert(bySmallImage.location)
            let miss = PerfectHashTable.find(
                in: table.cTable, smallNames: true, identity: other, name: name)
            #expect(miss.location == .max)
        }
        #expect(slots.count == names.count)
        // U+0958 decomposes to two scalars (NFD, 6 bytes): found through its NFC key (3).
        let decomposed = "\u{915}\u{93C}"
        #expect(decomposed == "\u{0958}")
        let nfd = PerfectHashTable.find(
            in: table.cTable, smallNames: true, identity: bits, name: decomposed)
        let nfc = PerfectHashTable.find(
            in: table.cTable, smallNames: true, identity: bits, name: "\u{0958}")
        #expect(nfd.location == nfc.location)
        #expect(
            PerfectHashTable.find(in: table.cTable, smallNames: true, identity: bits, name: "a\0b")
                .location == .max)
    }

    @Test func emptyTableFindsNothingAndNeverCallsCmph() throws {
        let table = try KeySet(count: 0, seed: 1).table()
        #expect(table.capacity == 0)
        #expect(table.slot(identity: 0) == PerfectHashTable.notFound)
        #expect(table.find(identity: 0) == (UInt.max, nil))
        #expect(table.slot(tableName: "x") == PerfectHashTable.notFound)
        #expect(table.functionInfo(0).attempts == 0)
    }

    @Test(arguments: 2...64)
    func randomKeySetsAllBuild(count: Int) throws {
        for seed in 0..<40 {
            let keys = KeySet(count: count, seed: UInt64(count * 1_000 + seed))
            Self.checkLookups(try keys.table(), keys, probes: 10)
        }
    }

    @Test func theLadderIsClimbedForSetsTheFirstRungCannotHash() throws {
        // BDZ_PH fails about 7% of 7-key and 12-key sets: among 300 of each, some climb.
        var climbed = 0
        for count in [7, 12] {
            for seed in 0..<300 {
                let keys = KeySet(count: count, seed: UInt64(seed) &* 7919 &+ UInt64(count))
                let table = try keys.table()
                if table.functionInfo(0).attempts > 1 || table.functionInfo(1).attempts > 1 {
                    climbed += 1
                }
                Self.checkLookups(table, keys, probes: 5)
            }
        }
        #expect(climbed > 0)
    }

    @Test(arguments: 0..<Int(FROST_RUNG_COUNT.rawValue))
    func everyRungBuildsAWorkingTable(rung: Int) throws {
        var options = frost_build_options()
        options.first_rung = UInt32(rung)
        for count in [1, 2, 3, 50, 1_000] {
            let keys = KeySet(count: count, seed: UInt64(rung * 31 + count))
            let table = try keys.table(options: options)
            #expect(table.functionInfo(0).rung >= UInt32(rung) || table.functionInfo(0).salt > 0)
            Self.checkLookups(table, keys, probes: 50)
        }
    }

    @Test(arguments: [1, 2, 7])
    func saltedKeysStillResolve(salt: Int) throws {
        var options = frost_build_options()
        options.first_salt = UInt32(salt)
        for count in [1, 3, 64, 500] {
            // Long names: the salted name lookup copies keys longer than its stack buffer.
            let keys = KeySet(count: count, seed: UInt64(salt * 17 + count), nameLength: 300)
            let table = try keys.table(options: options)
            #expect(table.functionInfo(0).salt == UInt32(salt))
            #expect(table.functionInfo(1).salt == UInt32(salt))
            Self.checkLookups(table, keys, probes: 50)
        }
    }

    /// Lookups evaluate cmph's BDZ_PH function inline: it must give cmph_search's value for
    /// every key (checked at build) and for keys outside the set too (checked here), at every
    /// length cmph's Jenkins hash treats differently, with bytes >= 0x80, salted or not.
    @Test(arguments: [(1, 0), (2, 0), (3, 0), (12, 0), (100, 0), (10_000, 0), (64, 1), (64, 7)])
    func inlineEvaluationAgreesWithCmph(count: Int, salt: Int) throws {
        var options = frost_build_options()
        options.first_salt = UInt32(salt)
        for seed in 0..<(count <= 100 ? 20 : 2) {
            let keys = KeySet(count: count, seed: UInt64(seed * 7 + count))
            let table = try keys.table(options: options)
            for which: UInt32 in [0, 1] {
                let info = table.functionInfo(which)
                if info.rung <= FROST_RUNG_BDZ_PH_20.rawValue {
                    #expect(info.evaluator != FROST_EVALUATOR_CMPH.rawValue)
                } else {
                    #expect(info.evaluator == FROST_EVALUATOR_CMPH.rawValue)
                }
            }
            var generator = SplitMix(seed: UInt64(seed))
            for length in [1, 4, 5, 7, 8, 9, 11, 12, 13, 24, 25, 100] {
                for _ in 0..<20 {
                    let probe = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next())
                    }
                    for which: UInt32 in [0, 1] {
                        let viaCmph = table.functionValue(which, of: probe, throughCmph: true)
                        let inline = table.functionValue(which, of: probe, throughCmph: false)
                        guard viaCmph == inline else {
                            Issue.record(
                                "function \(which) (evaluator \(table.functionInfo(which).evaluator)) differs from cmph for length \(probe.count): \(probe)"
                            )
                            return
                        }
                    }
                }
            }
        }
    }

    /// A named key is found by its type and name on every rung, salted or not, by its short
    /// form or by its whole identity, whatever the name's length: up to 23 bytes (a whole
    /// identity of at most 32, hashed by whole words on the stack), up to 16 and beyond (a
    /// short form's hash reads the name in one step or in 16-byte blocks); a name that
    /// differs in its last byte, or is one byte shorter or longer, and another type's name,
    /// are not found.
    @Test(arguments: [
        (0, 0, false), (1, 0, false), (2, 0, false), (3, 0, false), (4, 0, false),
        (0, 1, false), (0, 7, false), (2, 7, false),
        (0, 0, true), (3, 0, true), (4, 0, true), (2, 7, true),
    ])
    func namedKeysAreFoundAtEveryLength(rung: Int, salt: Int, fullKeys: Bool) throws {
        var options = frost_build_options()
        options.first_rung = UInt32(rung)
        options.first_salt = UInt32(salt)
        options.full_keys = fullKeys ? 1 : 0
        let types: [Any.Type] = [Int.self, String.self, Double.self, [UInt8].self]
        let names = (0...40).map { length in
            String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        }
        var keys = types.flatMap { type in names.map { RegistrationKey(type, name: $0) } }
        keys.append(RegistrationKey(Float.self, name: "caf\u{E9}-r\u{E9}plica"))
        let table = try PerfectHashTable(keys: keys, options: options)
        #expect(table.functionInfo(0).salt == UInt32(salt))
        #expect(table.hasShortKeys == !fullKeys)
        var slots = Set<UInt32>()
        for (index, key) in keys.enumerated() {
            let slot = table.slot(identity: key.type.bits, name: key.name!)
            #expect(slot != PerfectHashTable.notFound && table.inputIndex(of: slot) == index)
            slots.insert(slot)
            // A resolve's lookup (a short name by its small image) finds the same slot.
            let found = PerfectHashTable.find(
                in: table.cTable, smallNames: table.takesSmallNames, identity: key.type.bits,
                name: key.name!)
            #expect(found.location & 0xFFFF_FFFF == UInt(slot))
        }
        #expect(slots.count == keys.count)
        let float = TypeIdentity(Float.self).bits
        #expect(table.slot(identity: float, name: "cafe\u{301}-re\u{301}plica") != .max)
        for name in names.dropFirst() {
            let bits = TypeIdentity(Int.self).bits
            var changed = name
            changed.replaceSubrange(changed.index(before: changed.endIndex)..., with: "!")
            #expect(table.slot(identity: bits, name: changed) == PerfectHashTable.notFound)
            #expect(table.slot(identity: bits, name: name + "!") == PerfectHashTable.notFound)
            #expect(table.slot(identity: float, name: name) == PerfectHashTable.notFound)
        }
    }

    /// Keys whose short forms collide (an unnamed key equal to a named key's short form) are
    /// hashed by their whole identities: both are found, by type and by name; a key shorter
    /// than 8 bytes has no short form, and its table is hashed whole too.
    @Test func keysWhoseShortFormsCollideAreHashedWhole() throws {
        let named = RegistrationKey(Int.self, name: "primary")
        var namedIdentity: [UInt8] = []
        named.appendIdentityBytes(to: &namedIdentity)
        let collision = PerfectHashTable.shortForm(of: namedIdentity)
        let identities = [namedIdentity, withUnsafeBytes(of: collision) { Array($0) }]
        let table = try PerfectHashTable(identities: identities, names: ["Int#primary", "other"])
        #expect(!table.hasShortKeys)
        #expect(table.inputIndex(of: table.slot(identity: collision)) == 1)
        #expect(
            table.inputIndex(of: table.slot(identity: TypeIdentity(Int.self).bits, name: "primary"))
                == 0)
        #expect(table.slot(identity: TypeIdentity(Int.self).bits) == PerfectHashTable.notFound)
        #expect(
            table.slot(identity: TypeIdentity(Int.self).bits, name: "replica")
                == PerfectHashTable.notFound)

        let distinct = try PerfectHashTable(
            identities: [namedIdentity, Array(repeating: 7, count: 8)], names: ["a", "b"])
        #expect(distinct.hasShortKeys)
        let unnamed = KeySet(count: 100, seed: 8)
        let types = try unnamed.table()  // 8-byte identities: their own short forms
        #expect(types.hasShortKeys)
        Self.checkLookups(types, unnamed)
        let tooShort = try PerfectHashTable(
            identities: [namedIdentity, [1, 2, 3]], names: ["a", "b"])
        #expect(!tooShort.hasShortKeys)
        #expect(tooShort.inputIndex(of: tooShort.slot(tableName: "b")) == 1)
    }

    @Test func functionsBuiltByOtherRungsUseCmphSearch() throws {
        var options = frost_build_options()
        options.first_rung = FROST_RUNG_CHD_PH.rawValue
        let keys = KeySet(count: 50, seed: 5)
        let table = try keys.table(options: options)
        #expect(table.functionInfo(0).evaluator == FROST_EVALUATOR_CMPH.rawValue)
        Self.checkLookups(table, keys, probes: 50)
    }

    @Test(arguments: [100_000, 1_000_000])
    func largeKeySets(count: Int) throws {
        let keys = KeySet(count: count, seed: 2026)
        Self.checkLookups(try keys.table(), keys, probes: 10_000)
    }

    @Test func duplicateIdentitiesNeverReachCmph() throws {
        var keys = KeySet(count: 10, seed: 5)
        keys.identities[7] = keys.identities[2]
        #expect {
            _ = try keys.table()
        } throws: { error in
            if case PerfectHashTable.BuildError.duplicate(let index) = error { return index == 7 }
            return false
        }
    }

    @Test func duplicateNamesNeverReachCmph() throws {
        var keys = KeySet(count: 1_000, seed: 6)
        keys.names[999] = keys.names[0]
        #expect(throws: PerfectHashTable.BuildError.self) { _ = try keys.table() }
    }

    @Test func keysWithNulBytesStayDistinct() throws {
        // cmph's string adapter would cut these at the NUL and see duplicates.
        let identities: [[UInt8]] = [
            [0, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 0, 0, 0],
        ]
        let names = ["a\u{0}x", "a\u{0}y", "a"]
        let table = try PerfectHashTable(identities: identities, names: names)
        for (index, name) in names.enumerated() {
            #expect(table.inputIndex(of: table.slot(tableName: name)) == index)
        }
    }

    /// Named lookups whose key bytes CFrost assembles: the empty name, a name longer than its
    /// stack buffer, and non-ASCII names registered in one normalization form and asked for in
    /// the other, short and long; a name that differs only past the buffer misses.
    @Test(arguments: Mode.allCases)
    func namedLookupsOfEmptyLongAndNonASCIINamesFindTheirRegistration(mode: Mode) throws {
        let long = String(repeating: "n", count: 300)
        let longDecomposed = String(repeating: "e\u{301}", count: 200)  // NFD, 600 bytes
        let longComposed = String(repeating: "\u{e9}", count: 200)  // NFC, 400 bytes
        let container = Container()
        container.register(instance: AppConfig(port: 1), name: "")
        container.register(instance: AppConfig(port: 2), name: long)
        container.register(instance: AppConfig(port: 3), name: longDecomposed)
        container.register(instance: AppConfig(port: 4), name: "caf\u{e9}")  // NFC
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(AppConfig.self, name: "").port == 1)
        #expect(try resolver.resolve(AppConfig.self, name: long).port == 2)
        #expect(try resolver.resolve(AppConfig.self, name: longComposed).port == 3)
        #expect(try resolver.resolve(AppConfig.self, name: longDecomposed).port == 3)
        #expect(try resolver.resolve(AppConfig.self, name: "cafe\u{301}").port == 4)
        #expect(
            frostError { _ = try resolver.resolve(AppConfig.self, name: long + "m") }?.code
                == .notRegistered)
        #expect(
            frostError { _ = try resolver.resolve(AppConfig.self, name: "caf\u{e8}") }?.code
                == .notRegistered)
    }

    /// A frozen container's table is built without names; the first lookup by table name
    /// (mangled type name, `#name` for a named key) names every key, and each name then finds
    /// the slot its key's identity finds.
    @Test func aFrozenTableIsNamedOnItsFirstLookupByName() throws {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }
        container.register(Logger.self, name: "file") { _ in FileLogger() }
        container.register(Logger.self, name: "cafe\u{301}") { _ in FileLogger() }  // NFD
        container.register(instance: AppConfig(port: 1))
        container.register([Int: String].self) { _ in [:] }
        let frozen = try container.freeze()
        let table = frozen.table
        #expect(table.functionInfo(1).attempts == 0)  // no name function yet

        for component in frozen.components {
            let key = component.key
            let typeName = try #require(_mangledTypeName(key.type.type))
            let name = key.name.map { "#" + $0.precomposedStringWithCanonicalMapping } ?? ""
            let slot = table.slot(tableName: typeName + name)
            #expect(slot != PerfectHashTable.notFound, "\(typeName + name)")
            #expect(slot == table.slot(for: key), "\(typeName + name)")
        }
        #expect(table.functionInfo(1).attempts > 0)
        #expect(table.slot(tableName: "Not.A.Key") == PerfectHashTable.notFound)
        let logger = try #require(_mangledTypeName((any Logger).self))
        #expect(table.slot(tableName: logger + "#caf\u{e9}") != PerfectHashTable.notFound)
    }

    /// Threads that race to the first lookup by name all get their answer (one names the
    /// table), while other threads resolve by type and read the name function's info. The four
    /// threads of a round start together at a barrier; the rounds go on past twenty (within
    /// thirty seconds) until one in which the two first lookups by name were in flight at once.
    @Test(.timeLimit(.minutes(1))) func racingFirstLookupsByNameAgree() async throws {
        let lastChance = DispatchTime.now() + .seconds(30)
        var racedRounds = 0
        var round = 0
        while round < 20 || (racedRounds == 0 && DispatchTime.now() < lastChance) {
            defer { round += 1 }
            let container = Container()
            container.register(instance: AppConfig(port: round))
            container.register(Logger.self) { _ in ConsoleLogger() }
            for index in 0..<20 {
                container.register(Int.self, name: "n\(index)") { _ in index }
            }
            let frozen = try container.freeze()
            let table = frozen.table
            let int = try #require(_mangledTypeName(Int.self))
            let expected = (0..<20).map {
                table.slot(for: RegistrationKey(Int.self, name: "n\($0)"))
            }
            let wrong = Counter()
            let race = RaceWitness()  // the first lookups by name
            let bodies: [@Sendable () -> Void] = (0..<4).map { thread in
                {
                    _ = race.barrier(4)
                    for (order, index) in (0..<20).map({ ($0 + thread * 5) % 20 }).enumerated() {
                        if thread.isMultiple(of: 2) {
                            let lookup = { table.slot(tableName: "\(int)#n\(index)") }
                            let slot = order == 0 ? race.during(lookup) : lookup()
                            if slot != expected[index] { wrong.increment() }
                        } else {
                            let value = try? frozen.resolve(Int.self, name: "n\(index)")
                            let info = table.functionInfo(1)
                            if value != index || (info.attempts != 0 && info.range < 20) {
                                wrong.increment()
                            }
                        }
                    }
                }
            }
            guard await runOnThreads(within: 20, bodies) else {
                Issue.record("deadlock: round \(round) did not finish within 20 s")
                return
            }
            if race.peak == 2 { racedRounds += 1 }
            #expect(wrong.value == 0)
        }
        #expect(racedRounds > 0, "the race did not happen: the first lookups by name never met")
    }

    /// The C contract of names given after the table is built: nothing is found by name
    /// before; a duplicate name is refused and leaves the table without names; a table is
    /// named once; some keys with names and some without are refused.
    @Test func namesGivenAfterCreationFollowTheContract() throws {
        let keys = KeySet(count: 50, seed: 9)
        let identities = keys.identities.joined().map { $0 }
        let names = keys.names.map { Array($0.utf8) }
        try identities.withUnsafeBufferPointer { identityBytes in
            let base = identityBytes.baseAddress!
            var unnamed = (0..<50).map { index in
                frost_key(identity: base + 8 * index, name: nil, identity_length: 8, name_length: 0)
            }
            var created: OpaquePointer?
            #expect(frost_table_create(&unnamed, 50, { _ in }, nil, &created, nil) == FROST_OK)
            let table = try #require(created)
            defer { frost_table_destroy(table) }
            #expect(frost_table_is_named(table) == 0)
            #expect(
                frost_table_find_name(table, names[3], UInt32(names[3].count)) == FROST_NOT_FOUND)

            func name(_ names: [[UInt8]]) -> (frost_status, UInt32) {
                var duplicate: UInt32 = 0
                let arena = names.joined().map { $0 }
                let status = arena.withUnsafeBufferPointer { arena in
                    var offset = 0
                    let views = names.map { name in
                        defer { offset += name.count }
                        return frost_bytes(
                            bytes: arena.baseAddress! + offset, length: UInt32(name.count))
                    }
                    return frost_table_name_keys(table, views, UInt32(names.count), &duplicate)
                }
                return (status, duplicate)
            }
            var repeated = names
            repeated[40] = names[2]
            #expect(name(repeated) == (FROST_ERROR_DUPLICATE, 40))
            #expect(frost_table_is_named(table) == 0)
            #expect(name(names) == (FROST_OK, FROST_NOT_FOUND))
            #expect(frost_table_is_named(table) == 1)
            #expect(name(names).0 == FROST_ERROR_ALREADY_NAMED)
            for index in 0..<50 {
                let slot = frost_table_find_name(table, names[index], UInt32(names[index].count))
                #expect(slot == frost_table_find_identity(table, base + 8 * index, 8))
            }

            var mixed = unnamed
            mixed[0].name = UnsafePointer(base)
            mixed[0].name_length = 1
            var refused: OpaquePointer?
            #expect(
                frost_table_create(&mixed, 50, { _ in }, nil, &refused, nil)
                    == FROST_ERROR_EMPTY_KEY)
            #expect(refused == nil)
        }
    }

    @Test func emptyKeysAreRefusedByTheCCore() {
        let byte: [UInt8] = [1]
        let status = byte.withUnsafeBufferPointer { bytes in
            var key = frost_key(
                identity: bytes.baseAddress!, name: bytes.baseAddress!, identity_length: 0,
                name_length: 1)
            var table: OpaquePointer?
            let status = frost_table_create(&key, 1, { _ in }, nil, &table, nil)
            frost_table_destroy(table)
            return status
        }
        #expect(status == FROST_ERROR_EMPTY_KEY)
    }
}
