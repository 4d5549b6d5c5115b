// swift-tools-version: 6.1
import PackageDescription

// The load measurement of FrostHummingbird (Scripts/hummingbird-load.sh): one release-mode
// server, three ways to wire a request — by hand, plain Frost (`withChild` in the handler),
// and RequestContainerMiddleware. Not part of Frost's build; a package of its own.
let package = Package(
    name: "HummingbirdLoad",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Frost", path: "../..", traits: ["Hummingbird"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "hummingbird-load",
            dependencies: [
                .product(name: "Frost", package: "Frost"),
                .product(name: "FrostHummingbird", package: "Frost"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
