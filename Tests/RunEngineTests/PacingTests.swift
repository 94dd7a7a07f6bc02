@_spi(Tooling) import Analysis
@_spi(Tooling) import Export
@_spi(Tooling) @testable import RunEngine
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
import TestSupport
import Testing

@Suite("Arrival-rate pacing against a fake clock")
struct PacingTests {
    @Test("a constant rate releases each batch when its last event is due, and stops at the end")
    func constantRate() async throws {
        // Given 1,000 events/s for 1 s, starting at t = 0
        let clock = FakeClock()
        let sut = Pacer(schedule: LoadModel.arrivalRate(eventsPerSecond: 1000, duration: .seconds(1)).schedule!, clock: clock, start: .zero)
        // When batches of 250 events ask to go
        var admitted: [Bool] = []
        for _ in 0..<5 { admitted.append(try await sut.admit(events: 250) != nil) }
        // Then the first four go at 0.25, 0.5, 0.75 and 1 s, and the fifth (due at 1.25 s) does not
        #expect(admitted == [true, true, true, true, false])
        #expect(clock.deadlines == [.milliseconds(250), .milliseconds(500), .milliseconds(750), .seconds(1)])
    }

    @Test("a ramp from 0 to 1,000 events/s over 2 s releases 250 events at 1 s and 1,000 at 2 s")
    func ramp() async throws {
        // Given N(t) = 250 t² events by time t (rate 500 t)
        let clock = FakeClock()
        let schedule = ArrivalSchedule(startRate: 0, stages: [RampStage(duration: .seconds(2), target: 1000)])
        let sut = Pacer(schedule: schedule, clock: clock, start: .seconds(10))
        // When 250 events, then 750 more, ask to go
        let first = try await sut.admit(events: 250) == 1
        let second = try await sut.admit(events: 750) == 2
        // Then they go at 1 s and 2 s after the start
        #expect(first && second)
        #expect(clock.deadlines == [.seconds(11), .seconds(12)])
        #expect(schedule.totalEvents == 1000)
    }

    @Test("a spike: 100/s for 1 s, a jump to 1,000/s held for 1 s")
    func spike() {
        // Given the stages (1 s at 100), (0 s jump is not allowed, so 1 s ramp to 1000), (1 s at 1000)
        let sut = ArrivalSchedule(startRate: 100, stages: [
            RampStage(duration: .seconds(1), target: 100), RampStage(duration: .seconds(1), target: 1000),
            RampStage(duration: .seconds(1), target: 1000),
        ])
        // Then 100 events arrive in the first second, 550 in the ramp, 1,000 in the last second
        #expect(sut.totalEvents == 1650)
        #expect(sut.dueSeconds(afterEvents: 100) == 1)
        #expect(sut.dueSeconds(afterEvents: 650) == 2)
        #expect(sut.dueSeconds(afterEvents: 1150) == 2.5)
        #expect(sut.dueSeconds(afterEvents: 1651) == nil)
    }

    @Test("a whole arrival-rate run follows the schedule on the fake clock and never sleeps for real")
    func wholeRun() async throws {
        // Given 20,000 events/s for 2 s on one task
        let clock = FakeClock()
        let plan = ScenarioBuilder(users: 40, days: 2, seed: 5).plan(load: .arrivalRate(eventsPerSecond: 20_000, duration: .seconds(2)))
        // When it runs
        let result = try await ScenarioRunner.run(plan, options: .test(tasks: 1), clock: clock)
        // Then no more than 40,000 events went through, each batch waited for its due time, and the
        // run lasted 2 s of fake time
        #expect(result.status == .completed)
        #expect(result.metrics.events <= 40_000)
        #expect(result.metrics.events > 40_000 - 2 * RunPlan.eventsPerBatch)
        #expect(clock.deadlines.count == result.metrics.total.batches)
        #expect(clock.deadlines == clock.deadlines.sorted())
        #expect(clock.deadlines.last! <= .seconds(2))
        #expect(result.durationSeconds <= 2)
    }
}
