/// How long a resolved instance lives, and who shares it.
///
/// A registration is `.transient` unless it says otherwise. Every scope is thread-safe on a
/// ``FrozenContainer``: `.transient` (a new instance per resolve), `.singleton` (one per
/// container), `.weak` (kept while someone holds it), `.graph` (one per top-level resolve),
/// `.scoped` (one per child container) and custom scopes (your ``ScopeStorage``).
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case transient
        case singleton
        case weak
        case graph
        case scoped
        case custom
        /// A key a child container supplies (`Container.provided`): never made here.
        case provided
    }

    let kind: Kind
    let storage: (any ScopeStorage)?

    /// Every resolve creates a new instance.
    public static let transient = Scope(kind: .transient, storage: nil)

    /// The first resolve creates the instance; every later resolve, from any thread, returns
    /// it. Its factory runs exactly once per container, even when many threads ask at once.
    ///
    /// The instance is shared by every thread that resolves it: a singleton used from many
    /// threads must be thread-safe itself.
    public static let singleton = Scope(kind: .singleton, storage: nil)

    /// The container keeps the instance while someone else holds it: a resolve returns the
    /// living instance, or creates a new one once the last holder let it go. Class instances
    /// only (a value is never kept).
    public static let weak = Scope(kind: .weak, storage: nil)

    /// One instance per top-level resolve: every dependency on it within one
    /// `resolve(Root.self)` shares it; the next top-level resolve creates a new one.
    public static let graph = Scope(kind: .graph, storage: nil)

    /// One instance per child container: every resolve through one child (a request, a test)
    /// shares it, another child gets its own, and the child's `dispose()` runs its
    /// `.onDispose` hooks. Resolving it from a container that is not a child throws
    /// ``FrostError/Code/outsideChild``.
    ///
    /// ```swift
    /// container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve(Database.self)) }
    ///     .scope(.scoped)
    ///     .onDispose { $0.rollbackIfOpen() }
    /// // per request: one unit of work, rolled back when the child is disposed
    /// try await frozen.withChild({ $0.register(instance: user) }) { request in
    ///     try await request.resolve(TodoHandler.self).handle()
    /// }
    /// ```
    ///
    /// Its factory resolves in the child: it sees the child's registrations and provided
    /// values.
    public static let scoped = Scope(kind: .scoped, storage: nil)

    /// What `Container.provided` registers: a value each child supplies.
    static let provided = Scope(kind: .provided, storage: nil)

    /// A scope whose instances live in `storage`, which decides when they go (a session, a
    /// request, a test).
    ///
    /// - Parameters:
    ///   - storage: Keeps instances by ``ScopeKey`` (a registration of one container); must be
    ///     thread-safe. Several registrations, and several containers (a parent and its
    ///     children), may share one storage: each keeps its own instances there.
    /// - Returns: The scope.
    public static func custom(_ storage: any ScopeStorage) -> Scope {
        Scope(kind: .custom, storage: storage)
    }

    /// How long instances live relative to each other, for the captive-dependency check:
    /// a singleton must not keep an instance of a shorter-lived scope.
    var lifetimeRank: Int {
        switch kind {
        case .singleton: 4
        case .custom, .weak: 3
        case .scoped, .provided: 2
        case .graph: 1
        case .transient: 0
        }
    }

    /// Whether each child container has its own instance: `.scoped`, and provided values.
    var isPerChild: Bool { kind == .scoped || kind == .provided }

    /// The scope's name: `transient`, `singleton`, `weak`, `graph`, `scoped`, `provided` or
    /// `custom(Type)`.
    public var description: String {
        switch kind {
        case .transient: "transient"
        case .singleton: "singleton"
        case .weak: "weak"
        case .graph: "graph"
        case .scoped: "scoped"
        case .provided: "provided"
        case .custom: "custom(\(storage.map { String(describing: type(of: $0)) } ?? "?"))"
        }
    }

    /// Scopes are equal when they are the same kind and, for custom scopes, the same storage.
    ///
    /// - Parameters:
    ///   - lhs: A scope.
    ///   - rhs: Another scope.
    /// - Returns: Whether they are the same scope.
    public static func == (lhs: Scope, rhs: Scope) -> Bool {
        lhs.kind == rhs.kind
            && lhs.storage.map(ObjectIdentifier.init) == rhs.storage.map(ObjectIdentifier.init)
    }

    /// Hashes the kind and, for a custom scope, the storage's identity.
    ///
    /// - Parameters:
    ///   - hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(storage.map(ObjectIdentifier.init))
    }
}
