// Per-event cost of the core algorithms: each iteration feeds one million events, and with
// `scalingFactor: .mega` the reported times are per event. The gate judges the malloc counts against
// Benchmarks/Thresholds; times are shown here and judged by TimeRatios within the run (docs/performance.md).
import Benchmark
@_spi(Tooling) import BenchmarkWorkloads
import Suite
import Tolerances

/// Malloc counts against the committed p90 thresholds, with the tolerance table's slack (Gate/tolerances.json).
/// Times are measured for a look, never against a recorded time: a slower runner would fail them.
func perEventConfiguration(_ name: String, maxDuration: Duration = .seconds(2)) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .throughput, .cpuTotal, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: maxDuration,
        maxIterations: 20,
        thresholds: thresholds("CoreAlgorithms:\(name)", [.mallocCountTotal])
    )
}

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "FastingAccumulator",
        configuration: perEventConfiguration("FastingAccumulator"),
        closure: { _ in blackHole(Suite.fasting.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.fasting.eventCount) }
    )
    Benchmark(
        "StepAccumulator",
        configuration: perEventConfiguration("StepAccumulator"),
        closure: { _ in blackHole(Suite.steps.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.steps.eventCount) }
    )
    Benchmark(
        "PaymentProcessor",
        configuration: perEventConfiguration("PaymentProcessor", maxDuration: .seconds(5)),
        closure: { _ in blackHole(Suite.payments.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.payments.eventCount) }
    )
    Benchmark(
        "MealRows",
        // One meals.csv line read in one pass is an event.
        configuration: perEventConfiguration("MealRows"),
        closure: { _ in blackHole(Suite.mealRows.run(injecting: Suite.regression)) },
        setup: { blackHole(Suite.mealRows.lines) }
    )
}
