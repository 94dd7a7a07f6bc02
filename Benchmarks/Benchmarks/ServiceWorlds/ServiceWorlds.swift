// Deterministic simulation of a user's async service (ServiceSimulation): ten worlds of the fixture
// service of 100 payments and 8 clients, and the seeded executor's job switches; and load mode's driver
// against a service that answers at once. Goals (docs/your-service.md): >= 5,000 worlds a CPU-minute
// (>= 1,000 with the records in SQLite on the simulated disk),
// <= 300 ns a job switch, >= 1,000,000 requests a second on 2 cores. The gate judges their
// malloc counts here (Benchmarks/Thresholds) and their times with TimeRatios.
import Benchmark
@_spi(Tooling) import BenchmarkWorkloads
import Suite
import Tolerances

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "TenWorlds",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .milliseconds, warmupIterations: 1,
            maxDuration: .seconds(3), maxIterations: 50,
            // The worlds allocate the same in every run but for the threads that run them.
            thresholds: thresholds("ServiceWorlds:TenWorlds", [.mallocCountTotal])
        )
    ) { _ in
        blackHole(Suite.serviceWorlds())
    }
    Benchmark(
        "TenWorldsSQLite",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .milliseconds, warmupIterations: 1,
            maxDuration: .seconds(3), maxIterations: 50,
            thresholds: thresholds("ServiceWorlds:TenWorldsSQLite", [.mallocCountTotal])
        )
    ) { _ in
        blackHole(Suite.serviceWorldsOnSQLite())
    }
    Benchmark(
        "JobSwitches",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput], timeUnits: .nanoseconds, warmupIterations: 1,
            scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 50,
            thresholds: thresholds("ServiceWorlds:JobSwitches", [.mallocCountTotal])
        )
    ) { _ in
        blackHole(Suite.jobSwitches())
    }
    Benchmark(
        "LoadInstantService",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput], timeUnits: .milliseconds, warmupIterations: 1,
            maxDuration: .seconds(3), maxIterations: 50,
            // The clients' tasks and their figures, not the requests (none a request).
            thresholds: thresholds("ServiceWorlds:LoadInstantService", [.mallocCountTotal])
        )
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Suite.serviceLoad.runBlocking()) }
    }
}
