import CFrost
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

/// A small seeded generator (splitmix64): reproducible key sets.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The fields of a CFrost context that autowiring's inlined code reads at fixed offsets.
@Suite("Context layout")
struct ContextLayoutTests {
    @Test func theInlinedOffsetsAreCFrosts() {
        #expect(_ContextLayout.path == Int(FROST_CONTEXT_PATH_OFFSET))
        #expect(_ContextLayout.depth == Int(FROST_CONTEXT_DEPTH_OFFSET))
        #expect(_ContextLayout.statePending == Int(FROST_CONTEXT_STATE_PENDING_OFFSET))
        #expect(MemoryLayout<frost_context>.offset(of: \.depth) == _ContextLayout.depth)
        #expect(_ContextLayout.maximumDepth < Int(FROST_PATH_CAPACITY))
    }
}
