@_spi(Tooling) import BenchmarkWorkloads
@_spi(Tooling) import ProcessMetrics
import XCTest

/// The core algorithms on fixed seeded workloads, each sized to about 0.1–0.3 s an iteration in a
/// release build (XCTest's own `measure` check fails above a 0.1 s standard deviation, which a busy
/// machine reaches with longer iterations). Adding a test: build a workload, then
/// `try measureAgainstBaseline(events:) { … }`, and record its baseline once with
/// `SIMHARNESS_RECORD_BASELINES=1`.
final class CoreAlgorithmPerformanceTests: BaselinePerformanceTestCase {
    func testFastingAnalyzer() throws {
        // 1.5 million meals analyzed 10 times an iteration: the analyzer takes ~10 ns a meal.
        let workload = FastingWorkload(events: 1_500_000, days: 365, seed: 1)
        let passes = 10
        try measureAgainstBaseline(events: workload.eventCount * passes) {
            for _ in 0..<passes { blackHole(workload.run(injecting: regression)) }
        }
    }

    func testStepAggregator() throws {
        let workload = StepWorkload(events: 1_500_000, days: 180, seed: 2)
        try measureAgainstBaseline(events: workload.eventCount) {
            blackHole(workload.run(injecting: regression))
        }
    }

    func testGenerator() throws {
        // The simulator's generation of 6,000 `load` users, 16 to a reused batch: its allocation count
        // guards the per-user copies and tables that generation no longer makes.
        let workload = GenerationWorkload(users: 6_000)
        try measureAgainstBaseline(events: workload.countEvents()) {
            blackHole(workload.run(injecting: regression))
        }
    }

    func testPaymentProcessor() throws {
        let workload = PaymentWorkload(events: 400_000, perUser: 200, seed: 3)
        try measureAgainstBaseline(events: workload.eventCount) {
            blackHole(workload.run(injecting: regression))
        }
    }
}
