// Simulated worlds of the payment service (`simharness simulate`): the time of one world of 1,000
// payments with every fault on, over the in-memory store and over SQLite in a file, and of a world of
// 500 payments over SQLite on the simulated disk with its faults. Goals (docs/simulate.md,
// docs/simulated-disk.md): >= 10,000 in-memory worlds of 1,000 payments and >= 1,000 worlds of 500
// on the simulated disk per CPU-minute. Thresholds: Benchmarks/Thresholds.
import Benchmark
import Foundation
import PaymentSimulation

let world = WorldConfiguration(seed: 0x5EED, payments: 1_000, clients: 8, faults: .all)
let diskWorld = WorldConfiguration(seed: 0x5EED, payments: 500, clients: 8, faults: .all, store: .disk)

/// Tolerances against the committed p90 thresholds: loose on times (a shared machine moves them by
/// 2×), tight on malloc counts, which are the same in every run of a world (SQLite's own allocations
/// vary a little with the file system: 5 %).
func worldConfiguration(maxDuration: Duration, mallocTolerance: Double = 1) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: maxDuration,
        maxIterations: 200,
        thresholds: [
            .wallClock: .init(relative: [.p90: 200]),
            .cpuTotal: .init(relative: [.p90: 100]),
            .throughput: .init(relative: [.p90: 67]),
            .mallocCountTotal: .init(relative: [.p90: mallocTolerance]),
        ]
    )
}

let benchmarks: @Sendable () -> Void = {
    Benchmark("World1000Memory", configuration: worldConfiguration(maxDuration: .seconds(3))) { _ in
        blackHole(try PaymentWorldSimulator.run(world))
    }
    Benchmark("World1000SQLite", configuration: worldConfiguration(maxDuration: .seconds(10), mallocTolerance: 5)) { _ in
        blackHole(try PaymentWorldSimulator.run(world, store: .init(kind: .sqlite)))
    }
    Benchmark("World500Disk", configuration: worldConfiguration(maxDuration: .seconds(3), mallocTolerance: 5)) { _ in
        blackHole(try PaymentWorldSimulator.run(diskWorld))
    }
}
