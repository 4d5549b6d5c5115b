import Testing

@testable import Frost

/// Near misses: the names closest to a missed one, found in one bounded pass.
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
}
