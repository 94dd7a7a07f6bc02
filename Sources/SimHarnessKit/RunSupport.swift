import ArgumentParser
import Foundation
@_spi(Tooling) import RunEngine
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import Synchronization

/// An option value or input file the command cannot use (exit status 2).
struct InvalidInput: Error {
    var message: String
}

/// Writes `simharness <command>: message` to stderr and returns the exit code `status` to throw:
/// the one way every command reports an error.
func failure(_ command: String, _ message: String, status: HarnessExit) -> ExitCode {
    FileHandle.standardError.write(Data("simharness \(command): \(message)\n".utf8))
    return status.code
}

/// `--seed`, `--users` and `--days`, shared by `generate`, `run` and `baseline`.
struct ScenarioSizeArguments: ParsableArguments {
    @Option(help: "Seed (default: the scenario's).", transform: OptionValue.seed)
    var seed: UInt64?

    @Option(help: "Number of users (default: the scenario's).", transform: OptionValue.integer(in: 1...Scenario.maximumUsers))
    var users: Int?

    @Option(help: "Number of days (default: the scenario's).", transform: OptionValue.integer(in: 1...Scenario.maximumDays))
    var days: Int?

    /// Sets the users and days asked for on `scenario`.
    func override(_ scenario: inout Scenario) {
        if let users { scenario.users = users }
        if let days { scenario.days = days }
    }
}

/// The workload options shared by `run` and `baseline`.
struct RunWorkloadArguments: ParsableArguments {
    @Option(help: "A scenario name (\(ScenarioCatalog.names.joined(separator: ", "))) or a YAML file path.")
    var scenario = "smoke"

    @OptionGroup var size: ScenarioSizeArguments

    @Option(help: "Partitions, each a task that generates and analyzes its batches (default: the number of cores).", transform: OptionValue.tasks)
    var tasks: Int?

    @Option(help: Shard.help("the users with index mod n == k"), transform: OptionValue.shard)
    var shard = Shard()

    @Option(help: "Shortest gap between eating episodes that counts as a fast, in seconds (default 10800).",
            transform: OptionValue.integer(in: 0...Int(Int32.max)))
    var minFast: Int?

    @Option(help: "Gateway attempts per payment, 1...32 (default 3).", transform: OptionValue.integer(in: 1...32))
    var maxAttempts: Int?

    /// The plan and options these arguments ask for; throws `InvalidInput` for a bad scenario.
    func resolve() throws -> (RunPlan, RunOptions) {
        var plan: RunPlan
        do { plan = try RunPlan.load(scenario) } catch { throw InvalidInput(message: "invalid scenario: \(error)") }
        size.override(&plan.scenario)
        var options = RunOptions(tasks: tasks ?? Cores.count)
        if let seed = size.seed { options.seed = seed }
        (options.shard, options.shardCount) = (shard.index, shard.count)
        if let minFast { options.minimumFastSeconds = Int64(minFast) }
        if let maxAttempts { options.maxAttempts = maxAttempts }
        options.implementations = Session.implementations
        return (plan, options)
    }
}

/// Runs `operation` in a task that Ctrl-C cancels (a second Ctrl-C ends the process at once). The
/// handler is in place before `operation` starts.
func cancellingOnInterrupt<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let interrupt = Interrupt()
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler {
        interrupt.fire()
        signal(SIGINT, SIG_DFL)
    }
    source.resume()
    defer {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
    let task = Task { try await operation() }
    interrupt.watch(task)
    return try await task.value
}

/// The task Ctrl-C cancels, and whether it came before the task was known.
private final class Interrupt: Sendable {
    private let state = Mutex<(fired: Bool, cancel: (@Sendable () -> Void)?)>((false, nil))

    func fire() { state.withLock { s in s.fired = true; return s.cancel }?() }

    func watch<T>(_ task: Task<T, any Error>) {
        let firedAlready = state.withLock { s in
            s.cancel = { task.cancel() }
            return s.fired
        }
        if firedAlready { task.cancel() }
    }
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
