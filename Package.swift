// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Frost",
    products: [
        .library(name: "Frost", targets: ["Frost"]),
        // A frozen container run as a swift-service-lifecycle Service. Empty unless the
        // consumer enables the "ServiceLifecycle" trait.
        .library(name: "FrostServiceLifecycle", targets: ["FrostServiceLifecycle"]),
        // A Hummingbird 2 middleware that gives each request a child container. Empty unless
        // the consumer enables the "Hummingbird" trait.
        .library(name: "FrostHummingbird", targets: ["FrostHummingbird"]),
        // `@Injectable` and `container.autowire(T.self)`. Empty unless the consumer enables the
        // "Macros" trait, so that a user of Frost alone never resolves swift-syntax.
        .library(name: "FrostMacros", targets: ["FrostMacros"]),
    ],
    traits: [
        .trait(
            name: "Hummingbird",
            description: """
                The FrostHummingbird product: a child container per Hummingbird 2 request. \
                Off by default, so that a user of Frost alone resolves neither Hummingbird nor \
                swift-nio.
                """
        ),
        .trait(
            name: "ServiceLifecycle",
            description: """
                The FrostServiceLifecycle product: a frozen container run as a \
                swift-service-lifecycle Service. Off by default, so that a user of Frost alone \
                resolves neither swift-service-lifecycle nor swift-log.
                """
        ),
        .trait(
            name: "Macros",
            description: """
                The FrostMacros product: `@Injectable` reads an initializer, so that \
                `container.autowire(T.self)` needs nothing else. Off by default, so that a user of \
                Frost alone resolves no swift-syntax.
                """
        ),
    ],
    // Each is used only by target dependencies behind a trait: a consumer that leaves the trait
    // off neither resolves nor fetches it (nor what it depends on). A package that depends on
    // the `Frost` product alone resolves no other package (`make dependency-probe`).
    dependencies: [
        // "ServiceLifecycle"
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // "Hummingbird"
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // "Macros". The range admits SwiftPM's prebuilt swift-syntax.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        // cmph 2.0.2 from the system (Debian: libcmph-dev), found through pkg-config.
        .systemLibrary(
            name: "CCmph",
            path: "include",
            pkgConfig: "cmph",
            providers: [.apt(["libcmph-dev"]), .brew(["libcmph"])]
        ),
        // The C core: perfect-hash construction, the slot array, lookups, create-once.
        .target(
            name: "CFrost",
            dependencies: ["CCmph"],
            // The module map's `link "cmph"` reaches Swift importers; C includes need it here.
            linkerSettings: [.linkedLibrary("cmph")]
        ),
        // The Swift facade: the only public API.
        .target(
            name: "Frost",
            dependencies: ["CFrost"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Sources guarded by `#if ServiceLifecycle`: without the trait, an empty module.
        .target(
            name: "FrostServiceLifecycle",
            dependencies: [
                "Frost",
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(
                    name: "Logging", package: "swift-log",
                    condition: .when(traits: ["ServiceLifecycle"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Sources guarded by `#if Hummingbird`: without the trait, an empty module.
        .target(
            name: "FrostHummingbird",
            dependencies: [
                "Frost",
                .product(
                    name: "Hummingbird", package: "hummingbird",
                    condition: .when(traits: ["Hummingbird"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The compiler plugin that expands `@Injectable` and `@Inject`, and the library that
        // declares them; both empty (`#if Macros`) without the "Macros" trait.
        .macro(
            name: "FrostMacrosPlugin",
            dependencies: [
                .product(
                    name: "SwiftSyntaxMacros", package: "swift-syntax",
                    condition: .when(traits: ["Macros"])),
                .product(
                    name: "SwiftCompilerPlugin", package: "swift-syntax",
                    condition: .when(traits: ["Macros"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "FrostMacros",
            dependencies: [
                "Frost", .target(name: "FrostMacrosPlugin", condition: .when(traits: ["Macros"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Freezes and resolves through every public path; run under valgrind by `make memcheck`.
        .executableTarget(
            name: "frost-smoke",
            dependencies: ["Frost"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "FrostTests",
            dependencies: ["Frost", "CFrost"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The code of README.md and of the DocC articles, compiled and run as written
        // (Scripts/readme-check.sh checks that the documents show this code).
        .testTarget(
            name: "FrostDocumentationTests",
            dependencies: ["Frost"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Run with `swift test --traits ServiceLifecycle`; without the trait, empty.
        .testTarget(
            name: "FrostServiceLifecycleTests",
            dependencies: [
                "Frost",
                "FrostServiceLifecycle",
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(
                    name: "Logging", package: "swift-log",
                    condition: .when(traits: ["ServiceLifecycle"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The code of FrostServiceLifecycle's DocC article and of the README's lifecycle block,
        // run with a real Hummingbird `Application`: `swift test --traits
        // ServiceLifecycle,Hummingbird` (`make lifecycle`); without both traits, empty.
        .testTarget(
            name: "FrostServiceLifecycleDocumentationTests",
            dependencies: [
                "Frost",
                "FrostServiceLifecycle",
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(
                    name: "Logging", package: "swift-log",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(
                    name: "Hummingbird", package: "hummingbird",
                    condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "HummingbirdTesting", package: "hummingbird",
                    condition: .when(traits: ["Hummingbird"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Run with `swift test --traits Hummingbird`; without the trait, empty.
        .testTarget(
            name: "FrostHummingbirdTests",
            dependencies: [
                "Frost",
                "FrostHummingbird",
                .product(
                    name: "Hummingbird", package: "hummingbird",
                    condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "HummingbirdTesting", package: "hummingbird",
                    condition: .when(traits: ["Hummingbird"])),
                // The FrostHummingbird article's per-request logger and its shutdown.
                .product(
                    name: "Logging", package: "swift-log",
                    condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["Hummingbird"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Run with `swift test --traits Macros` (`make macros`); without the trait, empty.
        .testTarget(
            name: "FrostMacrosTests",
            dependencies: [
                "Frost", "FrostMacros",
                .target(name: "FrostMacrosPlugin", condition: .when(traits: ["Macros"])),
                .product(
                    name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax",
                    condition: .when(traits: ["Macros"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)

// swift-docc-plugin, for `make docs` only. A command plugin cannot sit behind a trait (a target
// dependency on a plugin product is taken for a build-tool plugin: "Plugin is declared with the
// `buildTool` capability, but doesn't conform to the `BuildToolPlugin` protocol"), and an
// unconditional package dependency is resolved by every consumer. The manifest adds it only
// when FROST_DOCC_PLUGIN=1 is in the environment, which `make docs` sets; a consumer's
// resolution never sees it.
if Context.environment["FROST_DOCC_PLUGIN"] == "1" {
    package.dependencies.append(
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}
