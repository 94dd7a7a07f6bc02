// Simulated worlds of the payment service (`simharness simulate`): one world of 1,000 payments with
// every fault on, over the in-memory store and over SQLite in a file, and a world of 500 payments over
// SQLite on the simulated disk with its faults. Goals (docs/simulate.md, docs/simulated-disk.md):
// >= 10,000 in-memory worlds of 1,000 payments and >= 1,000 worlds of 500 on the simulated disk per
// CPU-minute. The gate judges malloc counts here (Benchmarks/Thresholds) and times with TimeRatios.
import Benchmark
@_spi(Tooling) import PaymentSimulation
import Suite
import Tolerances

/// Malloc counts against the committed p90 thresholds: the same in every run of a world (SQLite's own
/// allocations vary a little with the file system). Times are shown, not judged here.
func worldConfiguration(_ name: String, maxDuration: Duration) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: maxDuration,
        maxIterations: 200,
        thresholds: thresholds("SimulatedWorlds:\(name)", [.mallocCountTotal])
    )
}

let benchmarks: @Sendable () -> Void = {
    Benchmark("World1000Memory", configuration: worldConfiguration("World1000Memory", maxDuration: .seconds(3))) { _ in
        blackHole(try PaymentWorldSimulator.run(Suite.world))
    }
    Benchmark("World1000SQLite", configuration: worldConfiguration("World1000SQLite", maxDuration: .seconds(10))) { _ in
        blackHole(try PaymentWorldSimulator.run(Suite.world, store: .init(kind: .sqlite)))
    }
    Benchmark("World500Disk", configuration: worldConfiguration("World500Disk", maxDuration: .seconds(3))) { _ in
        blackHole(try PaymentWorldSimulator.run(Suite.diskWorld))
    }
}
