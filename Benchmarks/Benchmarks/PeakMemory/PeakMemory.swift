// Peak resident memory while the core algorithms run over one million events, beyond what the
// workload itself holds (`peakMemoryResidentDelta`). Apart from the per-event benchmarks because
// the memory sampler's own allocations would spoil their malloc counts.
import Benchmark
@_spi(Tooling) import BenchmarkWorkloads
import Suite
import Tolerances

/// The algorithms keep O(1) state per user, so what they add is small: a regression that buffers
/// events or days shows as tens of MiB. The slack of each metric is the tolerance table's (Gate/tolerances.json).
func memoryConfiguration(_ name: String) -> Benchmark.Configuration {
    .init(
        metrics: [.peakMemoryResident, .peakMemoryResidentDelta],
        warmupIterations: 1,
        maxDuration: .seconds(1),
        maxIterations: 5,
        thresholds: thresholds("PeakMemory:\(name)", [.peakMemoryResident, .peakMemoryResidentDelta])
    )
}

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "FastingAccumulator memory",
        configuration: memoryConfiguration("FastingAccumulator memory"),
        closure: { _ in blackHole(Suite.fasting.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.fasting.eventCount) }
    )
    Benchmark(
        "StepAccumulator memory",
        configuration: memoryConfiguration("StepAccumulator memory"),
        closure: { _ in blackHole(Suite.steps.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.steps.eventCount) }
    )
    Benchmark(
        "PaymentProcessor memory",
        configuration: memoryConfiguration("PaymentProcessor memory"),
        closure: { _ in blackHole(Suite.payments.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.payments.eventCount) }
    )
    Benchmark(
        "ServiceWorlds memory",
        // 500 worlds of a user's service an iteration: a crash abandons the service's suspended tasks, and
        // what a world leaves behind would add up here (docs/your-service.md: memory stays flat).
        configuration: memoryConfiguration("ServiceWorlds memory"),
        closure: { _ in blackHole(Suite.serviceWorlds(count: 500)) }
    )
}
