// swift-tools-version: 6.1
// libFuzzer targets, one per input surface: a package of its own (like Benchmarks/) so that normal
// builds and `swift test` never see them. Build and run them with `scripts/fuzz.sh`, which passes
// `-sanitize=fuzzer,address`; each target hands its process to libFuzzer's driver (`FuzzSupport.main`).
import PackageDescription

// SimHarness's modules (Datasets, Analysis, Harness…) come in one product: this repository's own, not API.
let simharness = Target.Dependency.product(name: "_SimHarnessTooling", package: "SimHarness")

let package = Package(
    name: "SimHarnessFuzz",
    platforms: [.macOS(.v15)],
    // No default traits: the package's malloc interposer would take malloc from AddressSanitizer.
    dependencies: [.package(name: "SimHarness", path: "..", traits: [])],
    targets: [
        .target(name: "FuzzSupport", dependencies: [simharness]),
        .executableTarget(name: "FuzzCSVRows", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzNDJSONRows", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzGzip", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzDataset", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzSQLite", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzAlgorithms", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzScenario", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzResultJSON", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzBaselineJSON", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzParquet", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzStoreLoading", dependencies: ["FuzzSupport", simharness]),
        .executableTarget(name: "FuzzTypedParquet", dependencies: ["FuzzSupport", simharness]),
    ],
    swiftLanguageModes: [.v6]
)
