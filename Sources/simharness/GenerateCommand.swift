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

    @Option(help: "Seed (default: the scenario's).")
    var seed: String?

    @Option(help: "Number of users (default: the scenario's).")
    var users: String?

    @Option(help: "Number of days (default: the scenario's).")
    var days: String?

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
        } catch let error as InvalidOption {
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

    private struct InvalidOption: Error { var message: String }

    private func resolve() throws -> (Scenario, UInt64?, UserSelection, ExportOptions) {
        var loaded = try ScenarioCatalog.load(scenario)
        guard let format = ExportOptions.Format(rawValue: format) else {
            throw InvalidOption(message: "--format must be csv, ndjson or sqlite, not '\(format)'")
        }
        if gzip, format == .sqlite { throw InvalidOption(message: "--gzip applies to csv and ndjson only") }
        let seedValue = try seed.map { text -> UInt64 in
            guard let v = UInt64(text) else { throw InvalidOption(message: "--seed must be an integer in 0...\(UInt64.max), not '\(text)'") }
            return v
        }
        if let users { loaded.users = try Self.integer(users, "--users", 1...Scenario.maximumUsers) }
        if let days { loaded.days = try Self.integer(days, "--days", 1...Scenario.maximumDays) }
        let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(k) else {
            throw InvalidOption(message: "--shard must be k/n with 0 <= k < n, not '\(shard)'")
        }
        let jobCount = try jobs.map { try Self.integer($0, "--jobs", 1...256) } ?? ProcessInfo.processInfo.activeProcessorCount
        let options = ExportOptions(directory: out, format: format, gzip: gzip, jobs: jobCount)
        return (loaded, seedValue, UserSelection(users: 0..<loaded.users, shard: k, shardCount: n), options)
    }

    private static func integer(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let v = Int(text), range.contains(v) else {
            throw InvalidOption(message: "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return v
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
