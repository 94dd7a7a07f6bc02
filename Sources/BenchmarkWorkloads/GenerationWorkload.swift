@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// The simulator's generation of the first `users` users of the embedded `load` scenario, batch
/// after batch into one reused `SimulationBatch` (as a `run` partition does): the generating
/// half of `simharness run`, without the analysis.
@_spi(Tooling) public struct GenerationWorkload: Sendable {
    let simulator: Simulator
    let users: Int
    let usersPerBatch: Int

    /// `users` users, `usersPerBatch` at a time.
    @_spi(Tooling) public init(users: Int, usersPerBatch: Int = 16) {
        // The embedded text, not `ScenarioCatalog.load`, so a `Scenarios/load.yaml` in the current directory changes nothing.
        let text = ScenarioCatalog.embeddedText("load")!
        simulator = Simulator(scenario: try! ScenarioParser.parse(text, file: "load.yaml"))
        self.users = users
        self.usersPerBatch = usersPerBatch
    }

    /// The events (meal, step and payment rows) a run generates, counted by generating them once.
    @_spi(Tooling) public func countEvents() -> Int {
        simulator.forEachBatch(UserSelection(users: 0..<users), usersPerBatch: usersPerBatch)
    }

    /// Generates every user; returns a checksum of the rows' counts and times.
    @_spi(Tooling) public func run(injecting regression: InjectedRegression) -> UInt64 {
        var checksum: UInt64 = 0
        var batch = SimulationBatch()
        for first in stride(from: 0, to: users, by: usersPerBatch) {
            simulator.fill(&batch, with: UserSelection(users: first..<min(users, first + usersPerBatch)))
            checksum &+= UInt64(batch.eventCount) &+ regression.perUser(first)
            for (index, row) in batch.steps.enumerated() {
                checksum &+= UInt64(bitPattern: row.start) &+ regression.perEvent(index)
            }
            for row in batch.meals { checksum &+= UInt64(bitPattern: row.start) }
            for row in batch.payments { checksum &+= UInt64(bitPattern: row.amountMinor) }
        }
        return checksum
    }
}
