#if !ServiceLifecycle
    public import Frost

    // Without the package trait "ServiceLifecycle" this module has none of its API
    // (swift-service-lifecycle is not even resolved). This unavailable stand-in takes its
    // public name, so that a user who forgot the trait is told, where they wrote the name, to
    // enable it — rather than "cannot find 'ContainerService' in scope". Swift compiles a
    // declaration that is unavailable without a warning, so the package still builds with
    // warnings as errors.

    /// Unavailable: enable the package trait "ServiceLifecycle".
    @available(
        *, unavailable,
        message: """
            FrostServiceLifecycle is empty without the package trait "ServiceLifecycle": depend \
            on Frost with traits: ["ServiceLifecycle"], e.g. .package(url: "…", from: "…", \
            traits: ["ServiceLifecycle"])
            """
    )
    public struct ContainerService {
        /// Unavailable: enable the package trait "ServiceLifecycle".
        ///
        /// - Parameters:
        ///   - container: The frozen container.
        ///   - servicesAfterBootstrap: Services to start once every singleton exists.
        ///   - logger: The logger of the service.
        @available(*, unavailable, message: "enable the package trait \"ServiceLifecycle\"")
        public init(
            _ container: FrozenContainer,
            startingAfterBootstrap servicesAfterBootstrap: [Any] = [],
            logger: Any
        ) {}
    }
#endif
