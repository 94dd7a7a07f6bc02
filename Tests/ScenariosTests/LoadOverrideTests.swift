@_spi(Tooling) import Scenarios
import Testing

/// `run --duration` and `run --rate` on each load model.
@Suite("Overriding a load's duration and rate")
struct LoadOverrideTests {
    static let ramping = LoadModel.ramping(startRate: 10, stages: [RampStage(duration: .seconds(5), target: 100)])

    @Test("each model takes what it has a place for", arguments: [
        (LoadModel.fixed, Duration?.some(.seconds(30)), Double?.none, LoadModel.duration(.seconds(30))),
        (.duration(.seconds(5)), .seconds(30), nil, .duration(.seconds(30))),
        (.duration(.seconds(5)), nil, 2e6, .arrivalRate(eventsPerSecond: 2e6, duration: .seconds(5))),
        (.fixed, .seconds(3), 2e6, .arrivalRate(eventsPerSecond: 2e6, duration: .seconds(3))),
        (.arrivalRate(eventsPerSecond: 1e6, duration: .seconds(10)), nil, 2e6, .arrivalRate(eventsPerSecond: 2e6, duration: .seconds(10))),
        (.arrivalRate(eventsPerSecond: 1e6, duration: .seconds(10)), .seconds(60), nil, .arrivalRate(eventsPerSecond: 1e6, duration: .seconds(60))),
        (.arrivalRate(eventsPerSecond: 1e6, duration: .seconds(10)), .seconds(60), 5e5, .arrivalRate(eventsPerSecond: 5e5, duration: .seconds(60))),
        (.soak(duration: .seconds(600), maxRSSSlopeMBPerMinute: 2), .seconds(60), nil, .soak(duration: .seconds(60), maxRSSSlopeMBPerMinute: 2)),
        (ramping, nil, nil, ramping),
    ])
    func accepted(load: LoadModel, duration: Duration?, rate: Double?, expected: LoadModel) throws {
        #expect(try load.overriding(duration: duration, rate: rate).get() == expected)
    }

    @Test("an option the model has no place for is refused, saying why", arguments: [
        (ramping, Duration?.some(.seconds(30)), Double?.none, "the ramping model's stages set their own durations and rates; edit load.stages"),
        (ramping, nil, 1e6, "the ramping model's stages set their own durations and rates; edit load.stages"),
        (.soak(duration: .seconds(600), maxRSSSlopeMBPerMinute: 1), nil, 1e6, "--rate does not apply to the soak model (it runs as fast as possible)"),
        (LoadModel.fixed, nil, 1e6, "--rate needs a duration with the fixed model: give --duration too"),
    ])
    func refused(load: LoadModel, duration: Duration?, rate: Double?, message: String) {
        #expect(throws: LoadOverrideError(message: message)) { try load.overriding(duration: duration, rate: rate).get() }
    }
}
