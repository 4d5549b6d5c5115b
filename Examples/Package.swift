// swift-tools-version: 6.1
import PackageDescription

// Frost's examples, a package of their own so that Frost itself does not depend on Hummingbird
// or ArgumentParser. Run them and their tests from this folder (see README.md).
let package = Package(
    name: "FrostExamples",
    // For macOS: Hummingbird 2 needs macOS 14, the tests' `Mutex` macOS 15. Linux ignores it.
    platforms: [.macOS(.v15)],
    dependencies: [
        // Frost from this checkout. `name:` gives the dependency a name to refer to, "Frost",
        // whatever the checkout's folder is called: a path dependency's identity is its
        // folder's name (`main` in CI), so `package: "Frost"` would not resolve without it.
        // The traits enable the FrostHummingbird and FrostServiceLifecycle products.
        .package(name: "Frost", path: "..", traits: ["Hummingbird", "ServiceLifecycle"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // A Hummingbird 2 server: app singletons, a child container per request, async
        // start-up and graceful shutdown. The library holds everything but `main`, for tests.
        .target(
            name: "TodoServer",
            dependencies: [
                .product(name: "Frost", package: "Frost"),
                .product(name: "FrostHummingbird", package: "Frost"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "todo-server",
            dependencies: [
                "TodoServer",
                .product(name: "Frost", package: "Frost"),
                .product(name: "FrostServiceLifecycle", package: "Frost"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "TodoServerTests",
            dependencies: [
                "TodoServer",
                .product(name: "Frost", package: "Frost"),
                .product(name: "FrostServiceLifecycle", package: "Frost"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // A command-line tool: a container built, frozen and bootstrapped per run.
        .target(
            name: "TodoCLI",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Frost", package: "Frost"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "frost-todo",
            dependencies: ["TodoCLI"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "TodoCLITests",
            dependencies: [
                "TodoCLI",
                .product(name: "Frost", package: "Frost"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
