import ArgumentParser
import Foundation
import Harness
import Simulation
import Synchronization

/// The exit statuses of `run`, `baseline` and `merge` (`analyze` keeps its own: 0, 1, 2, 64).
enum HarnessExit {
    /// Every threshold held; the baseline held; the merge succeeded.
    static let success: Int32 = 0
    /// A threshold failed (or aborted the run), or the baseline check found a regression.
    static let failed: Int32 = 1
    /// Invalid input: scenario, option value, result or baseline file.
    static let invalidInput: Int32 = 2
    /// The tool itself failed (an output file could not be written, …).
    static let internalError: Int32 = 3
    /// Interrupted by Ctrl-C (128 + SIGINT); the summary covers what was done.
    static let interrupted: Int32 = 130
}

/// An option value or input file the command cannot use (exit status 2).
struct InvalidInput: Error {
    var message: String
}

/// Writes `simharness <command>: message` to stderr and leaves with `status`.
func failure(_ command: String, _ message: String, status: Int32) -> ExitCode {
    FileHandle.standardError.write(Data("simharness \(command): \(message)\n".utf8))
    return ExitCode(status)
}

/// `--seed`, `--users` and `--days`, shared by `generate`, `run` and `baseline`.
struct ScenarioSizeArguments: ParsableArguments {
    @Option(help: "Seed (default: the scenario's).")
    var seed: String?

    @Option(help: "Number of users (default: the scenario's).")
    var users: String?

    @Option(help: "Number of days (default: the scenario's).")
    var days: String?

    /// The seed asked for, if any.
    func parsedSeed() throws -> UInt64? { try seed.map(OptionValues.seed) }

    /// Sets the users and days asked for on `scenario`.
    func override(_ scenario: inout Scenario) throws {
        try OptionValues.override(&scenario, users: users, days: days)
    }
}

/// The workload options shared by `run` and `baseline`.
struct RunWorkloadArguments: ParsableArguments {
    @Option(help: "A scenario name (\(ScenarioCatalog.names.joined(separator: ", "))) or a YAML file path.")
    var scenario = "smoke"

    @OptionGroup var size: ScenarioSizeArguments

    @Option(help: "Partitions, each with a generating and an analyzing task (default: the number of cores).")
    var tasks: String?

    @Option(help: "Run only shard k of n: the users with index mod n == k (as k/n).")
    var shard = "0/1"

    @Option(help: "Shortest gap between eating episodes that counts as a fast, in seconds (default 10800).")
    var minFast: String?

    @Option(help: "Gateway attempts per payment, 1...32 (default 3).")
    var maxAttempts: String?

    /// The plan and options these arguments ask for.
    func resolve() throws -> (RunPlan, RunOptions) {
        var plan: RunPlan
        do { plan = try RunPlan.load(scenario) } catch { throw InvalidInput(message: "invalid scenario: \(error)") }
        try size.override(&plan.scenario)
        var options = RunOptions(tasks: try tasks.map { try OptionValues.integer($0, "--tasks", 1...1024) } ?? ProcessInfo.processInfo.activeProcessorCount)
        if let seed = try size.parsedSeed() { options.seed = seed }
        (options.shard, options.shardCount) = try OptionValues.shard(shard)
        if let minFast { options.minimumFastSeconds = Int64(try OptionValues.integer(minFast, "--min-fast", 0...Int(Int32.max))) }
        if let maxAttempts { options.maxAttempts = try OptionValues.integer(maxAttempts, "--max-attempts", 1...32) }
        return (plan, options)
    }
}

/// Runs `operation` in a task that Ctrl-C cancels (a second Ctrl-C ends the process at once).
func cancellingOnInterrupt<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let task = Task { try await operation() }
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler {
        task.cancel()
        signal(SIGINT, SIG_DFL)
    }
    source.resume()
    defer {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
    return try await task.value
}

/// The live progress line on stderr while a run goes (only when stderr is a terminal).
final class RunProgressLine: Sendable {
    let enabled: Bool
    private let drawn = Mutex(false)

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: RunProgress) {
        guard enabled else { return }
        let elapsed = max(seconds(progress.elapsed), 1e-9)
        let share: Double = if let limit = progress.timeLimit {
            min(1, elapsed / max(seconds(limit), 1e-9))
        } else {
            min(1, Double(progress.users) / Double(max(1, progress.usersPerPass)))
        }
        let filled = Int(share * 30)
        let line = "\r\u{1B}[K" + String(format: "%7.1f s  %@ events  %@ events/s  [", elapsed, Summary.compact(Double(progress.events)), Summary.compact(Double(progress.events) / elapsed))
            + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + String(format: "] %3.0f%%", share * 100)
        drawn.withLock { $0 = true }
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Erases the line.
    func clear() {
        guard drawn.withLock({ $0 }) else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// Writes `data` to `path`, or to stdout for `-`.
func writeOutput(_ data: Data, to path: String) throws {
    if path == "-" {
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    } else {
        try data.write(to: URL(fileURLWithPath: path))
    }
}

/// The summary's style for stdout.
var stdoutStyle: TextStyle {
    TextStyle.automatic(isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
}
