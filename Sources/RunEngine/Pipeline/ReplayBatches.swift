import ParallelWork
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// `run --replay`: every batch of one pass, generated before the run starts and kept in memory, so
/// that the run measures the algorithms alone. The pipeline hands the stored batches out as they
/// are (arrays are shared, not copied); a run of several passes repeats the first pass's batches.
struct ReplayBatches: Sendable {
    /// The batches of one pass, in part order.
    let batches: [SimulationBatch]
    /// Events in one pass.
    let events: Int

    /// Generates `parts` with the pass-0 simulator of `scenario` and `seed`, `tasks` at a time.
    static func generate(scenario: Scenario, seed: UInt64, parts: [UserSelection], tasks: Int) async throws -> ReplayBatches {
        let simulator = Simulator(scenario: scenario, seed: seed)
        var batches: [SimulationBatch] = []
        batches.reserveCapacity(parts.count)
        try await OrderedParallel.run(count: parts.count, window: 2 * tasks, job: { index in
            var batch = SimulationBatch()
            simulator.fill(&batch, with: parts[index])
            return batch
        }, consume: { _, batch in batches.append(batch) })
        return ReplayBatches(batches: batches, events: batches.reduce(0) { $0 + $1.eventCount })
    }
}
