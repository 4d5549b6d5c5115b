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
    /// Where it comes from, for messages: `parameter 2 of init`, `property \Screen.delegate`.
    let label: String
    /// An `Optional` parameter: `nil` when nothing registers the key, so never missing.
    var optional = false

    /// Whether the instance cannot be constructed without it: a cycle of such dependencies
    /// can never resolve. A property is injected once the instance exists, so objects that
    /// point at each other through properties can (when their scope shares them).
    var constructs: Bool { kind != .property && !deferred }
}
