/// A dependency a registration declares, so that `freeze()` can check it without running any
/// factory: an autowired initializer's parameter, an injected property, a forward.
struct Dependency: Sendable {
    /// The registration depended on.
    let key: RegistrationKey
    /// Resolved later (`Lazy`, `Provider`, `@LazyInjected`): not an edge of a cycle, and not a
    /// lifetime a singleton captures.
    let deferred: Bool
    /// Where it comes from, for messages: `parameter 2 of init`, `property \Screen.delegate`.
    let label: String
}
