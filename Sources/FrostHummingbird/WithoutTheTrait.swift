#if !Hummingbird
    public import Frost

    // Without the package trait "Hummingbird" this module has none of its API (Hummingbird is
    // not even resolved). These unavailable stand-ins take its public names, so that a user
    // who forgot the trait is told, where they wrote the name, to enable it — rather than
    // "cannot find 'RequestContainerMiddleware' in scope". Swift compiles a declaration that
    // is unavailable without a warning, so the package still builds with warnings as errors.

    /// Unavailable: enable the package trait "Hummingbird".
    @available(
        *, unavailable,
        message: """
            FrostHummingbird is empty without the package trait "Hummingbird": depend on Frost \
            with traits: ["Hummingbird"], e.g. .package(url: "…", from: "…", traits: ["Hummingbird"])
            """
    )
    public struct RequestContainerMiddleware<Context> {
        /// Unavailable: enable the package trait "Hummingbird".
        ///
        /// - Parameters:
        ///   - parent: The application container.
        ///   - configure: Registers the request's values in its child.
        @available(*, unavailable, message: "enable the package trait \"Hummingbird\"")
        public init(
            _ parent: FrozenContainer,
            configure: @escaping (Any, Any, Container) async throws -> Void = { _, _, _ in }
        ) {}
    }

    // Without it, `RequestContainerMiddleware(app) { … }` (no context type written) would fail
    // with "generic parameter 'Context' could not be inferred" before the message is seen.
    @available(*, unavailable)
    extension RequestContainerMiddleware where Context == Any {
        /// Unavailable: enable the package trait "Hummingbird".
        ///
        /// - Parameters:
        ///   - parent: The application container.
        ///   - configure: Registers the request's values in its child.
        @available(*, unavailable, message: "enable the package trait \"Hummingbird\"")
        public init(
            _ parent: FrozenContainer,
            configure: @escaping (Any, Any, Container) async throws -> Void = { _, _, _ in }
        ) {}
    }

    /// Unavailable: enable the package trait "Hummingbird".
    @available(
        *, unavailable,
        message: """
            FrostHummingbird is empty without the package trait "Hummingbird": depend on Frost \
            with traits: ["Hummingbird"], e.g. .package(url: "…", from: "…", traits: ["Hummingbird"])
            """
    )
    public struct BasicFrostRequestContext {}

    /// Unavailable: enable the package trait "Hummingbird".
    @available(
        *, unavailable,
        message: """
            FrostHummingbird is empty without the package trait "Hummingbird": depend on Frost \
            with traits: ["Hummingbird"], e.g. .package(url: "…", from: "…", traits: ["Hummingbird"])
            """
    )
    public protocol FrostRequestContext {}
#endif
