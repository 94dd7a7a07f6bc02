@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
import Testing
@_spi(Tooling) @testable import RunEngine
import TestSupport

/// A paced run that misses its schedule: a warning when no threshold judges it, a failure with
/// `--strict` (`RunPlan.requireSchedule`) or `load.strict: true`.
@Suite("Paced runs that miss their schedule")
struct ScheduleWarningTests {
    /// A planted result: `behind` seconds behind, `dropped` events dropped, evaluated against `thresholds`.
    private func lagging(behind: Double, dropped: Int, thresholds: [String] = ["invariant_violations == 0"]) throws -> RunResult {
        var metrics = RunMetrics()
        metrics.total.events = 1_000
        metrics.total.dropped = dropped
        metrics.behindScheduleSeconds = behind
        var result = RunResult(
            scenario: "spike", seed: 17, users: 10, days: 1, load: "ramping", shards: ["0/1"], tasks: 1, timing: true,
            usersPerBatch: 1, durationSeconds: 32, metrics: metrics
        )
        result.evaluate(try thresholds.map { try ThresholdParser.parse($0) })
        return result
    }

    @Test func aRunBehindAndDroppingWithoutThresholdsPassesWithAWarningNamingBoth() throws {
        // Given the spike of the issue: 9.6 s behind, 1.46 M events dropped, no threshold on either
        let sut = try lagging(behind: 9.6, dropped: 1_460_000)

        // When / Then it passes, with a warning in the summary naming the seconds and the events
        let warning = try #require(sut.scheduleWarning)
        #expect(sut.passed)
        #expect(warning.text.hasPrefix("the paced load fell 9.600 s behind its schedule and dropped 1,460,000 events"))
        #expect(Summary.render(sut, style: TextStyle(enabled: false)).contains("\nWARNING: the paced load fell 9.600 s behind"))
    }

    @Test("the lag alone, or the drops alone, are enough", arguments: [(1.001, 0), (0, 1)])
    func eitherIsEnough(behind: Double, dropped: Int) throws {
        #expect(try lagging(behind: behind, dropped: dropped).scheduleWarning != nil)
    }

    @Test("no warning on time, or within the 1 s tolerance, or for an unpaced run", arguments: [0.0, 0.25, 1.0])
    func noWarningOnTime(behind: Double) throws {
        let sut = try lagging(behind: behind, dropped: 0)
        #expect(sut.scheduleWarning == nil)
        #expect(!Summary.render(sut, style: TextStyle(enabled: false)).contains("WARNING"))
    }

    @Test("thresholds that judge drops and lag replace the warning", arguments: [
        ["dropped_events == 0", "behind_schedule_s <= 2"], ["meals.dropped_events < 10", "behind_schedule_s < 5"],
    ])
    func thresholdsJudgeInstead(thresholds: [String]) throws {
        // Given a lagging, dropping run whose thresholds judge both
        let sut = try lagging(behind: 9.6, dropped: 1_460_000, thresholds: thresholds)
        // Then the thresholds fail it, and there is no warning on top
        #expect(sut.scheduleWarning == nil)
        #expect(!sut.passed)
    }

    @Test func aThresholdOnDropsAloneLeavesTheLagWarned() throws {
        let sut = try lagging(behind: 9.6, dropped: 0, thresholds: ["dropped_events == 0"])
        #expect(sut.passed)
        #expect(sut.scheduleWarning?.behindSeconds == 9.6)
    }

    @Test func strictTurnsTheWarningIntoFailingThresholds() throws {
        // Given a paced plan made strict, as run --strict does
        var plan = ScenarioBuilder(users: 10, days: 1, seed: 1).plan(load: .arrivalRate(eventsPerSecond: 1_000, duration: .seconds(2)))
        plan.requireSchedule()
        // When the planted lagging result is judged by its thresholds
        let sut = try lagging(behind: 9.6, dropped: 1_460_000, thresholds: plan.thresholds.map(\.text))
        // Then both strict thresholds fail, and the run fails
        #expect(plan.thresholds.map(\.text).suffix(2) == ["dropped_events == 0", "behind_schedule_s <= 1"])
        #expect(sut.thresholds.filter { !$0.passed }.map(\.threshold.metric) == ["dropped_events", "behind_schedule_s"])
        #expect(!sut.passed)
    }

    @Test func strictKeepsTheScenariosOwnThresholdsAndLeavesUnpacedLoadsAlone() {
        // Given a paced plan judging drops itself, and an unpaced plan
        var paced = ScenarioBuilder(users: 10, days: 1, seed: 1)
            .plan(load: .arrivalRate(eventsPerSecond: 1_000, duration: .seconds(2)), thresholds: [Threshold(metric: "steps.dropped_events", comparison: .less, value: 5)])
        var unpaced = ScenarioBuilder(users: 10, days: 1, seed: 1).plan(load: .duration(.seconds(2)))
        let before = unpaced.thresholds
        // When both are made strict
        paced.requireSchedule()
        unpaced.requireSchedule()
        // Then only the lag is added to the first, nothing to the second
        #expect(paced.thresholds.map(\.metric) == ["steps.dropped_events", "invariant_violations", "behind_schedule_s"])
        #expect(unpaced.thresholds == before)
    }

    @Test func aWholePacedRunThatStallsIsWarnedAndFailsWhenStrict() async throws {
        // Given 20,000 events/s for 2 s whose analyzer stalls (fake clock) 1.5 s after its first batch,
        // so that the second starts late, and 3 s after its third, past the end of the schedule
        let plan = ScenarioBuilder(users: 40, days: 2, seed: 5).plan(load: .arrivalRate(eventsPerSecond: 20_000, duration: .seconds(2)))
        var strict = plan
        strict.requireSchedule()
        func run(_ plan: RunPlan) async throws -> RunResult {
            let clock = FakeClock()
            var options = RunOptions.test(tasks: 1)
            let batches = Counter()
            options.onBatch = { _ in
                switch batches.increment() {
                case 1: clock.advance(by: .milliseconds(1_500))
                case 3: clock.advance(by: .seconds(3))
                default: break
                }
            }
            return try await ScenarioRunner.run(plan, options: options, clock: clock)
        }
        // When it runs as the scenario says, and strictly
        let warned = try await run(plan)
        let failed = try await run(strict)
        // Then the first passes with a warning naming the lag and the drops, the second fails on both thresholds
        #expect(warned.passed)
        let warning = try #require(warned.scheduleWarning)
        #expect(warning.droppedEvents == warned.metrics.total.dropped && warning.droppedEvents > 0)
        #expect(warning.behindSeconds == warned.metrics.behindScheduleSeconds && warning.behindSeconds > 1)
        #expect(!failed.passed)
        #expect(failed.scheduleWarning == nil)
        #expect(failed.thresholds.filter { !$0.passed }.map(\.threshold.metric) == ["dropped_events", "behind_schedule_s"])
    }

    @Test func scenarioStrictMakesThePlanStrict() throws {
        // Given a paced scenario with load.strict: true
        let scenario = try ScenarioParser.parse(
            "name: s\nload:\n  model: arrival_rate\n  rate: 1000\n  duration: 2s\n  strict: true\n", file: "s.yaml"
        )
        // When its plan is read
        let sut = try RunPlan.parse(scenario, file: "s.yaml")
        // Then it holds the strict thresholds
        #expect(sut.thresholds.map(\.metric).contains("dropped_events"))
        #expect(sut.thresholds.map(\.metric).contains("behind_schedule_s"))
    }

    @Test func strictIsRefusedOnALoadWithoutSchedule() {
        #expect(throws: ScenarioError(file: "s.yaml", line: 4, message: "'load.strict' does not apply to the duration model")) {
            try ScenarioParser.parse("name: s\nload:\n  model: duration\n  strict: true\n  duration: 2s\n", file: "s.yaml")
        }
    }
}
