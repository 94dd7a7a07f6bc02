// Peak resident memory while the core algorithms run over one million events, beyond what the
// workload itself holds (`peakMemoryResidentDelta`). Apart from the per-event benchmarks because
// the memory sampler's own allocations would spoil their malloc counts.
import Benchmark
import BenchmarkWorkloads
import Foundation

let eventsPerIteration = 1_000_000
let regression = InjectedRegression.fromEnvironment(ProcessInfo.processInfo.environment)

let fastingWorkload = FastingWorkload(events: eventsPerIteration, days: 365, seed: 1)
let stepWorkload = StepWorkload(events: eventsPerIteration, days: 180, seed: 2)
let paymentWorkload = PaymentWorkload(events: eventsPerIteration, perUser: 200, seed: 3)

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
        closure: { _ in blackHole(fastingWorkload.run(injecting: regression)) },
        setup: { blackHole(fastingWorkload.eventCount) }
    )
    Benchmark(
        "StepAccumulator memory",
        configuration: memoryConfiguration(),
        closure: { _ in blackHole(stepWorkload.run(injecting: regression)) },
        setup: { blackHole(stepWorkload.eventCount) }
    )
    Benchmark(
        "PaymentProcessor memory",
        configuration: memoryConfiguration(),
        closure: { _ in blackHole(paymentWorkload.run(injecting: regression)) },
        setup: { blackHole(paymentWorkload.eventCount) }
    )
}
