@_spi(Tooling) import Analysis
import ArgumentParser
import Datasets
@_spi(Tooling) import ProcessMetrics
import Foundation
import Synchronization

struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Reads a dataset directory and writes the outputs of SPEC §5.",
        discussion: """
            Reads users, meals, steps and payments files (CSV or NDJSON, optionally .gz, or a SQLite file) \
            and writes fasting_summary.csv, fasting_daily.csv, steps_daily.csv, payments_outcomes.csv, \
            payments_ledger.csv, totals.json and rejections.csv.
            Exit status: 0 done (rejected rows are not an error), 2 input refused (nothing written) \
            or a bad option, 1 any other failure.
            """
    )

    @Option(help: "Directory holding users, meals, steps and payments files.")
    var input: String

    @Option(help: "Directory to write the output files to (created if missing).")
    var out: String

    @Option(help: "Shortest gap between eating episodes that counts as a fast, in seconds.", transform: OptionValue.integer(in: 0...Int(Int32.max)))
    var minFast = 10_800

    @Option(help: "Gateway attempts per payment (1...32).", transform: OptionValue.integer(in: 1...32))
    var maxAttempts = 3

    @Option(help: "Child tasks that parse and analyze at once (default: the number of cores).", transform: OptionValue.tasks)
    var tasks = Cores.count

    @Flag(help: "Print each stage's time, peak resident memory and CPU time to stderr.")
    var verbose = false

    func run() async throws {
        MemoryTuning.apply()
        let clock = ContinuousClock()
        let started = clock.now
        do {
            var options = AnalysisOptions(minimumFastSeconds: Int64(minFast), maxAttempts: maxAttempts, tasks: tasks)
            if verbose { options.onStage = StageLog().record }
            let totals = try await DatasetAnalyzer.run(input: input, output: out, options: options)
            let seconds = (clock.now - started) / .milliseconds(1) / 1000
            let read = totals.files.values.reduce(0) { $0 + $1.read }
            let rejected = totals.files.values.reduce(0) { $0 + $1.rejectedCount }
            print("analyzed \(read) rows (\(rejected) rejected) in \(String(format3: seconds)) s; results in \(out)")
        } catch let refusal as InputRefusal {
            throw failure("analyze", "input refused: \(refusal)", status: HarnessExit.invalidInput)
        } catch {
            throw failure("analyze", "\(error)", status: HarnessExit.failed)
        }
    }
}

/// Prints, for each stage of `analyze --verbose`, its duration, the peak resident memory so far
/// and the process's CPU time.
final class StageLog: Sendable {
    private let start = ContinuousClock.now
    private let last = Mutex(ContinuousClock.now)

    func record(_ stage: String) {
        let now = ContinuousClock.now
        let took = last.withLock { previous in
            defer { previous = now }
            return now - previous
        }
        let usage = ResourceUsage.current()
        let peak = ResidentMemory.current()?.peakBytes ?? usage.maxResidentBytes
        FileHandle.standardError.write(Data((
            "simharness analyze: \(stage): \(Self.seconds(took)) s (at \(Self.seconds(now - start)) s), peak RSS \(peak >> 20) MB, " +
                "CPU \(String(format3: usage.userCPU.seconds)) s user + \(String(format3: usage.systemCPU.seconds)) s system\n").utf8))
    }

    private static func seconds(_ duration: Duration) -> String { String(format3: Double(duration / .microseconds(1)) / 1e6) }
}

extension String {
    init(format3 value: Double) {
        let milli = Int((value * 1000).rounded())
        let fraction = String(milli % 1000)
        self = "\(milli / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
