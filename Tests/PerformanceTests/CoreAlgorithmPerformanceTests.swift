import ProcessMetrics
import XCTest

/// The core algorithms on fixed seeded workloads, each sized to about 0.1–0.5 s an iteration in a
/// release build. Adding a test: build a workload, then `try measureAgainstBaseline(events:) { … }`,
/// and record its baseline once with `SIMHARNESS_RECORD_BASELINES=1`.
final class CoreAlgorithmPerformanceTests: XCTestCase {
    private let regression = PerformanceEnvironment.injectedRegression

    func testFastingAnalyzer() throws {
        let workload = FastingWorkload(users: 2_000, days: 365, seed: 1)
        try measureAgainstBaseline(events: workload.eventCount) {
            blackHole(workload.run(injecting: regression))
        }
    }

    func testStepAggregator() throws {
        let workload = StepWorkload(users: 500, days: 180, seed: 2)
        try measureAgainstBaseline(events: workload.eventCount) {
            blackHole(workload.run(injecting: regression))
        }
    }

    func testPaymentProcessor() throws {
        let workload = PaymentWorkload(users: 10_000, perUser: 200, seed: 3)
        try measureAgainstBaseline(events: workload.eventCount) {
            blackHole(workload.run(injecting: regression))
        }
    }
}
