import Foundation

/// The keys of a container, kept for error messages and readable-name lookups: what is
/// registered near a missed key.
///
/// Errors hold it and consult it only when their message is read; its indexes are built on
/// the first such read, and the work a message does is bounded (a container of a million
/// registrations answers in milliseconds). A child's catalog consults its parent's too.
///
/// `@unchecked Sendable`: `keys` and `parent` are immutable; the lazily built indexes are only
/// touched under `lock` (NSLock: visible to the thread sanitizer).
final class Catalog: @unchecked Sendable {
    let keys: [RegistrationKey]
    let parent: Catalog?

    private let lock = NSLock()
    private var byTypeCache: [TypeIdentity: [String?]]?
    private var readableNamesCache: Set<String>?

    /// Similar types are looked for among at most this many distinct types.
    static let similarTypeLimit = 10_000

    /// A catalog of no keys (a child that only supplies values).
    static let empty = Catalog(keys: [])

    init(keys: [RegistrationKey], parent: Catalog? = nil) {
        self.keys = keys
        self.parent = parent
    }

    // MARK: Near misses

    /// Canonical keys close to `key`, at most `limit`: the same type under other names (the
    /// names closest to the one asked for first), then, for a protocol, registered types whose
    /// names make them likely conformers registered without `.implements` (`ConsoleLogger` for
    /// `Logger`). Includes the parent's.
    func nearMisses(of key: RegistrationKey, limit: Int = 5) -> [String] {
        let optional = optionalCounterpart(of: key)
        let sameType = namesOfSameType(as: key, limit: limit - optional.count)
        guard optional.count + sameType.count < limit else { return optional + sameType }
        return optional + sameType
            + similarTypes(to: key, limit: limit - optional.count - sameType.count)
    }

    /// `T?` registered under `key`'s name when `T` is asked for: a value registered as an
    /// optional (`register(instance: user)` with `user: User?`), which a resolve of `T` never
    /// finds.
    private func optionalCounterpart(of key: RegistrationKey) -> [String] {
        var catalog: Catalog? = self
        var examined = 0
        while let current = catalog {
            for (type, names) in current.byType where names.contains(key.name) {
                examined += 1
                if examined > Self.similarTypeLimit { return [] }
                guard TypeKind.isOptional(type.type),
                    let optional = type.type as? any OptionalResolving.Type,
                    ObjectIdentifier(optional.wrappedType) == ObjectIdentifier(key.type.type)
                else { continue }
                let registered = key.name.map { "\(type.name)#\($0)" } ?? type.name
                return [
                    "\(registered) (an optional: it is registered as \(type.shortName), which a "
                        + "resolve of \(key.type.shortName) never finds; register the value "
                        + "unwrapped)"
                ]
            }
            catalog = current.parent
        }
        return []
    }

    /// The other registrations of `key`'s type, as canonical keys with their names.
    private func namesOfSameType(as key: RegistrationKey, limit: Int) -> [String] {
        var names: [String?] = []
        var catalog: Catalog? = self
        while let current = catalog {
            names += current.byType[key.type, default: []]
            catalog = current.parent
        }
        var seen = Set<String?>()
        names = names.filter { $0 != key.name && seen.insert($0).inserted }
        let ranked: [String?]
        if let wanted = key.name, names.count > limit {
            ranked = Self.closest(to: wanted, among: names.compactMap { $0 }, limit: limit)
        } else {
            ranked = Array(names.sorted { ($0 ?? "") < ($1 ?? "") }.prefix(limit))
        }
        let typeName = key.type.name
        return ranked.map { name in
            guard let name else { return "\(typeName) (unnamed)" }
            return "\(typeName)#\(name) (name \"\(name)\")"
        }
    }

    /// For a protocol: registered types named like its conformers.
    private func similarTypes(to key: RegistrationKey, limit: Int) -> [String] {
        guard limit > 0, TypeKind.of(key.type.type) == .existential,
            let wanted = Self.baseName(of: key.type), wanted.utf8.count >= 3
        else { return [] }
        var found: [String] = []
        var catalog: Catalog? = self
        var examined = 0
        while let current = catalog {
            for type in current.byType.keys where type != key.type {
                examined += 1
                if examined > Self.similarTypeLimit { break }
                guard let base = Self.baseName(of: type), Self.looksLikeConformer(base, of: wanted)
                else { continue }
                found.append(
                    "\(type.name) (if it conforms to \(wanted), register it with "
                        + ".implements(\(wanted).self))")
            }
            catalog = current.parent
        }
        return Array(found.sorted().prefix(limit))
    }

    /// A type's name as written without its module, generic arguments or `any`: an identifier,
    /// or `nil` for a type that is not one (a tuple, a function, a dictionary literal type).
    static func baseName(of type: TypeIdentity) -> String? {
        var name = Substring(type.shortName)
        if name.hasPrefix("any ") { name = name.dropFirst(4) }
        if let generic = name.firstIndex(of: "<") { name = name[..<generic] }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            return nil
        }
        return String(name)
    }

    /// Whether `name` reads as a conformer of protocol `wanted`: it ends with `wanted` as a
    /// whole word (`ConsoleLogger`, `Logger`) or begins with it followed by another word
    /// (`LoggerImpl`, `Logger`).
    static func looksLikeConformer(_ name: String, of wanted: String) -> Bool {
        guard name != wanted else { return false }
        if name.hasSuffix(wanted) {
            return wanted.first?.isUppercase == true || name.count == wanted.count
        }
        if name.hasPrefix(wanted) {
            let next = name[name.index(name.startIndex, offsetBy: wanted.count)]
            return next.isUppercase || next == "_"
        }
        return false
    }

    /// The `limit` names closest to `wanted` by edit distance (ties by name), among names at
    /// most half its length away. One pass over any number of names: each is compared with a
    /// banded distance that gives up as soon as it exceeds the worst distance still kept.
    static func closest(to wanted: String, among names: [String], limit: Int) -> [String] {
        let target = Array(wanted.utf8)
        var best: [(distance: Int, name: String)] = []
        var rows = [Int](repeating: 0, count: 2 * (target.count + 1))
        for name in names {
            let bound = best.count == limit ? best[limit - 1].distance : max(2, target.count / 2)
            var name = name
            let distance = name.withUTF8 { bytes in
                boundedDistance(target, bytes, bound: bound, rows: &rows)
            }
            guard let distance else { continue }
            let entry = (distance, name)
            let position = best.firstIndex { ($0.distance, $0.name) > entry } ?? best.count
            guard position < limit else { continue }
            best.insert(entry, at: position)
            if best.count > limit { best.removeLast() }
        }
        return best.map(\.name)
    }

    /// The edit distance between `a` and `b` if it is at most `bound`, else `nil`: only cells
    /// within `bound` of the diagonal are computed, and a row past `bound` stops it.
    static func boundedDistance(
        _ a: [UInt8],
        _ b: UnsafeBufferPointer<UInt8>,
        bound: Int,
        rows: inout [Int]
    ) -> Int? {
        guard abs(a.count - b.count) <= bound else { return nil }
        let width = a.count + 1
        let unreachable = bound + 1
        return rows.withUnsafeMutableBufferPointer { rows -> Int? in
            var previous = 0
            var current = width
            for j in 0..<width { rows[j] = j <= bound ? j : unreachable }
            for i in 1...max(b.count, 1) where b.count > 0 {
                let low = max(1, i - bound)
                let high = min(a.count, i + bound)
                rows[current] = i <= bound ? i : unreachable
                if low > 1 { rows[current + low - 1] = unreachable }
                var rowMinimum = rows[current]
                if low <= high {
                    for j in low...high {
                        let substitution =
                            rows[previous + j - 1] + (a[j - 1] == b[i - 1] ? 0 : 1)
                        let value = min(
                            substitution, rows[previous + j] + 1, rows[current + j - 1] + 1,
                            unreachable)
                        rows[current + j] = value
                        rowMinimum = min(rowMinimum, value)
                    }
                }
                if high < a.count { rows[current + high + 1] = unreachable }
                if rowMinimum > bound { return nil }
                swap(&previous, &current)
            }
            let distance = b.count == 0 ? a.count : rows[previous + a.count]
            return distance <= bound ? distance : nil
        }
    }

    // MARK: Readable names

    /// Whether a key here (not the parent's) has the readable canonical name `canonicalName`
    /// (`Module.Type` or `Module.Type#name`).
    func contains(canonicalName: String) -> Bool {
        lock.withLock {
            if readableNamesCache == nil {
                readableNamesCache = Set(keys.map(\.canonicalName))
            }
            return readableNamesCache!.contains(canonicalName)
        }
    }

    // MARK: Indexes

    /// The names each type is registered under here (`nil`: unnamed), built on first use.
    private var byType: [TypeIdentity: [String?]] {
        lock.withLock {
            if let byTypeCache { return byTypeCache }
            var index: [TypeIdentity: [String?]] = [:]
            for key in keys { index[key.type, default: []].append(key.name) }
            byTypeCache = index
            return index
        }
    }
}
