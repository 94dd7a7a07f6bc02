// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SimHarness",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "simharness", targets: ["simharness"]),
        .library(name: "SimHarnessKit", targets: ["SimHarnessKit"]),
        .executable(name: "simharness-workloads", targets: ["simharness-workloads"]),
        // Not API (docs/versioning.md): the modules this repository's own tooling packages (Benchmarks/,
        // PerformanceTests/, Fuzz/) import. Underscored, outside semantic versioning, may change in any release.
        .library(
            name: "_SimHarnessTooling",
            targets: [
                "HealthCore", "UserProfiles", "PaymentsCore", "DatasetText", "Datasets", "Parquet", "SpecKernel", "Analysis", "Scenarios", "Generation", "Export", "ProcessMetrics",
                "RunResults", "RunEngine", "BenchmarkWorkloads", "ServiceFixtures", "PaymentSimulation", "Reports", "ServiceSimulation", "ServiceLoad", "SimulationCore", "PlantedFlaws",
            ]
        ),
    ],
    traits: [
        .trait(
            name: "Jemalloc",
            description: "Link libjemalloc (apt: libjemalloc-dev) and read allocation statistics with mallctl."
        ),
        .trait(
            name: "MallocInterposer",
            description: "Count malloc calls and bytes with the package's own malloc family over glibc's (the default)."
        ),
        .trait(
            name: "WorldInterposers",
            description: "Seeded worlds read virtual time and seeded randomness from the C library's clock and random functions (the default)."
        ),
        .default(enabledTraits: ["MallocInterposer", "WorldInterposers"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // The C libraries of the system. With `pkgConfig`, a machine without one (its .pc file missing)
        // gets SwiftPM's warning naming the package to install ("apt-get install libzstd-dev") before the
        // compiler's "'zstd.h' file not found".
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CJemalloc", path: "Sources/CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]),
        .systemLibrary(name: "CGlibcMalloc", path: "Sources/CGlibcMalloc"),
        .target(name: "CPrefetch"),
        .target(name: "CChecksum"),
        .target(name: "CSimulatedDisk", dependencies: ["CSQLite"], linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "SimulatedDisk", dependencies: ["CSimulatedDisk"]),
        .target(
            name: "CAllocationCounter",
            cSettings: [.define("ALLOCATION_COUNTER_DISABLED", .when(traits: ["Jemalloc"]))]
        ),
        .target(
            name: "ProcessMetrics",
            dependencies: [
                .target(name: "CJemalloc", condition: .when(traits: ["Jemalloc"])),
                .target(name: "CGlibcMalloc", condition: .when(platforms: [.linux])),
                .target(name: "CAllocationCounter", condition: .when(traits: ["MallocInterposer"])),
            ]
        ),
        .target(name: "HealthCore"),
        // The users.csv row (SPEC §1) and the body metrics the generator derives from it: what the readers and the
        // generator share, not what a user's algorithms receive.
        .target(name: "UserProfiles", dependencies: ["HealthCore"]),
        .target(name: "Parquet", dependencies: ["CZlib", "CZstd"]),
        .target(name: "PaymentsCore"),
        .target(name: "DatasetText", dependencies: ["HealthCore", "PaymentsCore"]),
        .target(
            name: "Datasets",
            dependencies: [
                "DatasetText", "HealthCore", "UserProfiles", "PaymentsCore", "CZlib", "CPrefetch", "CChecksum", "Parquet",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(name: "Scenarios", dependencies: ["HealthCore", "UserProfiles", "PaymentsCore", .product(name: "Yams", package: "Yams")]),
        .target(name: "Generation", dependencies: ["HealthCore", "UserProfiles", "PaymentsCore", "Scenarios"]),
        .target(
            name: "Export",
            dependencies: ["Generation", "Datasets", "DatasetText", "Parquet", "ParallelWork", "Scenarios", "HealthCore", "UserProfiles", "PaymentsCore"]
        ),
        .target(name: "UserAlgorithms", dependencies: ["HealthCore", "PaymentsCore"]),
        .target(name: "SpecKernel", dependencies: ["HealthCore", "PaymentsCore", "UserAlgorithms"]),
        .target(name: "PaymentService", dependencies: ["PaymentsCore", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "PaymentSimulation",
            dependencies: ["PaymentService", "PaymentsCore", "PlantedFlaws", "SimulatedDisk", "SimulationCore"]
        ),
        // The one catalogue of the flaws planted in SimHarness's own services, and their planting in the reference
        // service from outside it.
        .target(name: "PlantedFlaws", dependencies: ["PaymentService", "PaymentsCore"]),
        .target(name: "ParallelWork"),
        // What both simulators share: the catalogue of invariants a world can break.
        .target(name: "SimulationCore"),
        .target(
            name: "RunResults",
            dependencies: ["Scenarios", "HealthCore", "PaymentsCore", "ProcessMetrics", .product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        .target(name: "Reports", dependencies: ["RunResults", "ProcessMetrics", "PaymentsCore", "CZlib"]),
        .target(
            name: "BenchmarkWorkloads",
            dependencies: [
                "HealthCore", "UserProfiles", "PaymentsCore", "Datasets", "Scenarios", "Generation", "ServiceSimulation", "ServiceLoad", "ServiceFixtures",
                "SimulationCore",
            ]
        ),
        // Payment services with planted bugs, and SimHarness's own service adapted, on ServiceSimulation's API: what
        // the service tests and the benchmarks run.
        .target(
            name: "ServiceFixtures",
            dependencies: ["PaymentsCore", "PaymentService", "PlantedFlaws", "ServiceSimulation", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .executableTarget(name: "simharness-workloads", dependencies: ["BenchmarkWorkloads", "RunEngine", "Scenarios", "Generation"]),
        .target(name: "Analysis", dependencies: ["Datasets", "SpecKernel", "ParallelWork", "HealthCore", "UserProfiles", "PaymentsCore", "CPrefetch"]),
        .target(
            name: "RunEngine",
            dependencies: [
                "Scenarios", "Generation", "RunResults", "SpecKernel", "UserAlgorithms", "DatasetText", "HealthCore", "UserProfiles", "PaymentsCore",
                "ProcessMetrics", "ParallelWork",
            ]
        ),
        .plugin(name: "BuildCommit", capability: .buildTool()),
        .target(
            name: "SimHarnessKit",
            dependencies: [
                "Analysis", "Datasets", "Export", "Scenarios", "Generation", "RunEngine", "RunResults", "ProcessMetrics", "CGlibcMalloc",
                "PaymentService", "PaymentSimulation", "Reports", "UserAlgorithms", "SpecKernel", "HealthCore", "PaymentsCore",
                "PlantedFlaws", "ServiceSimulation", "ServiceLoad", "SimulationCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["BuildCommit"]
        ),
        .executableTarget(name: "simharness", dependencies: ["SimHarnessKit"]),
        // Seeded, one-thread schedules of async code with a virtual clock: the basis of simulating a user's
        // async service (docs/your-service.md).
        // The process's clocks, randomness and reads, per thread: a seeded world's on its thread, the C
        // library's elsewhere (definitions in the executable interpose the C library's).
        .target(name: "CWorldHooks"),
        .target(name: "CWorldInterposers", dependencies: ["CWorldHooks"]),
        // The process's default and main executors (Swift 6.3's experimental executor SPI stays here).
        .target(name: "WorldExecutors", dependencies: ["CWorldHooks"]),
        .target(
            name: "ServiceSimulation",
            dependencies: [
                "PaymentsCore", "SimulatedDisk", "SimulationCore", "WorldExecutors", "CWorldHooks",
                .target(name: "CWorldInterposers", condition: .when(traits: ["WorldInterposers"])),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // Load mode for a user's async service: the scenario's payment stream from concurrent clients on every
        // core, measured into a RunResult and checked against the SPEC reference (docs/your-service.md).
        .target(name: "ServiceLoad", dependencies: ["ServiceSimulation", "PaymentsCore", "Scenarios", "Generation", "RunResults", "ProcessMetrics"]),
        .target(name: "TestSupport", dependencies: ["HealthCore", "UserProfiles", "PaymentsCore", "Scenarios", "Datasets", "Parquet"], path: "Tests/TestSupport"),
        .testTarget(name: "HealthCoreTests", dependencies: ["HealthCore", "TestSupport"]),
        .testTarget(name: "UserProfilesTests", dependencies: ["UserProfiles", "HealthCore", "TestSupport"]),
        .testTarget(name: "SimulationCoreTests", dependencies: ["SimulationCore"]),
        .testTarget(name: "PlantedFlawsTests", dependencies: ["PlantedFlaws", "PaymentService", "PaymentsCore", "TestSupport"]),
        .testTarget(name: "PaymentsCoreTests", dependencies: ["PaymentsCore", "TestSupport"]),
        .testTarget(name: "ParallelWorkTests", dependencies: ["ParallelWork"]),
        .testTarget(
            name: "ServiceSimulationTests",
            dependencies: ["ServiceSimulation", "SimulationCore", "WorldExecutors", "PaymentsCore", "ServiceFixtures", "PlantedFlaws", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "ServiceLoadTests",
            dependencies: ["ServiceLoad", "ServiceSimulation", "PaymentsCore", "Scenarios", "RunResults", "ServiceFixtures", "PlantedFlaws", "TestSupport"]
        ),
        // SimHarness.main(service:)'s commands in process: the only tests that import SimHarnessKit (CLITests and
        // RunEngineTests run the built executable).
        .testTarget(name: "SimHarnessKitTests", dependencies: ["SimHarnessKit", "ServiceLoad", "ServiceSimulation", "ServiceFixtures", "PaymentSimulation", "SimulationCore", "TestSupport"]),
        .testTarget(name: "ParquetTests", dependencies: ["Parquet"], resources: [.copy("Fixtures")]),
        .testTarget(name: "SimulatedDiskTests", dependencies: ["SimulatedDisk", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "PaymentServiceTests", dependencies: ["PaymentService", "PaymentsCore", "TestSupport"]),
        .testTarget(
            name: "PaymentSimulationTests",
            dependencies: ["PaymentSimulation", "PaymentService", "PaymentsCore", "SimulationCore", "PlantedFlaws", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "SpecKernelTests", dependencies: ["SpecKernel", "HealthCore", "PaymentsCore", "TestSupport"]),
        .testTarget(
            name: "DatasetsTests",
            dependencies: ["Datasets", "DatasetText", "HealthCore", "UserProfiles", "PaymentsCore", "TestSupport", "CZlib", "Parquet", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "ScenariosTests", dependencies: ["Scenarios", "HealthCore", "PaymentsCore", "TestSupport"]),
        .testTarget(
            name: "GenerationTests",
            dependencies: [
                "Generation", "Export", "Scenarios", "Datasets", "HealthCore", "UserProfiles", "PaymentsCore", "TestSupport", "Parquet",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "AnalysisTests",
            dependencies: [
                "Analysis", "Datasets", "TestSupport", "CZlib", "Parquet",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "CLITests", dependencies: ["simharness", "TestSupport", "PaymentsCore"]),
        .testTarget(name: "ProcessMetricsTests", dependencies: ["ProcessMetrics"]),
        .testTarget(name: "BenchmarkWorkloadsTests", dependencies: ["BenchmarkWorkloads", "Datasets", "ProcessMetrics", "Scenarios", "Generation"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "RunResults", "PaymentsCore", "ProcessMetrics"]),
        .testTarget(
            name: "RunResultsTests",
            dependencies: ["RunResults", "Scenarios", "HealthCore", "PaymentsCore", "ProcessMetrics", "TestSupport"]
        ),
        .testTarget(
            name: "RunEngineTests",
            dependencies: [
                "simharness", "RunEngine", "RunResults", "Scenarios", "Generation", "Export", "Analysis", "Datasets", "HealthCore", "PaymentsCore",
                "ProcessMetrics", "TestSupport", .product(name: "Yams", package: "Yams"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// SIMHARNESS_TEST_TARGETS=A,B keeps only those test targets: the ThreadSanitizer build (scripts/sanitizers.sh)
// compiles only the suites it runs.
if let kept = Context.environment["SIMHARNESS_TEST_TARGETS"] {
    let names = Set(kept.split(separator: ",").map(String.init))
    package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
}
