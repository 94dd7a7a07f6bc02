// swift-tools-version: 6.1
// The package-benchmark suite, a package of its own so that the main package builds stay fast.
// Run from this directory: `swift package benchmark`; CI runs `scripts/perf-gate.sh`.
import PackageDescription

// SimHarness's modules come in one product, `_SimHarnessTooling`: this repository's own, not API (docs/versioning.md).
let tooling: Target.Dependency = .product(name: "_SimHarnessTooling", package: "SimHarness")
let benchmarkDependencies: [Target.Dependency] = [.product(name: "Benchmark", package: "benchmark"), "Suite", "Tolerances", tooling]

let package = Package(
    name: "SimHarnessBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // No default traits: the package's malloc interposer would take malloc from package-benchmark's.
        .package(name: "SimHarness", path: "..", traits: []),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The suite's workloads, defined once for the benchmarks and for TimeRatios.
        .target(name: "Suite", dependencies: [tooling], path: "Suite"),
        // The gates' tolerance table (Gate/tolerances.json), as package-benchmark's thresholds.
        .target(name: "Tolerances", dependencies: [.product(name: "Benchmark", package: "benchmark"), "Suite", tooling], path: "Tolerances"),
        // The time half of the gate: each workload's time in reference loops run beside it, each round paired with a
        // round of the base commit's build (Gate/time-base; the counts are package-benchmark's, against Thresholds).
        // (Not in a folder of Benchmarks/ directly: the benchmark plugin would take it for a benchmark and run it.)
        .executableTarget(name: "TimeRatios", dependencies: ["Suite", tooling], path: "Gate/TimeRatios"),
        // Per-event cost: wall clock, throughput, CPU time and malloc counts.
        .executableTarget(
            name: "CoreAlgorithms",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/CoreAlgorithms",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Simulated worlds of the payment service: time a world, over each store.
        .executableTarget(
            name: "SimulatedWorlds",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/SimulatedWorlds",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Reports: an hour-long soak's result read and rendered as HTML (goal: < 1 s).
        .executableTarget(
            name: "ReportRendering",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/ReportRendering",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Seeded worlds of a user's async service, and the seeded executor's job switches.
        .executableTarget(
            name: "ServiceWorlds",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/ServiceWorlds",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Peak resident memory, apart: its sampling thread allocates and would spoil the malloc counts.
        .executableTarget(
            name: "PeakMemory",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/PeakMemory",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
