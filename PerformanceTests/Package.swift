// swift-tools-version: 6.1
// The XCTest performance tests, a package of its own (like Benchmarks/ and Fuzz/), so that their release build
// compiles no unit test with -O. Its test target names the `simharness` and `simharness-workloads` executables
// too, so that one release build makes all three: the swarm's, the instruction gate's and these tests' (a
// separate `swift build --product` would not share it: `swift test` passes `-enable-testing` to every module).
// Run from the repository: `swift test --package-path PerformanceTests -c release` (scripts/perf-gate.sh xctest).
import PackageDescription

let package = Package(
    name: "SimHarnessPerformanceTests",
    platforms: [.macOS(.v15)],
    // The default traits: the package's malloc interposer counts the allocations these tests gate.
    dependencies: [.package(name: "SimHarness", path: "..")],
    targets: [
        .testTarget(
            name: "PerformanceTests",
            dependencies: [
                // SimHarness's modules (ProcessMetrics, BenchmarkWorkloads, HealthCore…): this repository's own product, not API.
                .product(name: "_SimHarnessTooling", package: "SimHarness"),
                // Not used by the tests: built by this package's release build for the swarm and the instruction gate.
                .product(name: "simharness", package: "SimHarness"),
                .product(name: "simharness-workloads", package: "SimHarness"),
            ],
            exclude: ["Baselines"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
