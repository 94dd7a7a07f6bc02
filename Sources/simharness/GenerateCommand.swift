import ArgumentParser
import Foundation
import Simulation

struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Writes a deterministic synthetic dataset (users, meals, steps, payments) and manifest.json.",
        discussion: """
            Same scenario and seed give byte-identical files whatever --jobs. Exit status: 0 written, \
            2 invalid scenario or option value, 1 any other failure.
            """
    )

    @Option(help: "A scenario name (\(ScenarioCatalog.names.joined(separator: ", "))) or a YAML file path.")
    var scenario: String

    @Option(help: "Directory to write to (created if missing).")
    var out: String

    @Option(help: "csv, ndjson or sqlite.")
    var format = "csv"

    @Flag(help: "Gzip-compress CSV and NDJSON files.")
    var gzip = false

    @OptionGroup var size: ScenarioSizeArguments

    @Option(help: "Write only shard k of n: the users with index mod n == k (as k/n).")
    var shard = "0/1"

    @Option(help: "Formatting tasks (default: the number of cores).")
    var jobs: String?

    func run() async throws {
        let request: (Scenario, UInt64?, UserSelection, ExportOptions)
        do {
            request = try resolve()
        } catch let error as ScenarioError {
            fail("invalid scenario: \(error)")
        } catch let error as InvalidInput {
            fail(error.message)
        }
        let (scenario, seed, selection, options) = request
        do {
            try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
        } catch {
            FileHandle.standardError.write(Data("simharness generate: cannot create the output directory \(options.directory)\n".utf8))
            throw ExitCode(1)
        }
        do {
            let simulator = Simulator(scenario: scenario, seed: seed)
            let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
            let manifest = try await DatasetExport.run(simulator, selection: selection, options: options) { bar.update($0) }
            bar.finish()
            let rows = manifest.files.values.reduce(0) { $0 + $1.rows }
            print("wrote \(rows) rows for \(selection.count) users to \(options.directory) (seed \(simulator.seed))")
        } catch {
            FileHandle.standardError.write(Data("simharness generate: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func resolve() throws -> (Scenario, UInt64?, UserSelection, ExportOptions) {
        var loaded = try ScenarioCatalog.load(scenario)
        guard let format = ExportOptions.Format(rawValue: format) else {
            throw InvalidInput(message: "--format must be csv, ndjson or sqlite, not '\(format)'")
        }
        if gzip, format == .sqlite { throw InvalidInput(message: "--gzip applies to csv and ndjson only") }
        let seedValue = try size.parsedSeed()
        try size.override(&loaded)
        let (k, n) = try OptionValues.shard(shard)
        let jobCount = try jobs.map { try OptionValues.integer($0, "--jobs", 1...256) } ?? ProcessInfo.processInfo.activeProcessorCount
        let options = ExportOptions(directory: out, format: format, gzip: gzip, jobs: jobCount)
        return (loaded, seedValue, UserSelection(users: 0..<loaded.users, shard: k, shardCount: n), options)
    }

    private func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("simharness generate: \(message)\n".utf8))
        Foundation.exit(2)
    }
}

/// A one-line progress bar on stderr (rows, rows/s, ETA), drawn only when stderr is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant
    private var drawn = false

    init(enabled: Bool) {
        self.enabled = enabled
        started = clock.now
        lastDraw = started
    }

    func update(_ progress: ExportProgress) {
        guard enabled else { return }
        let now = clock.now
        guard now - lastDraw > .milliseconds(100) || progress.usersDone == progress.usersTotal else { return }
        lastDraw = now
        let elapsed = max(1e-6, Self.seconds(now - started))
        let share = progress.usersTotal == 0 ? 1 : Double(progress.usersDone) / Double(progress.usersTotal)
        let width = 30
        let filled = Int(share * Double(width))
        let rate = Double(progress.rowsWritten) / elapsed
        let eta = share > 0 ? elapsed * (1 - share) / share : 0
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + String(format: "%3.0f%%  %@ rows  %@ rows/s  ETA %.0fs ", share * 100, Self.short(Double(progress.rowsWritten)), Self.short(rate), eta)
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    private static func short(_ v: Double) -> String {
        v >= 1e6 ? String(format: "%.1fM", v / 1e6) : v >= 1e3 ? String(format: "%.1fk", v / 1e3) : String(format: "%.0f", v)
    }
}
