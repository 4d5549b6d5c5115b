/// How long a resolved instance lives, and who shares it.
///
/// A registration is `.transient` unless it says otherwise.
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case transient
        case singleton
    }

    let kind: Kind

    /// Every resolve creates a new instance.
    public static let transient = Scope(kind: .transient)

    /// The first resolve creates the instance; every later resolve, from any thread, returns
    /// it. Its factory runs exactly once per container, even when many threads ask at once.
    public static let singleton = Scope(kind: .singleton)

    /// Whether the container keeps the instance it creates.
    var caches: Bool { kind == .singleton }

    /// The scope's name: `transient` or `singleton`.
    public var description: String {
        switch kind {
        case .transient: "transient"
        case .singleton: "singleton"
        }
    }
}
