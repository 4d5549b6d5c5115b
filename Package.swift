// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Frost",
    products: [
        .library(name: "Frost", targets: ["Frost"])
    ],
    targets: [
        // cmph 2.0.2 from the system (Debian: libcmph-dev), found through pkg-config.
        .systemLibrary(
            name: "CCmph",
            path: "include",
            pkgConfig: "cmph",
            providers: [.apt(["libcmph-dev"])]
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
    ]
)
