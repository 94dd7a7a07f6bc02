import ArgumentParser
@_spi(Tooling) import Export
import Foundation
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Writes a deterministic synthetic dataset (users, meals, steps, payments) and manifest.json.",
        discussion: """
            Same scenario and seed give byte-identical files whatever --tasks. With --format parquet, \
            each table is one file (DIR/meals.parquet; with --shard k/n, DIR/meals/shard=k/part-0.parquet \
            and manifest-shard-k.json), rows that cannot be typed go verbatim to rejected_rows. \
            Exit status: 0 written, 2 invalid scenario or a bad option (or its value), 3 an output could not be written.
            """
    )

    @Option(help: "A scenario name (\(ScenarioCatalog.names.joined(separator: ", "))) or a YAML file path.")
    var scenario: String

    @Option(help: "Directory to write to (created if missing).")
    var out: String

    @Option(help: "csv, ndjson, sqlite (TEXT tables and typed views) or parquet (typed tables, rejected_rows).")
    var format = ExportOptions.Format.csv

    @Flag(help: "Gzip-compress CSV and NDJSON files.")
    var gzip = false

    @Option(help: "Parquet page compression: \(ExportOptions.compressionNames.joined(separator: ", ")) (default zstd; --format parquet only).")
    var compression: String?

    @OptionGroup var size: ScenarioSizeArguments

    @Option(help: "Write only shard k of n: the users with index mod n == k (as k/n).", transform: OptionValue.shard)
    var shard = Shard()

    @Option(help: "Generating and formatting tasks (default: the number of cores).", transform: OptionValue.tasks)
    var tasks: Int?

    @Option(help: .hidden, transform: OptionValue.tasks)
    var jobs: Int?

    func validate() throws {
        if gzip, format == .sqlite || format == .parquet {
            throw ValidationError("--gzip applies to csv and ndjson only\(format == .parquet ? " (Parquet pages are compressed: --compression)" : "")")
        }
        if let compression {
            guard format == .parquet else { throw ValidationError("--compression applies to --format parquet only") }
            guard ExportOptions.compressionNames.contains(compression) else {
                throw ValidationError("--compression must be one of \(ExportOptions.compressionNames.joined(separator: ", ")), not '\(compression)'")
            }
        }
        if tasks != nil, jobs != nil { throw ValidationError("give --tasks only (--jobs is its old name)") }
    }

    func run() async throws {
        var loaded: Scenario
        do { loaded = try ScenarioCatalog.load(scenario) } catch {
            throw failure("generate", "invalid scenario: \(error)", status: HarnessExit.invalidInput)
        }
        size.override(&loaded)
        var options = ExportOptions(directory: out, toolVersion: toolVersion, format: format, gzip: gzip, jobs: tasks ?? jobs ?? Cores.count)
        if let compression { options.setCompression(named: compression) }
        let selection = UserSelection(users: 0..<loaded.users, shard: shard.index, shardCount: shard.count)
        do {
            try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
        } catch {
            throw failure("generate", "cannot create the output directory \(options.directory)", status: HarnessExit.internalError)
        }
        do {
            let simulator = Simulator(scenario: loaded, seed: size.seed)
            let progress = ProgressLine(unit: "rows")
            let started = ContinuousClock.now
            let manifest = try await DatasetExport.run(simulator, selection: selection, options: options) { done in
                let share = done.usersTotal == 0 ? 1 : Double(done.usersDone) / Double(done.usersTotal)
                progress.show(elapsed: ContinuousClock.now - started, done: done.rowsWritten, share: share)
            }
            progress.clear()
            let rows = manifest.files.values.reduce(0) { $0 + $1.rows }
            print("wrote \(rows) rows for \(selection.count) users to \(options.directory) (seed \(simulator.seed))")
        } catch {
            throw failure("generate", "\(error)", status: HarnessExit.internalError)
        }
    }
}

extension ExportOptions.Format: ExpressibleByArgument {}
