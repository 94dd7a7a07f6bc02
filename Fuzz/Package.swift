// swift-tools-version: 6.1
// libFuzzer targets, one per input surface: a package of its own (like Benchmarks/) so that normal
// builds and `swift test` never see them. Build and run them with `scripts/fuzz.sh`, which passes
// `-sanitize=fuzzer,address`; each target hands its process to libFuzzer's driver (`FuzzSupport.main`).
import PackageDescription

let simharness = { (name: String) in Target.Dependency.product(name: name, package: "SimHarness") }

let package = Package(
    name: "SimHarnessFuzz",
    platforms: [.macOS(.v15)],
    // No default traits: the package's malloc interposer would take malloc from AddressSanitizer.
    dependencies: [.package(name: "SimHarness", path: "..", traits: [])],
    targets: [
        .target(name: "FuzzSupport", dependencies: [simharness("Datasets"), simharness("HealthCore"), simharness("Analysis")]),
        .executableTarget(name: "FuzzCSVRows", dependencies: ["FuzzSupport", simharness("Datasets"), simharness("HealthCore")]),
        .executableTarget(name: "FuzzNDJSONRows", dependencies: ["FuzzSupport", simharness("Datasets"), simharness("HealthCore")]),
        .executableTarget(name: "FuzzGzip", dependencies: ["FuzzSupport", simharness("Datasets")]),
        .executableTarget(name: "FuzzDataset", dependencies: ["FuzzSupport", simharness("Analysis"), simharness("Datasets")]),
        .executableTarget(name: "FuzzSQLite", dependencies: ["FuzzSupport", simharness("Analysis"), simharness("Datasets")]),
        .executableTarget(name: "FuzzAlgorithms", dependencies: ["FuzzSupport", simharness("HealthCore"), simharness("SpecKernel")]),
        .executableTarget(name: "FuzzScenario", dependencies: ["FuzzSupport", simharness("Scenarios"), simharness("Harness")]),
        .executableTarget(name: "FuzzResultJSON", dependencies: ["FuzzSupport", simharness("RunResults")]),
        .executableTarget(name: "FuzzBaselineJSON", dependencies: ["FuzzSupport", simharness("RunResults")]),
        // Parquet is no product of its own: it comes with Datasets, which writes and reads Parquet datasets.
        .executableTarget(name: "FuzzParquet", dependencies: ["FuzzSupport", simharness("Datasets")]),
        .executableTarget(name: "FuzzStoreLoading", dependencies: ["FuzzSupport", simharness("PaymentSimulation")]),
    ],
    swiftLanguageModes: [.v6]
)
