// Per-event cost of the core algorithms: each iteration feeds one million events, and with
// `scalingFactor: .mega` the reported times are per event. Thresholds: Benchmarks/Thresholds.
import Benchmark
import BenchmarkWorkloads
import Foundation

let eventsPerIteration = 1_000_000
let regression = InjectedRegression.fromEnvironment(ProcessInfo.processInfo.environment)

// Built lazily, by the setup of the benchmark that uses it (each benchmark runs in its own process).
let fastingWorkload = FastingWorkload(events: eventsPerIteration, days: 365, seed: 1)
let stepWorkload = StepWorkload(events: eventsPerIteration, days: 180, seed: 2)
let paymentWorkload = PaymentWorkload(events: eventsPerIteration, perUser: 200, seed: 3)
let mealRowsWorkload = MealRowsWorkload(lines: eventsPerIteration, users: 100_000, seed: 4)

/// Tolerances against the committed p90 thresholds: loose on times, which the load of a shared
/// machine alone moves by 2× (wall clock) and 1.7× (CPU time), tight on malloc counts, which are
/// deterministic (the benchmark framework itself adds 16 a run). `cpuTolerance` is in percent:
/// Linux counts CPU time in 10 ms ticks, so an iteration of about 10 ms needs more.
func perEventConfiguration(cpuTolerance: Double = 100, maxDuration: Duration = .seconds(2)) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .throughput, .cpuTotal, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: maxDuration,
        maxIterations: 20,
        thresholds: [
            // Up to 3× the recorded time (throughput down to a third): catches gross regressions only.
            .wallClock: .init(relative: [.p90: 200]),
            .throughput: .init(relative: [.p90: 67]),
            // CPU time: up to 2× by default.
            .cpuTotal: .init(relative: [.p90: cpuTolerance]),
            .mallocCountTotal: .init(absolute: [.p90: 16]),
        ]
    )
}

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "FastingAccumulator",
        // 10–30 ms of CPU an iteration, counted in 10 ms ticks: on a machine twice as slow as the one
        // that recorded the threshold (10 ms), 30 ms came up (+200 %). The injected slowdown adds 75–150 ms.
        configuration: perEventConfiguration(cpuTolerance: 250),
        closure: { _ in blackHole(fastingWorkload.run(injecting: regression)) },
        setup: { blackHole(fastingWorkload.eventCount) }
    )
    Benchmark(
        "StepAccumulator",
        configuration: perEventConfiguration(),
        closure: { _ in blackHole(stepWorkload.run(injecting: regression)) },
        setup: { blackHole(stepWorkload.eventCount) }
    )
    Benchmark(
        "PaymentProcessor",
        // ~0.35 s of CPU an iteration: a longer run for a p90 of at least 10 samples.
        configuration: perEventConfiguration(maxDuration: .seconds(5)),
        closure: { _ in blackHole(paymentWorkload.run(injecting: regression)) },
        setup: { blackHole(paymentWorkload.eventCount) }
    )
    Benchmark(
        "MealRows",
        // ~50 ms of CPU an iteration (one meals.csv line read in one pass is an event).
        configuration: perEventConfiguration(),
        closure: { _ in blackHole(mealRowsWorkload.run(injecting: regression)) },
        setup: { blackHole(mealRowsWorkload.lines) }
    )
}
