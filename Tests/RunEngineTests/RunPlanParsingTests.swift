@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import RunEngine
@_spi(Tooling) import Generation

@Suite("The run sections of a scenario")
struct RunPlanParsingTests {
    private func plan(_ yaml: String) throws -> RunPlan {
        try RunPlan.parse(try ScenarioParser.parse(yaml, file: "x.yaml"), file: "x.yaml")
    }

    private func failure(_ yaml: String) -> ScenarioError? {
        #expect(throws: ScenarioError.self) { try plan(yaml) }
    }

    @Test("each load model is read with its settings", arguments: [
        ("load:\n  model: fixed\n", LoadModel.fixed),
        ("load:\n  model: duration\n  duration: 1m30s\n", .duration(.seconds(90))),
        ("load:\n  model: arrival_rate\n  rate: 2e6\n  duration: 500ms\n", .arrivalRate(eventsPerSecond: 2e6, duration: .milliseconds(500))),
        ("load:\n  model: ramping\n  start_rate: 10\n  stages:\n    - {duration: 2s, target: 1000}\n    - {duration: 1h, target: 0}\n",
         .ramping(startRate: 10, stages: [RampStage(duration: .seconds(2), target: 1000), RampStage(duration: .seconds(3600), target: 0)])),
        ("load:\n  model: soak\n  duration: 10\n  max_rss_slope_mb_per_min: 0.5\n", .soak(duration: .seconds(10), maxRSSSlopeMBPerMinute: 0.5)),
        ("users: 3\n", .fixed),
    ])
    func loadModels(yaml: String, expected: LoadModel) throws {
        #expect(try plan(yaml).load == expected)
    }

    @Test("every shipped scenario has valid run sections and a load model of its own", arguments: [
        ("smoke", "arrival_rate"), ("load", "duration"), ("stress", "ramping"), ("spike", "ramping"), ("soak", "soak"), ("faults", "fixed"), ("edges", "fixed"),
    ])
    func shippedScenarios(name: String, model: String) throws {
        let sut = try RunPlan.load(name, currentDirectory: "/nonexistent")
        #expect(sut.load.name == model)
        #expect(sut.thresholds.contains { $0.metric == "invariant_violations" })
    }

    @Test("every shipped paced scenario judges its drops and its lag itself (the embedded copies too)", arguments: ["smoke", "spike", "stress"])
    func shippedPacedScenariosJudgeTheSchedule(name: String) throws {
        let sut = try RunPlan.load(name, currentDirectory: "/nonexistent")
        #expect(sut.load.schedule != nil)
        #expect(ScheduleWarning.unjudged(by: sut.thresholds.map(\.metric)).isEmpty)
    }

    @Test("the batch size is read")
    func tuning() throws {
        let sut = try plan("load:\n  batch_users: 32\n")
        #expect(sut.batchUsers == 32)
    }

    @Test("thresholds are read in order, with abort_on_fail, and the invariants are always checked")
    func thresholds() throws {
        // Given two rules, one of them in the mapping form
        let sut = try plan("""
            thresholds:
              - payments.p99_latency_ms < 250
              - check: total.events_per_s > 5e6
                abort_on_fail: true
            """)
        // Then both are read, then the implicit invariant rule
        #expect(sut.thresholds.map(\.text) == ["payments.p99_latency_ms < 250", "total.events_per_s > 5e6", "invariant_violations == 0"])
        #expect(sut.thresholds.map(\.abortOnFail) == [false, true, false])
    }

    @Test("a soak adds its memory-slope threshold")
    func soakThreshold() throws {
        let sut = try plan("load:\n  model: soak\n  duration: 1h\n  max_rss_slope_mb_per_min: 2\n")
        #expect(sut.thresholds.map(\.text) == ["invariant_violations == 0", "rss_slope_mb_per_min < 2"])
    }

    @Test("errors name the file, the line and the key", arguments: [
        ("users: 5\nthresholds:\n  - peak_rss_mb < 300\n  - payments.p99_latncy_ms < 250\n",
         "x.yaml:4: unknown metric 'payments.p99_latncy_ms' (did you mean 'payments.p99_latency_ms'?)"),
        ("thresholds:\n  - peak_rss_mb <\n", "x.yaml:2: malformed threshold 'peak_rss_mb <': expected a number after '<'"),
        ("thresholds:\n  - check: users > 1\n    abort: true\n", "x.yaml:3: unknown key 'thresholds.abort' (use 'check' and 'abort_on_fail')"),
        ("thresholds:\n  - check: users > 1\n    abort_on_fail: maybe\n", "x.yaml:3: 'abort_on_fail' must be true or false"),
        ("thresholds: users > 1\n", "x.yaml:1: 'thresholds' must be a list of rules"),
        ("load:\n  model: duration\n  rat: 5\n", "x.yaml:3: unknown key 'load.rat'"),
        ("load:\n  model: duration\n  duration: 5s\n  rate: 5\n", "x.yaml:4: 'load.rate' does not apply to the duration model"),
        ("load:\n  model: sprint\n", "x.yaml:2: 'load.model' must be fixed, duration, arrival_rate, ramping or soak, not 'sprint'"),
        ("load:\n  model: duration\n", "x.yaml:2: the duration model needs 'load.duration'"),
        ("load:\n  model: duration\n  duration: 10 parsecs\n", "x.yaml:3: 'load.duration' must be a positive duration"),
        ("load:\n  model: duration\n  duration: 1e30\n", "x.yaml:3: 'load.duration' must be a positive duration up to 8760h"),
        ("load:\n  model: duration\n  duration: 8761h\n", "x.yaml:3: 'load.duration' must be a positive duration up to 8760h"),
        ("load:\n  model: duration\n  duration: nan\n", "x.yaml:3: 'load.duration' must be a positive duration"),
        ("load:\n  model: arrival_rate\n  rate: 0\n  duration: 1s\n", "x.yaml:3: 'load.rate' must be above 0 and at most 1e9 events a second, not 0"),
        ("load:\n  model: arrival_rate\n  rate: 1e300\n  duration: 1s\n", "x.yaml:3: 'load.rate' must be above 0 and at most 1e9"),
        ("load:\n  model: ramping\n  start_rate: -1\n  stages:\n    - {duration: 1s, target: 5}\n", "x.yaml:3: 'load.start_rate' must be at least 0 and at most 1e9"),
        ("load:\n  model: ramping\n  stages:\n    - {duration: 1s, target: 0}\n", "x.yaml:2: 'load.stages' never let an event arrive"),
        ("load:\n  model: ramping\n  stages:\n    - {duration: 1s}\n", "x.yaml:4: each of 'load.stages' needs a 'duration' and a 'target'"),
        ("load:\n  batch_users: 0\n", "x.yaml:2: 'load.batch_users' must be an integer in 1...1000000, not 0"),
    ])
    func errors(yaml: String, message: String) {
        let error = failure(yaml)
        #expect(error?.description.hasPrefix(message) == true, "\(error?.description ?? "no error")")
    }
}
