@_spi(Tooling) import BenchmarkWorkloads
@_spi(Tooling) import RunEngine
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// The analyzing half of `simharness run` on the first `users` users of the embedded `load` scenario:
/// their batches generated once (not counted), then checked and analyzed by one `BatchAnalyzer`, as a
/// task of `run --replay` does: the kernels plus what `run` does around them (rejection checks,
/// duplicate ordinals, payment ordering, outcome counts, the digest). Here rather than in
/// `BenchmarkWorkloads`, which the Benchmarks package builds without the `RunEngine` module.
struct PipelineWorkload {
    let batches: [SimulationBatch]
    let seed: UInt64

    /// `users` users, `usersPerBatch` at a time.
    init(users: Int, usersPerBatch: Int = 16) {
        // The embedded text, not `ScenarioCatalog.load`, so a `Scenarios/load.yaml` in the current directory changes nothing.
        let scenario = try! ScenarioParser.parse(ScenarioCatalog.embeddedText("load")!, file: "load.yaml")
        let simulator = Simulator(scenario: scenario)
        batches = stride(from: 0, to: users, by: usersPerBatch).map { first in
            var batch = SimulationBatch()
            simulator.fill(&batch, with: UserSelection(users: first..<min(users, first + usersPerBatch)))
            return batch
        }
        seed = scenario.seed
    }

    /// Analyzes every batch; returns the digest (with the injected work's results, if any).
    func run(injecting regression: InjectedRegression) -> UInt64 {
        var analyzer = BatchAnalyzer(jitterSeed: seed)
        var checksum: UInt64 = 0
        var index = 0
        for batch in batches {
            analyzer.analyze(batch)
            // The injected work, if any, once per event (`perEvent` is not inlined across modules: with
            // nothing injected, its calls would only add to the count).
            guard regression != .none else { continue }
            for _ in 0..<batch.eventCount {
                checksum &+= regression.perEvent(index)
                index += 1
            }
        }
        return analyzer.digest &+ checksum
    }
}
