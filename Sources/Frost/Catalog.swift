/// The keys of a container, kept for error messages: what is registered near a missed key.
///
/// Immutable after creation. Errors hold it and consult it only when their message is read.
final class Catalog: Sendable {
    let keys: [RegistrationKey]

    init(keys: [RegistrationKey]) {
        self.keys = keys
    }

    /// Canonical keys close to `key`: the same type under another name (or unnamed), then
    /// types whose short names contain the requested short name or are contained in it
    /// (`ConsoleLogger` for `Logger`: a likely conformer that lacks `.implements`).
    func nearMisses(of key: RegistrationKey, limit: Int = 5) -> [String] {
        var sameType: [String] = []
        var similar: [String] = []
        let wanted = key.type.shortName.lowercased()
        for candidate in keys where candidate != key {
            if candidate.type == key.type {
                sameType.append(
                    candidate.name.map { "\(candidate.canonicalName) (name \"\($0)\")" }
                        ?? "\(candidate.canonicalName) (unnamed)"
                )
            } else {
                let short = candidate.type.shortName.lowercased()
                if wanted.count >= 3, short.contains(wanted) || wanted.contains(short) {
                    similar.append(
                        "\(candidate.canonicalName) (if it conforms to \(key.type.shortName), "
                            + "register it with .implements(\(key.type.shortName).self))"
                    )
                }
            }
        }
        return Array((sameType.sorted() + similar.sorted()).prefix(limit))
    }
}
