// Peak resident memory while the core algorithms run over one million events, beyond what the
// workload itself holds (`peakMemoryResidentDelta`). Apart from the per-event benchmarks because
// the memory sampler's own allocations would spoil their malloc counts.
import Benchmark
@_spi(Tooling) import BenchmarkWorkloads
import Suite

/// The algorithms keep O(1) state per user, so what they add is small: a regression that buffers
/// events or days shows as tens of MiB. 25 % or 4 MiB of slack, whichever binds first.
func memoryConfiguration() -> Benchmark.Configuration {
    .init(
        metrics: [.peakMemoryResident, .peakMemoryResidentDelta],
        warmupIterations: 1,
        maxDuration: .seconds(1),
        maxIterations: 5,
        thresholds: [
            .peakMemoryResident: .init(relative: [.p90: 25]),
            .peakMemoryResidentDelta: .init(absolute: [.p90: 4 << 20]),
        ]
    )
}

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "FastingAccumulator memory",
        configuration: memoryConfiguration(),
        closure: { _ in blackHole(Suite.fasting.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.fasting.eventCount) }
    )
    Benchmark(
        "StepAccumulator memory",
        configuration: memoryConfiguration(),
        closure: { _ in blackHole(Suite.steps.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.steps.eventCount) }
    )
    Benchmark(
        "PaymentProcessor memory",
        configuration: memoryConfiguration(),
        closure: { _ in blackHole(Suite.payments.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.payments.eventCount) }
    )
    Benchmark(
        "ServiceWorlds memory",
        // 500 worlds of a user's service an iteration: a crash abandons the service's suspended tasks, and
        // what a world leaves behind would add up here (docs/your-service.md: memory stays flat).
        configuration: memoryConfiguration(),
        closure: { _ in blackHole(Suite.serviceWorlds(count: 500)) }
    )
}
