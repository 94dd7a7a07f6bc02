import Foundation
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import RunEngine
@_spi(Tooling) import Generation
import TestSupport

@Suite("Replaying batches generated before the run", .budget(minutes: 2))
struct ReplayTests {
    @Test("a replayed run analyzes the same batches: the same digest, counts and output files, and no generation inside the run")
    func sameOutputs() async throws {
        // Given one scenario run twice, generating as it goes and replaying
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let plan = ScenarioBuilder(users: 150, days: 3, seed: 4).faulty().plan(batchUsers: 7)
        let generated = try await ScenarioRunner.run(plan, options: .test(tasks: 2, out: directory.file("generated")))
        var options = RunOptions.test(tasks: 2, out: directory.file("replayed"))
        options.replay = true
        // When the second replays
        let sut = try await ScenarioRunner.run(plan, options: options)
        // Then everything it reports of the data is the same
        #expect(sut.metrics.digest == generated.metrics.digest)
        #expect(sut.metrics.total.events == generated.metrics.total.events)
        #expect(sut.metrics.meals.rejected == generated.metrics.meals.rejected)
        #expect(sut.metrics.paymentStates == generated.metrics.paymentStates)
        for file in SpecOutputSink.fileNames + ["totals.json"] {
            #expect(contents(directory.file("replayed/\(file)")) == contents(directory.file("generated/\(file)")), "\(file)")
        }
        // And the generation happened before the run: none is measured inside it
        #expect(sut.metrics.generation.events == 0)
        #expect(sut.replay?.events == generated.metrics.total.events)
        #expect(generated.replay == nil)
    }

    @Test("a BatchAnalyzer fed a run's batches one after another reports that run's digest")
    func batchAnalyzerDigest() async throws {
        // Given a faulty scenario run with one task, and the same scenario's batches
        let plan = ScenarioBuilder(users: 60, days: 3, seed: 9).faulty().plan(batchUsers: 7)
        let run = try await ScenarioRunner.run(plan, options: .test(tasks: 1))
        let simulator = Simulator(scenario: plan.scenario, seed: plan.scenario.seed)
        var sut = BatchAnalyzer(jitterSeed: plan.scenario.seed)
        // When they are analyzed synchronously
        for users in stride(from: 0, to: 60, by: 7) {
            var batch = SimulationBatch()
            simulator.fill(&batch, with: UserSelection(users: users..<min(60, users + 7)))
            sut.analyze(batch)
        }
        // Then the digest is the run's
        #expect(sut.digest == run.metrics.digest)
    }

    @Test("the replay figures survive the JSON result, and the summary says the figures are the algorithms' alone")
    func reported() async throws {
        // Given a replayed run
        var options = RunOptions.test(tasks: 1)
        options.replay = true
        let sut = try await ScenarioRunner.run(ScenarioBuilder(users: 20, days: 2, seed: 1).plan(), options: options)
        // When it is written and read back, and summarized
        let decoded = try ResultJSON.decode(try ResultJSON.encode(sut))
        // Then the figures are kept and named
        #expect(decoded.replay == sut.replay)
        #expect(Summary.render(sut, style: TextStyle(enabled: false)).contains("then replayed: the figures above are the algorithms' alone"))
    }
}
