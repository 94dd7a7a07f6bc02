@_spi(Tooling) import Analysis
import ArgumentParser
@_spi(Tooling) import Export
@_spi(Tooling) import RunEngine
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import Reports
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// `run --duration`, `--rate` and `--strict`: the scenario's load, changed from the command line.
struct PacedRunArguments: ParsableArguments {
    @Option(help: """
        Run for this long instead (500ms, 30s, 5m, 1h30m): the duration of the duration, arrival_rate and soak models; \
        turns the fixed model into duration (the ramping model's stages keep theirs).
        """, transform: OptionValue.duration)
    var duration: Duration?

    @Option(help: """
        Events per second instead (arrival_rate; turns a duration load, or a fixed one given --duration, into arrival_rate).
        """, transform: OptionValue.rate)
    var rate: Double?

    @Flag(help: """
        A paced load (arrival_rate, ramping) that drops events or falls more than 1 s behind its schedule fails the run \
        (exit 1) instead of passing with a warning, unless its thresholds judge dropped_events and behind_schedule_s \
        themselves; as load.strict: true in the scenario.
        """)
    var strict = false

    /// Applies the options to `plan`; throws the usage error (exit 2) of an option the load model has no place for.
    func apply(to plan: inout RunPlan) throws {
        switch plan.load.overriding(duration: duration, rate: rate) {
        case .success(let load): plan.load = load
        case .failure(let error): throw failure("run", error.message, status: HarnessExit.invalidInput)
        }
        if strict { plan.requireSchedule() }
    }
}

extension OptionValue {
    /// `--rate`: events per second, above 0 and at most 1e9 (`2000000`, `2e6`, `2_000_000`).
    @Sendable static func rate(_ text: String) throws -> Double {
        guard let value = Double(text.filter { $0 != "_" }), value > 0, value <= 1e9 else {
            throw ValidationError("must be a number of events per second above 0 and at most 1e9, not '\(text)'")
        }
        return value
    }
}
