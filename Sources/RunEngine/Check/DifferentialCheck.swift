import ParallelWork
import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
import SpecKernel
import UserAlgorithms

/// `run --check-against reference`: after the timed run, drives the implementations under test and
/// the SPEC reference over the same users (a seeded sample of them), each through its own
/// `PartitionWorker`, and compares what they report row by row. The sample depends on the seed and
/// the user only, so every shard, task count and batch size checks the same users. Every check then
/// adds the `BoundaryPopulation` (whatever the sample), so that it reaches every SPEC boundary.
struct DifferentialCheck {
    let simulator: Simulator
    let settings: WorkerSettings
    /// The share of users checked (0 < sample <= 1).
    let sample: Double
    /// Mismatches listed one by one.
    let listed: Int

    /// Checks the sampled users of `selection`, `usersPerBatch` at a time on `tasks` child tasks,
    /// then, on shard 0 only (so that merged shards count it once), the whole `BoundaryPopulation`.
    func run(_ selection: UserSelection, usersPerBatch: Int, tasks: Int) async throws -> CheckReport {
        let users = selection.indices.filter(isSampled)
        var report = CheckReport(sample: sample)
        report.implementations = settings.implementations.customNames
        report.users = users.count
        var found: [Mismatch] = []
        try await check(users, of: simulator, usersPerBatch: usersPerBatch, tasks: tasks, into: &report, found: &found)
        if selection.shard == 0 {
            let population = BoundaryPopulation(after: simulator.scenario, seed: simulator.seed)
            report.boundaryUsers = population.users.count
            try await check(Array(population.users.indices), of: population.simulator, boundaryUsers: true, usersPerBatch: usersPerBatch,
                            tasks: tasks, into: &report, found: &found)
        }
        report.listed = found
        return report
    }

    /// Checks `users` of `generator`, adding their counts and coverage to `report` and their first
    /// mismatches (with their profiles) to `found`, up to `listed` in all.
    private func check(
        _ users: [Int], of generator: Simulator, boundaryUsers: Bool = false, usersPerBatch: Int, tasks: Int,
        into report: inout CheckReport, found: inout [Mismatch]
    ) async throws {
        let chunks = stride(from: 0, to: users.count, by: usersPerBatch).map { users[$0..<min($0 + usersPerBatch, users.count)] }
        var first: [Mismatch] = []
        let limit = listed - found.count
        try await OrderedParallel.run(count: chunks.count, window: 2 * tasks, job: { [self] index in
            compare(Array(chunks[index]), of: generator)
        }, consume: { _, checked in
            let (comparison, coverage) = checked
            report.boundaries.merge(coverage)
            report.mismatches += comparison.mismatches
            report.byField.merge(comparison.byField, uniquingKeysWith: +)
            first += comparison.listedInUserOrder.prefix(limit - first.count)
        })
        found += first.map { withProfile($0, from: generator, boundaryUser: boundaryUsers) }
    }

    /// `mismatch` with its user's UTC offset and fasting protocol, as `generator` made them.
    func withProfile(_ mismatch: Mismatch, from generator: Simulator, boundaryUser: Bool = false) -> Mismatch {
        var described = mismatch
        if boundaryUser { described.boundaryUser = true }
        guard let index = mismatch.userIndex, (0..<generator.scenario.users).contains(index) else { return described }
        let profile = generator.user(index)
        described.utcOffsetMinutes = Int(profile.utcOffsetMinutes)
        described.fastingProtocol = profile.fastingProtocol.name
        return described
    }

    /// Whether `user` is in the sample: a boundary user (always checked), or a hash of the seed and
    /// the user below the share.
    func isSampled(_ user: Int) -> Bool {
        guard sample < 1, !simulator.isBoundaryUser(user) else { return true }
        var mix = SplitMix64(seed: simulator.seed ^ UInt64(user) &* 0xD6E8_FEB8_6659_FD93)
        return Double(mix.next() >> 11) / Double(1 << 53) < sample
    }

    /// Generates `users` of `generator`, runs them through the implementations and the reference, and compares.
    private func compare(_ users: [Int], of generator: Simulator) -> (RowComparison, BoundaryCoverage) {
        var batch = SimulationBatch()
        for user in users { generator.generate(user: user, into: &batch) }
        return checked(batch)
    }

    /// Runs `batch` through the implementations and the reference and compares what they report; also
    /// the sides of each SPEC boundary the batch's users reached.
    func checked(_ batch: SimulationBatch) -> (RowComparison, BoundaryCoverage) {
        var untimed = settings
        untimed.timing = false
        var theirs: ResultRecorder? = ResultRecorder(), reference: ResultRecorder? = ResultRecorder()
        var sut = PartitionWorker(settings: untimed)
        sut.run(batch, output: &theirs)
        var oracle = PartitionWorker(settings: untimed, implementations: .reference)
        oracle.run(batch, output: &reference)
        var comparison = RowComparison(listed: listed)
        comparison.compare(theirs!, with: reference!)
        var coverage = BoundaryCoverage()
        var probe = BoundaryProbe(minimumFastSeconds: settings.algorithm.minimumFastSeconds, maxAttempts: settings.algorithm.policy.maxAttempts)
        probe.observe(batch, reference: reference!, into: &coverage)
        return (comparison, coverage)
    }
}
