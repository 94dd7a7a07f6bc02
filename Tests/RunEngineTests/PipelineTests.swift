@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import RunEngine
import TestSupport

@Suite("The concurrent pipeline", .budget(minutes: 2))
struct PipelineTests {
    @Test("results do not depend on the number of tasks or the batch size")
    func deterministic() async throws {
        // Given one scenario cut three ways
        let builder = ScenarioBuilder(users: 120, days: 3, seed: 9).faulty()
        let one = try await ScenarioRunner.run(builder.plan(batchUsers: 5), options: .test(tasks: 1))
        let two = try await ScenarioRunner.run(builder.plan(batchUsers: 13), options: .test(tasks: 2))
        let four = try await ScenarioRunner.run(builder.plan(batchUsers: nil), options: .test(tasks: 4, timing: false))
        // Then the counts, simulated latencies and outputs are the same
        for sut in [two, four] {
            #expect(sut.metrics.digest == one.metrics.digest)
            #expect(sut.metrics.events == one.metrics.events)
            #expect(sut.metrics.meals.rejected == one.metrics.meals.rejected)
            #expect(sut.metrics.paymentStates == one.metrics.paymentStates)
            #expect(sut.metrics.paymentLatency == one.metrics.paymentLatency)
        }
        // And without timing no batch is timed
        #expect(four.metrics.total.batchLatency.count == 0)
        #expect(one.metrics.total.batchLatency.count == one.metrics.total.batches)
    }

    @Test("a run's counts equal the injected faults and the invariants hold")
    func countsFaults() async throws {
        // Given a faulty scenario
        let sut = try await ScenarioRunner.run(ScenarioBuilder(users: 200, days: 4, seed: 5).faulty().plan(), options: .test(tasks: 2))
        // Then every rejection reason of SPEC occurred, the events add up, and nothing broke
        #expect(sut.metrics.meals.rejected.counts.allSatisfy { $0 > 0 })
        #expect(sut.metrics.steps.rejected.counts.allSatisfy { $0 > 0 })
        #expect(sut.metrics.payments.rejected.counts.allSatisfy { $0 > 0 })
        #expect(sut.metrics.paymentStates.reduce(0, +) == sut.metrics.payments.events)
        #expect(sut.metrics.total.events == sut.metrics.events)
        #expect(sut.metrics.users == 200)
        #expect(sut.metrics.invariantViolations == 0)
        #expect(sut.passed)
    }

    @Test("cancelling a run stops every task without waiting for the end")
    func cancellation() async throws {
        // Given a run of 200,000 users × 30 days (minutes of work), and a spy on analyzed batches
        let (analyzed, signal) = AsyncStream<Void>.makeStream()
        var options = RunOptions.test(tasks: 2)
        options.onBatch = { _ in signal.yield() }
        let plan = ScenarioBuilder(users: 200_000, days: 30, seed: 5).plan(batchUsers: 16)
        let run = Task { try await ScenarioRunner.run(plan, options: options) }
        // When it is cancelled once it has analyzed a batch
        for await _ in analyzed { break }
        run.cancel()
        let sut = try await run.value
        // Then it ends as cancelled, having done a sliver of the work
        #expect(sut.status == .cancelled)
        #expect(sut.metrics.users > 0)
        #expect(sut.metrics.users < 200_000 / 20)
    }

    @Test("a failing abort_on_fail threshold stops the run early")
    func abortOnFail() async throws {
        // Given a 6,000-user run that must abort once more than 100 users are done
        let abort = try ThresholdParser.parse("users < 100", abortOnFail: true)
        let plan = ScenarioBuilder(users: 6000, days: 3, seed: 5).plan(thresholds: [abort], batchUsers: 4)
        // When it runs (the monitor checks on the fake clock, which never waits)
        let sut = try await ScenarioRunner.run(plan, options: .test(tasks: 2), clock: FakeClock())
        // Then it stopped before the end, says why, and fails
        #expect(sut.status == .aborted)
        #expect(sut.stopReason?.hasPrefix("threshold 'users < 100' failed") == true)
        #expect(sut.metrics.users < 6000)
        #expect(!sut.passed)
    }

    @Test("the duration model repeats passes until the time is up")
    func durationModel() async throws {
        // Given passes of one 20-user batch, 1 s to run, and a clock that moves 50 ms each time it
        // is read (at the start, before each batch is generated, and when each batch's analysis ends)
        let clock = FakeClock(step: .milliseconds(50))
        let plan = ScenarioBuilder(users: 20, days: 1, seed: 5).plan(load: .duration(.seconds(1)), batchUsers: 20)
        // When it runs on one task
        let sut = try await ScenarioRunner.run(plan, options: .test(tasks: 1), clock: clock)
        // Then whole passes of 20 users ran until the time was up: at most 19 (one clock read per
        // pass), at least 9 (two reads per pass), and the run lasted at least 1 s
        #expect(sut.status == .completed)
        #expect(sut.metrics.users % 20 == 0)
        #expect((9 * 20...19 * 20).contains(sut.metrics.users))
        #expect(sut.durationSeconds >= 1)
    }

    @Test("output files are refused for a load model other than fixed")
    func outputNeedsFixed() async throws {
        let plan = ScenarioBuilder(users: 60, seed: 5).plan(load: .duration(.seconds(1)))
        await #expect(throws: RunConfigurationError(message: "output files need the fixed load model (this scenario's is duration)")) {
            try await ScenarioRunner.run(plan, options: .test(tasks: 1, out: "/tmp/unused"))
        }
    }
}
