@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
import Synchronization
import Testing
@_spi(Tooling) @testable import RunEngine
import TestSupport

/// Paced loads against a fake clock: response time (coordinated omission), dropped events, the
/// time series, and a shard's share of the rate.
@Suite("Paced loads: response time, dropped events, series, shards")
struct ScheduleTests {
    /// 20,000 events/s for 2 s, on one task, with batches of 8 users.
    private let plan = ScenarioBuilder(users: 40, days: 2, seed: 5).plan(load: .arrivalRate(eventsPerSecond: 20_000, duration: .seconds(2)))

    /// Runs `plan` on `clock`; the analyzing task stalls for `stall` after its `stallAfter`-th batch.
    private func run(clock: FakeClock, stall: Duration = .zero, stallAfter: Int = 3, shard: Int = 0, of shards: Int = 1) async throws -> RunResult {
        var options = RunOptions.test(tasks: 1)
        options.shard = shard
        options.shardCount = shards
        let batches = Counter()
        options.onBatch = { _ in
            if batches.increment() == stallAfter { clock.advance(by: stall) }
        }
        return try await ScenarioRunner.run(plan, options: options, clock: clock)
    }

    @Test func aStalledAnalyzerShowsInResponseTimeNotInServiceTime() async throws {
        // Given an analyzer that stalls for 1 s after its third batch
        // When the paced run goes through it
        let sut = try await run(clock: FakeClock(), stall: .seconds(1))

        // Then the batches queued behind the stall answer ≥ 0.9 s after they were due, though each
        // took far less to process
        let response = sut.metrics.responseLatency
        #expect(response.count == UInt64(sut.metrics.total.batches))
        #expect(response.max >= 900_000)
        #expect(sut.metrics.total.batchLatency.max < 900_000)
        #expect(sut.metrics.behindScheduleSeconds >= 0.9)
        #expect(try #require(MetricCatalog.value(of: "total.max_response_latency_ms", in: sut)) >= 900)
    }

    @Test func withoutAStallResponseTimeStaysNearTheSchedule() async throws {
        // Given / When the same run with no stall
        let sut = try await run(clock: FakeClock())

        // Then no batch answered as much as half a second after it was due, and nothing is dropped:
        // the schedule's last events, too few for a batch before its end, were never due as one
        #expect(sut.metrics.responseLatency.max < 500_000)
        #expect(sut.metrics.total.events < 40_000)
        #expect(sut.metrics.total.dropped == 0)
        #expect(sut.series.intervals.map { $0.dropped[3] }.reduce(0, +) == 0)
    }

    @Test func thePacerOwesNoTailUntilABatchIsRefusedAtTheEnd() async throws {
        // Given a pacer over 1,000 events in 1 s
        let schedule = try #require(LoadModel.arrivalRate(eventsPerSecond: 1_000, duration: .seconds(1)).schedule)
        let sut = Pacer(schedule: schedule, clock: FakeClock(), start: .zero)
        // When batches of 300 events are admitted until one is refused
        var admitted = 0
        while try await sut.admit(events: 300) != nil { admitted += 1 }
        // Then three went out, and the 100 events left (fewer than the refused batch) are the tail
        #expect(admitted == 3)
        #expect(sut.unsentTail == 100)
    }

    @Test func aPacerThatRefusedNothingHasNoTail() async throws {
        // Given a pacer over 1,000 events in 1 s, and one batch admitted
        let schedule = try #require(LoadModel.arrivalRate(eventsPerSecond: 1_000, duration: .seconds(1)).schedule)
        let sut = Pacer(schedule: schedule, clock: FakeClock(), start: .zero)
        _ = try await sut.admit(events: 300)
        // Then the events not yet admitted are not a tail: a run cut short owes them
        #expect(sut.unsentTail == 0)
    }

    @Test func eventsDueBeforeTheEndButNeverAnalyzedAreDropped() async throws {
        // Given an analyzer that stalls for 3 s after its first batch, past the 2 s schedule
        // When the run goes
        let sut = try await run(clock: FakeClock(), stall: .seconds(3), stallAfter: 1)

        // Then everything due by 2 s that was not analyzed is dropped, per stream and per interval
        let m = sut.metrics
        #expect(m.total.dropped == 40_000 - m.total.events)
        #expect(m.meals.dropped + m.steps.dropped + m.payments.dropped == m.total.dropped)
        #expect(m.steps.dropped > m.payments.dropped)
        #expect(sut.series.intervals.map { $0.dropped[3] }.reduce(0, +) == m.total.dropped)
        #expect(sut.series.intervals.compactMap(\.targetEvents).reduce(0, +) == 40_000)
        #expect(MetricCatalog.value(of: "dropped_events", in: sut) == Double(m.total.dropped))
    }

    @Test func theSeriesHoldsEveryBatchInTheIntervalItEndedIn() async throws {
        // Given / When a paced run of 2 s on the fake clock
        let sut = try await run(clock: FakeClock())

        // Then its 1 s intervals hold every batch and event, each targeting 20,000 events
        #expect(sut.series.intervalSeconds == 1)
        #expect(sut.series.intervals.map(\.batches).reduce(0, +) == sut.metrics.total.batches)
        #expect(sut.series.intervals.map { $0.events[3] }.reduce(0, +) == sut.metrics.total.events)
        #expect(sut.series.intervals.map { $0.serviceLatency[3].count }.reduce(0, +) == UInt64(sut.metrics.total.batches))
        #expect(sut.series.intervals.prefix(2).map(\.targetEvents) == [20_000, 20_000])
    }

    @Test func eachShardMakesItsShareOfTheRate() async throws {
        // Given / When shard 0 and shard 1 of 2 each run the 40,000-event schedule
        let first = try await run(clock: FakeClock(), shard: 0, of: 2)
        let second = try await run(clock: FakeClock(), shard: 1, of: 2)

        // Then each sends at most half of it, and together nearly all of it
        #expect(first.metrics.events <= 20_000)
        #expect(second.metrics.events <= 20_000)
        #expect(first.metrics.events + second.metrics.events > 40_000 - 4 * RunPlan.eventsPerBatch)
    }
}

/// A thread-safe count for callbacks.
final class Counter: Sendable {
    private let value = Mutex(0)
    /// Adds one and returns the new count.
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
}
