// swift-tools-version: 6.1
import PackageDescription

// The benchmark lives in its own package so that the library stays free of benchmark
// dependencies. It measures Frost against Swinject 2.10.0 and pointfreeco's
// swift-dependencies 1.17.1 (what Swift users use today) and hand-written construction.
let package = Package(
    name: "FrostBenchmarks",
    dependencies: [
        // The "Macros" trait: the @Injectable cases (swift-dependencies brings swift-syntax anyway).
        .package(name: "Frost", path: "..", traits: ["Macros"]),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        // Counts the process's allocations (glibc), for the allocations-per-operation figures.
        .target(name: "AllocationCounter"),
        .executableTarget(
            name: "frost-bench",
            dependencies: [
                "AllocationCounter",
                .product(name: "Frost", package: "Frost"),
                .product(name: "FrostMacros", package: "Frost"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
