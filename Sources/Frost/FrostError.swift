/// The one error Frost throws.
///
/// An error carries data — the requested type and name, the dependency path that led to it,
/// the registrations it can compare with — and builds its message only when it is read, so a
/// failed resolve stays cheap. It is one reference wide: every function that can throw it
/// stays small, however deep the resolve.
///
/// ```swift
/// do {
///     _ = try frozen.resolve(Logger.self)
/// } catch {
///     print(error)  // Frost: nothing is registered for MyApp.Logger.
///                   //   Registered and close: MyApp.ConsoleLogger ...
/// }
/// ```
public struct FrostError: Error, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let rawValue: String

        /// Nothing is registered for the requested type and name.
        public static let notRegistered = Code(rawValue: "notRegistered")
        /// A component depends on itself, directly or through others; or threads creating
        /// instances would wait for each other in a circle.
        public static let cycle = Code(rawValue: "cycle")
        /// A factory, an `onCreate` hook, a custom scope's storage or a child's configuring
        /// closure threw an error that is not a `FrostError`; ``FrostError/underlying`` holds
        /// it.
        public static let factoryFailed = Code(rawValue: "factoryFailed")
        /// An instance is not of the type it was resolved as: a registration forwards
        /// (`.implements`) to a type its instance cannot be cast to, or a custom
        /// ``ScopeStorage`` answered an object that is not an instance of the registration.
        public static let typeMismatch = Code(rawValue: "typeMismatch")
        /// A handle was used with a container other than the one that made it.
        public static let foreignHandle = Code(rawValue: "foreignHandle")
        /// `freeze()` found problems; ``FrostError/problems`` lists every one.
        public static let invalidRegistrations = Code(rawValue: "invalidRegistrations")
        /// The perfect-hash table could not be built: a bug in Frost, reported, never trapped.
        public static let tableBuildFailed = Code(rawValue: "tableBuildFailed")
        /// A singleton depends on a shorter-lived registration, which it would keep forever.
        public static let captiveDependency = Code(rawValue: "captiveDependency")
        /// Runtime arguments do not match the registration: missing, unexpected, or of other
        /// types.
        public static let argumentMismatch = Code(rawValue: "argumentMismatch")
        /// An object given to `inject(into:)` has no property Frost can inject.
        public static let nothingToInject = Code(rawValue: "nothingToInject")
        /// A `Lazy`, `Provider` or `@LazyInjected` was used after its container was gone.
        public static let containerGone = Code(rawValue: "containerGone")
        /// A key registered with `Container.provided` was resolved where no child supplies it:
        /// resolve it from a child made with `child { $0.register(instance: …) }`.
        public static let notProvided = Code(rawValue: "notProvided")
        /// A `.scoped` registration was resolved from a container that is not a child: its
        /// instance belongs to a child container.
        public static let outsideChild = Code(rawValue: "outsideChild")
        /// A container was used after its `dispose()`.
        public static let disposed = Code(rawValue: "disposed")
        /// A synchronous resolve needed an instance that only an awaited resolve can make: its
        /// factory is async or isolated to an actor, or another task's awaited resolve is
        /// making it right now. Resolve it with `try await`, or call
        /// `FrozenContainer.bootstrap()` first (a singleton is then made and cached). Also,
        /// from `freeze()`: a synchronous factory depends on such a registration that is never
        /// cached, so no resolve could ever make it.
        public static let asyncRequired = Code(rawValue: "asyncRequired")
        /// A registration asks its lifetime for what the lifetime cannot do: an `.onDispose`
        /// hook on instances the container never tracks (a transient's, a `.graph` one's, a
        /// custom scope's), found by `freeze()`.
        public static let lifetimeMismatch = Code(rawValue: "lifetimeMismatch")
        /// A resolve nested factories deeper than ``Resolver/maximumDepth``, or so deep that
        /// its thread's stack was nearly used up; ``FrostError/dependencyPath`` names the path.
        public static let depthLimit = Code(rawValue: "depthLimit")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// What the error says, immutable: shared by its copies.
    private final class Storage: Sendable {
        let code: Code
        let key: RegistrationKey?
        let path: [RegistrationKey]
        let catalog: Catalog?
        let detail: String?
        let underlying: (any Error)?
        let problems: [FrostError]
        let advisesBootstrap: Bool

        init(
            code: Code, key: RegistrationKey?, path: [RegistrationKey], catalog: Catalog?,
            detail: String?, underlying: (any Error)?, problems: [FrostError],
            advisesBootstrap: Bool
        ) {
            self.advisesBootstrap = advisesBootstrap
            self.code = code
            self.key = key
            self.path = path
            self.catalog = catalog
            self.detail = detail
            self.underlying = underlying
            self.problems = problems
        }
    }

    private let storage: Storage

    /// What went wrong.
    public var code: Code { storage.code }
    var key: RegistrationKey? { storage.key }
    var path: [RegistrationKey] { storage.path }
    var catalog: Catalog? { storage.catalog }
    var detail: String? { storage.detail }

    /// The error a factory threw, for ``Code/factoryFailed``.
    public var underlying: (any Error)? { storage.underlying }

    /// For ``Code/invalidRegistrations``: every problem `freeze()` found, one error each.
    public var problems: [FrostError] { storage.problems }

    init(
        _ code: Code,
        key: RegistrationKey?,
        path: [RegistrationKey] = [],
        catalog: Catalog? = nil,
        detail: String? = nil,
        underlying: (any Error)? = nil,
        problems: [FrostError] = [],
        advisesBootstrap: Bool = true
    ) {
        storage = Storage(
            code: code, key: key, path: path, catalog: catalog, detail: detail,
            underlying: underlying, problems: problems, advisesBootstrap: advisesBootstrap)
    }

    /// The canonical key of the requested component (`Module.Type` or `Module.Type#name`), if
    /// the error concerns one.
    public var requestedKey: String? { key?.canonicalName }

    /// The dependency path that led to the error, outermost first, as canonical keys; the last
    /// element is the requested component.
    public var dependencyPath: [String] { path.map(\.canonicalName) }

    /// Registrations close to the requested one: the same type under another name, or types
    /// whose names contain the requested type's name (a protocol's likely conformers).
    public var nearMisses: [String] {
        guard let key, let catalog else { return [] }
        return catalog.nearMisses(of: key)
    }

    /// The full message: what was requested, the path to it, and what is registered nearby.
    public var description: String {
        var text = "Frost: " + summary
        if path.count > 1 {
            text += "\n  Dependency path: " + dependencyPath.joined(separator: " -> ")
        }
        let misses = nearMisses
        if !misses.isEmpty {
            text += "\n  Registered and close: " + misses.joined(separator: ", ")
        }
        if let underlying {
            text += "\n  Underlying error: \(underlying)"
        }
        for problem in problems {
            let lines = problem.description.split(separator: "\n", omittingEmptySubsequences: false)
            text += "\n  - " + lines.joined(separator: "\n    ")
        }
        return text
    }

    private var summary: String {
        let subject = key.map(Self.describe) ?? "the container"
        switch code {
        case .notRegistered:
            return "nothing is registered for \(subject)" + (detail.map { ", \($0)." } ?? ".")
        case .cycle:
            return "dependency cycle through \(subject)" + (detail.map { ": \($0)." } ?? ".")
        case .depthLimit:
            return "the resolve of \(subject) went too deep: \(detail ?? "too many levels")."
        case .factoryFailed:
            return key == nil
                ? "\(detail ?? "a configuration closure") threw an error."
                : "the factory of \(subject) threw an error."
        case .containerGone:
            return "\(subject) was resolved through a Lazy, Provider or @LazyInjected whose "
                + "container no longer exists (they do not keep it alive)."
        case .notProvided:
            return "\(subject) is provided by each child container, and none supplies it here; "
                + "resolve it from a child that registers it: "
                + "child { $0.register(instance: …) }."
        case .outsideChild:
            return "\(subject) is scoped: its instance belongs to a child container; resolve it "
                + "from a child (frozen.child { … })."
        case .disposed:
            return "\(subject) was resolved from a container after its dispose()."
        case .asyncRequired where path.count > 1 && path.last != key:
            // From freeze(): the key is the synchronous registration, the path ends at the
            // async one it needs and no resolve can ever hand it.
            return "\(subject) \(detail ?? "needs an async registration")."
        case .asyncRequired where !storage.advisesBootstrap:
            return "\(subject) \(detail ?? "has an async or actor-isolated factory"): a "
                + "synchronous resolve cannot wait for it; resolve it with `try await` (in a "
                + "child, `try await request.resolve(…)`)."
        case .asyncRequired:
            return "\(subject) \(detail ?? "has an async or actor-isolated factory"): a "
                + "synchronous resolve cannot wait for it; resolve it with `try await`, or call "
                + "`try await frozen.bootstrap()` first so that a singleton is made and cached."
        case .typeMismatch, .argumentMismatch, .captiveDependency, .nothingToInject,
            .lifetimeMismatch:
            return "\(subject): \(detail ?? code.rawValue)."
        case .foreignHandle:
            return "a handle for \(subject) was used with a container that did not make it."
        case .invalidRegistrations:
            let count = problems.count
            return "freeze() found \(count) problem\(count == 1 ? "" : "s") in the registrations:"
        default:
            return "\(code) for \(subject)" + (detail.map { ": \($0)" } ?? ".")
        }
    }

    /// The error of resolving with runtime arguments through a resolver that is none of
    /// Frost's containers.
    @usableFromInline
    static func takesNoArguments(_ type: Any.Type, name: String?, resolver: Any.Type) -> FrostError
    {
        FrostError(
            .argumentMismatch, key: RegistrationKey(type, name: name),
            detail: "this resolver (\(resolver)) does not take runtime arguments")
    }

    /// The error of a deferred resolver whose container is gone.
    static func containerGone(_ type: Any.Type, name: String?) -> FrostError {
        FrostError(.containerGone, key: RegistrationKey(type, name: name))
    }

    /// The same error, reached through `key`: the path grows outward as the error unwinds.
    func prepending(_ key: RegistrationKey) -> FrostError {
        FrostError(
            code,
            key: self.key,
            path: [key] + path,
            catalog: catalog,
            detail: detail,
            underlying: underlying,
            problems: problems,
            advisesBootstrap: storage.advisesBootstrap
        )
    }

    static func describe(_ key: RegistrationKey) -> String {
        guard let name = key.name else { return key.type.name }
        return "\(key.type.name) named \"\(name)\""
    }
}
