import ArgumentParser
import Foundation
@_spi(Tooling) import RunEngine
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import Reports
@_spi(Tooling) import RunResults
import SpecKernel

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Streams a scenario's simulated traffic through the analyzers in memory and checks its thresholds.",
        discussion: """
            The scenario's load: section sets the load model (fixed volume, duration, arrival rate, ramping, soak) and \
            its thresholds: section the pass/fail rules; without --scenario, runs the embedded smoke scenario (about 10 s). \
            Exit status: 0 every threshold held, 1 a threshold failed (or aborted the run), 2 invalid scenario or \
            a bad option (or its value), 3 internal error, 130 interrupted (Ctrl-C; the summary covers what was done).
            """
    )

    @OptionGroup var workload: RunWorkloadArguments

    @OptionGroup var pacing: PacedRunArguments

    @OptionGroup var dump: UserDumpArguments

    @Option(help: "Also write the SPEC output files here, as analyze would (fixed load model only).")
    var out: String?

    @Option(help: "Write every metric and histogram as versioned JSON to this file ('-' for stdout).")
    var json: String?

    @Option(help: "The length of an interval of the result's time series, and of memory and CPU sampling (e.g. 500ms, 1s, 1m).",
            transform: OptionValue.interval)
    var interval = Duration.seconds(1)

    @Option(help: "At the end, write result.json and every report (report.html, summary.md, junit.xml, metrics.txt, latency.hlog) in this folder.")
    var reportDir: String?

    @Flag(inversion: .prefixedNo, help: "Time each batch (latency histograms); --no-timing measures what timing costs.")
    var timing = true

    @Flag(help: """
        Generate one pass of the scenario's batches into memory before the run, then replay them: the figures are the \
        algorithms' alone, without the generator (memory grows with the users × days of the scenario).
        """)
    var replay = false

    @Option(help: "The progress line on stderr: auto (when stderr is a terminal), always or never.")
    var progress = ProgressMode.auto

    @Option(help: """
        After the timed run, compare every output row of the implementations with this one's on the same users (only \
        'reference', the SPEC's own; the default when an implementation is your own).
        """)
    var checkAgainst: CheckTarget?

    @Flag(help: "Do not check your implementations against the reference.")
    var noCheck = false

    @Option(help: "The share of users the check compares (0 < share <= 1; default 1, every user).", transform: OptionValue.share)
    var checkSample: Double?

    func validate() throws {
        if noCheck, checkAgainst != nil { throw ValidationError("give --check-against or --no-check, not both") }
        if checkSample != nil, !checks { throw ValidationError("--check-sample goes with a check: --check-against reference, or your own implementation") }
    }

    /// Whether the run ends with a check against the reference.
    private var checks: Bool { !noCheck && (checkAgainst != nil || !Session.implementations.isReference) }

    func run() async throws {
        var plan: RunPlan
        var options: RunOptions
        do { (plan, options) = try workload.resolve() } catch let error as InvalidInput {
            throw failure("run", error.message, status: HarnessExit.invalidInput)
        }
        try pacing.apply(to: &plan)
        if try await dump.writeIfAsked(plan, seed: options.seed) { return }
        options.outputDirectory = out
        options.timing = timing
        options.replay = replay
        options.rssSampleInterval = interval
        options.interval = interval
        if checks { options.checkSample = checkSample ?? 1 }
        let progress = ProgressLine(unit: "events", enabled: self.progress.enabled)
        if progress.enabled { options.onProgress = { progress.show($0) } }
        let (runOptions, runPlan) = (options, plan)
        let result: RunResult
        do {
            result = try await cancellingOnInterrupt { try await ScenarioRunner.run(runPlan, options: runOptions) }
        } catch let error as RunConfigurationError {
            progress.clear()
            throw failure("run", error.message, status: HarnessExit.invalidInput)
        } catch {
            progress.clear()
            throw failure("run", "\(error)", status: HarnessExit.internalError)
        }
        progress.clear()
        printSummary(of: result, jsonToStdout: json == "-")
        try deliver(result, json: json, reportDir: reportDir)
    }
}

/// Prints `result`'s summary: on stdout, or on stderr when the JSON goes to stdout.
func printSummary(of result: RunResult, jsonToStdout: Bool) {
    if jsonToStdout {
        FileHandle.standardError.write(Data(Summary.render(result, style: TextStyle(enabled: false)).utf8))
    } else {
        print(Summary.render(result, style: stdoutStyle), terminator: "")
    }
}

/// Writes `result` as JSON to `json` and its reports in `reportDir` when asked, then ends `run` with its
/// exit status: interrupted, failed (a threshold or the check), or success.
func deliver(_ result: RunResult, json: String?, reportDir: String?) throws {
    if let json {
        do { try writeOutput(try ResultJSON.encode(result), to: json) } catch {
            throw failure("run", "cannot write \(json): \(error)", status: HarnessExit.internalError)
        }
    }
    if let reportDir { try writeReports(of: result, to: reportDir) }
    if result.status == .cancelled { throw HarnessExit.interrupted.code }
    if !result.passed { throw HarnessExit.failed.code }
}

/// Writes `result.json` and each report format's file in `folder`.
func writeReports(of result: RunResult, to folder: String) throws {
    let context = ReportContext(result: result)
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ResultJSON.encode(result).write(to: URL(fileURLWithPath: folder).appendingPathComponent("result.json"))
        for format in ReportFormat.allCases {
            try Data(format.render(context).utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent(format.fileName))
        }
    } catch {
        throw failure("run", "cannot write the reports in \(folder): \(error)", status: HarnessExit.internalError)
    }
}

extension ProgressLine {
    /// Shows how far a run is: by time for a timed load, by users for a fixed one.
    func show(_ progress: RunProgress) {
        let share = if let limit = progress.timeLimit {
            progress.elapsed.seconds / max(limit.seconds, 1e-9)
        } else {
            Double(progress.users) / Double(max(1, progress.usersPerPass))
        }
        show(elapsed: progress.elapsed, done: progress.events, share: share)
    }
}

/// What `--check-against` compares with.
enum CheckTarget: String, ExpressibleByArgument, CaseIterable {
    case reference
}

/// When the progress line is drawn.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    /// Whether to draw it: `auto` when stderr is a terminal.
    var enabled: Bool {
        switch self {
        case .auto: isatty(STDERR_FILENO) == 1
        case .always: true
        case .never: false
        }
    }
}
