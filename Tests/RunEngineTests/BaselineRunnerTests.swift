import Foundation
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import RunEngine
import TestSupport

/// `BaselineRunner`, the engine's side of `baseline record`: it measures a scenario several times.
@Suite("Baseline measurement")
struct BaselineRunnerTests {
    @Test("medians of real runs: deterministic metrics recorded exactly, the fixed load forced")
    func measuredBaseline() async throws {
        // Given a small scenario measured three times
        let plan = ScenarioBuilder(users: 30, days: 2, seed: 5).faulty().plan(load: .duration(.seconds(60)))
        // When measured (the duration model is replaced by one fixed pass)
        let sut = try await BaselineRunner.measure(plan, options: .test(tasks: 2), repetitions: 3)
        // Then the counts are those of one pass, and the outputs' digest is kept
        #expect(sut.repetitions == 3)
        #expect(sut.load == "fixed")
        #expect(sut.metrics["users"]?.value == 30)
        #expect(sut.metrics["users"]?.kind == .exact)
        #expect(sut.metrics["total.events_per_s"]?.kind == .throughput)
        #expect(sut.outputDigest != nil)
    }
}
