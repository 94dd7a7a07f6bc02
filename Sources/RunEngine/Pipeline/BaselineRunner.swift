@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// Measures a plan for `baseline record` and `baseline check`.
package enum BaselineRunner {
    /// Runs one fixed-volume pass of the plan's users × days `repetitions` times (no monitoring, no
    /// output files), each just after a run of the calibration loop, and keeps the medians: the
    /// calibration sees the load the runs saw.
    /// `run` makes one run (`ScenarioRunner.run`; load mode's runner for a user's service).
    package static func measure(
        _ plan: RunPlan, options: RunOptions, repetitions: Int,
        run: @Sendable (RunPlan, RunOptions) async throws -> RunResult = { try await ScenarioRunner.run($0, options: $1) }
    ) async throws -> BaselineMeasurement {
        guard repetitions >= 1 else { throw BaselineError(message: "repetitions must be at least 1") }
        var plan = plan
        plan.load = .fixed
        var options = options
        options.onProgress = nil
        options.rssSampleInterval = nil
        options.outputDirectory = nil
        var calibrations: [Calibration] = []
        var results: [RunResult] = []
        for _ in 0..<repetitions {
            calibrations.append(Calibration.measure(repetitions: 2))
            let result = try await run(plan, options)
            guard result.status == .completed else { throw CancellationError() }
            results.append(result)
        }
        return try BaselineMeasurement(results: results, deterministic: true, calibration: .median(of: calibrations), machine: .current())
    }
}
