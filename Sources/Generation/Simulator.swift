@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import Scenarios

/// Which users to generate: the indices of `users` with `index % shardCount == shard`.
@_spi(Tooling) public struct UserSelection: Sendable, Equatable {
    /// The range of user indices to choose from.
    package var users: Range<Int>
    /// This shard.
    @_spi(Tooling) public var shard: Int
    /// The number of shards.
    package var shardCount: Int

    /// Shard `shard` of `shardCount` of `users`.
    @_spi(Tooling) public init(users: Range<Int>, shard: Int = 0, shardCount: Int = 1) {
        precondition(shardCount >= 1 && (0..<shardCount).contains(shard), "shard must be in 0..<shardCount")
        self.users = users
        self.shard = shard
        self.shardCount = shardCount
    }

    /// The selected indices in order.
    @_spi(Tooling) public var indices: StrideTo<Int> {
        let first = users.lowerBound + ((shard - users.lowerBound % shardCount) % shardCount + shardCount) % shardCount
        return stride(from: first, to: users.upperBound, by: shardCount)
    }

    /// Users selected.
    @_spi(Tooling) public var count: Int {
        let first = indices.first(where: { _ in true }) ?? users.upperBound
        return max(0, (users.upperBound - first + shardCount - 1) / shardCount)
    }

    /// Splits `users` into consecutive ranges of `size` indices aligned on multiples of `size`
    /// (independent of the shard, so any task count cuts a run in the same places).
    @_spi(Tooling) public func ranges(size: Int) -> [UserSelection] {
        var parts: [UserSelection] = []
        var start = users.lowerBound
        while start < users.upperBound {
            let end = min(users.upperBound, (start / size + 1) * size)
            parts.append(UserSelection(users: start..<end, shard: shard, shardCount: shardCount))
            start = end
        }
        return parts
    }
}

/// The rows of a range of users, user after user, in the order `generate` writes them.
/// `*Ends[i]` is the end of user `users[i]`'s rows in each array.
package struct SimulationBatch: Sendable {
    /// The batch's users, in index order.
    package internal(set) var users: [UserRow] = []
    /// Their meal rows, user after user.
    package internal(set) var meals: [MealRow] = []
    /// Their step rows, user after user.
    package internal(set) var steps: [StepRow] = []
    /// Their payment rows, user after user.
    package internal(set) var payments: [PaymentRow] = []
    /// The end of each user's meals in `meals`.
    package internal(set) var mealEnds: [Int] = []
    /// The end of each user's steps in `steps`.
    package internal(set) var stepEnds: [Int] = []
    /// The end of each user's payments in `payments`.
    package internal(set) var paymentEnds: [Int] = []
    /// A day's bout or payment times, before they are sorted.
    var dayTimes = DayRows<Int64>()
    /// A day's step rows, before they join `steps`.
    var stepDay = DayRows<StepRow>()

    /// An empty batch.
    package init() {}

    /// Meal, step and payment rows.
    package var eventCount: Int { meals.count + steps.count + payments.count }

    /// The rows of `users[i]`.
    package func meals(ofUserAt i: Int) -> ArraySlice<MealRow> { meals[(i == 0 ? 0 : mealEnds[i - 1])..<mealEnds[i]] }
    /// The step rows of the batch's `i`-th user.
    package func steps(ofUserAt i: Int) -> ArraySlice<StepRow> { steps[(i == 0 ? 0 : stepEnds[i - 1])..<stepEnds[i]] }
    /// The payment rows of the batch's `i`-th user.
    package func payments(ofUserAt i: Int) -> ArraySlice<PaymentRow> { payments[(i == 0 ? 0 : paymentEnds[i - 1])..<paymentEnds[i]] }

    /// Empties the batch, keeping its memory.
    package mutating func removeAll() {
        users.removeAll(keepingCapacity: true)
        meals.removeAll(keepingCapacity: true)
        steps.removeAll(keepingCapacity: true)
        payments.removeAll(keepingCapacity: true)
        mealEnds.removeAll(keepingCapacity: true)
        stepEnds.removeAll(keepingCapacity: true)
        paymentEnds.removeAll(keepingCapacity: true)
    }
}

/// The deterministic generator of a scenario: a user's rows depend only on (seed, scenario,
/// user index), never on batches, tasks or shards.
package struct Simulator: Sendable {
    let context: GenerationContext

    /// The scenario it generates.
    package var scenario: Scenario { context.scenario }
    /// The root seed every user's streams derive from.
    package var seed: UInt64 { context.seed }

    /// `seed` overrides the scenario's.
    package init(scenario: Scenario, seed: UInt64? = nil) {
        context = GenerationContext(scenario: scenario, seed: seed ?? scenario.seed)
    }

    /// The users a full run generates.
    package var allUsers: UserSelection { UserSelection(users: 0..<scenario.users) }

    /// The profile of user `index` (what the analyzers need: UTC offset and protocol).
    package func user(_ index: Int) -> UserRow {
        UserGenerator(context: context, index: index).profile.row
    }

    /// Appends one user's rows to `batch`.
    package func generate(user index: Int, into batch: inout SimulationBatch) {
        let generator = UserGenerator(context: context, index: index)
        batch.users.append(generator.profile.row)
        generator.meals(into: &batch)
        batch.mealEnds.append(batch.meals.count)
        generator.steps(into: &batch)
        batch.stepEnds.append(batch.steps.count)
        generator.payments(into: &batch)
        batch.paymentEnds.append(batch.payments.count)
    }

    /// Empties `batch` (keeping its memory) and fills it with the selected users.
    package func fill(_ batch: inout SimulationBatch, with selection: UserSelection) {
        batch.removeAll()
        for index in selection.indices { generate(user: index, into: &batch) }
    }

    /// The selected users' rows as a lazy sequence of batches of `usersPerBatch` users each:
    /// memory is bounded by one batch, whatever the length of the run.
    package func batches(_ selection: UserSelection, usersPerBatch: Int) -> SimulationBatches {
        SimulationBatches(simulator: self, parts: selection.ranges(size: usersPerBatch * selection.shardCount))
    }
}

/// A lazy sequence of batches; each `next()` generates the next range of users.
package struct SimulationBatches: Sequence, IteratorProtocol, Sendable {
    let simulator: Simulator
    let parts: [UserSelection]
    var position = 0

    /// The next batch, nil after the last.
    package mutating func next() -> SimulationBatch? {
        guard position < parts.count else { return nil }
        var batch = SimulationBatch()
        simulator.fill(&batch, with: parts[position])
        position += 1
        return batch
    }
}

extension Simulator {
    /// Generates the selected users' rows in memory, one reused batch at a time, calling `body`
    /// with each; returns the number of events (meal, step and payment rows). This is the
    /// workload of the in-memory generation benchmark (no allocation once the batch has grown).
    @discardableResult
    package func forEachBatch(_ selection: UserSelection, usersPerBatch: Int = 256, _ body: (SimulationBatch) -> Void = { _ in }) -> Int {
        var batch = SimulationBatch()
        var events = 0
        for part in selection.ranges(size: usersPerBatch * selection.shardCount) {
            fill(&batch, with: part)
            events += batch.eventCount
            body(batch)
        }
        return events
    }
}
