/// A dependency a registration declares, so that `freeze()` can check it without running any
/// factory: an autowired initializer's parameter, an injected property, a forward.
struct Dependency: Sendable {
    /// What declares it.
    enum Kind: Sendable {
        /// An autowired initializer's parameter: needed to construct the instance.
        case parameter
        /// A property injected after the instance is constructed (`.inject`).
        case property
        /// A forward's target (`.implements`, an alias): the instance itself.
        case forward
    }

    /// The registration depended on.
    let key: RegistrationKey
    /// What declares it.
    let kind: Kind
    /// Resolved later (`Lazy`, `Provider`, `@LazyInjected`): not an edge of a cycle, and not a
    /// lifetime a singleton captures.
    let deferred: Bool
    /// Where it comes from, for messages.
    let origin: Origin
    /// An `Optional` parameter: `nil` when nothing registers the key, so never missing.
    var optional = false

    /// Whether the instance cannot be constructed without it: a cycle of such dependencies
    /// can never resolve. A property is injected once the instance exists, so objects that
    /// point at each other through properties can (when their scope shares them).
    var constructs: Bool { kind != .property && !deferred }

    /// Where a dependency comes from. A parameter's label is made only when a message reads
    /// it: it names the owner's type, and a type's name costs thousands of instructions.
    enum Origin: Sendable {
        /// The parameter at `position` (from 1) of `owner`'s autowired initializer.
        case parameter(Int, of: TypeIdentity)
        /// Any other origin, described as given: `property \Screen.delegate`, `forward`.
        case described(String)
    }

    init(key: RegistrationKey, kind: Kind, deferred: Bool, origin: Origin) {
        self.key = key
        self.kind = kind
        self.deferred = deferred
        self.origin = origin
    }

    init(key: RegistrationKey, kind: Kind, deferred: Bool, label: String) {
        self.init(key: key, kind: kind, deferred: deferred, origin: .described(label))
    }

    /// Where it comes from, for messages: `parameter 2 of Screen's initializer`,
    /// `property \Screen.delegate`.
    var label: String {
        switch origin {
        case .parameter(let position, let owner):
            "parameter \(position) of \(owner.shortName)'s initializer"
        case .described(let label): label
        }
    }
}
