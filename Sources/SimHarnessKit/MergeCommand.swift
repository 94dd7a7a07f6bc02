import ArgumentParser
import Foundation
@_spi(Tooling) import RunEngine
@_spi(Tooling) import RunResults

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combines the JSON results of shards (run --shard k/n --json, or simulate --shard k/n --json) into one.",
        discussion: """
            Counts add, histograms merge, rates add (the shards ran side by side), the duration is the longest and peak \
            memory the highest; the thresholds are evaluated again on the sum. Summaries of simulate's shards add up to \
            the unsharded run's summary, keeping the violation of the lowest seed index and its reproduce line. Exit \
            status: 0 merged and every threshold held (no violation), 1 a threshold failed (a violation), 2 unreadable or \
            mismatched results or a bad option, 3 internal error.
            """
    )

    @Argument(help: "Result files written by run --json, or summaries written by simulate --json (all of one kind).")
    var results: [String]

    @Option(help: "Write the merged result here ('-' for stdout).")
    var json: String?

    func run() async throws {
        guard !results.isEmpty else { throw failure("merge", "give at least one result file", status: HarnessExit.invalidInput) }
        var files: [(path: String, data: Data)] = []
        for path in results {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw failure("merge", "cannot read \(path)", status: HarnessExit.invalidInput)
            }
            files.append((path, data))
        }
        let summaries = files.map { SimulationSummary.isSummary($0.data) }
        if summaries.contains(true) {
            if let other = summaries.firstIndex(of: false) {
                throw failure("merge", "\(files[other].path) is not a simulate summary: merge simulate's summaries or run's results, not both",
                              status: HarnessExit.invalidInput)
            }
            return try mergeSummaries(files)
        }
        var decoded: [RunResult] = []
        for (path, data) in files {
            do { decoded.append(try ResultJSON.decode(data)) } catch {
                throw failure("merge", "\(path): \(error)", status: HarnessExit.invalidInput)
            }
        }
        let merged: RunResult
        do { merged = try RunResult.merged(decoded) } catch {
            throw failure("merge", error.message, status: HarnessExit.invalidInput)
        }
        // With the JSON on stdout, the summary goes to stderr.
        if json == "-" {
            FileHandle.standardError.write(Data(Summary.render(merged, style: TextStyle(enabled: false)).utf8))
        } else {
            print(Summary.render(merged, style: stdoutStyle), terminator: "")
        }
        if let json {
            do { try writeOutput(try ResultJSON.encode(merged), to: json) } catch {
                throw failure("merge", "cannot write \(json): \(error)", status: HarnessExit.internalError)
            }
        }
        if !merged.passed { throw HarnessExit.failed.code }
    }

    /// Adds up the summaries of `simulate --shard` (see `SimulationSummary.merged`) and writes the sum as
    /// `simulate` writes its own.
    private func mergeSummaries(_ files: [(path: String, data: Data)]) throws {
        var parts: [(file: String, summary: SimulationSummary)] = []
        for (path, data) in files {
            do { parts.append((path, try SimulationSummary(json: data))) } catch {
                throw failure("merge", "\(path): \(error.description)", status: HarnessExit.invalidInput)
            }
        }
        let merged: SimulationSummary
        do { merged = try SimulationSummary.merged(parts) } catch {
            throw failure("merge", error.description, status: HarnessExit.invalidInput)
        }
        if json == "-" {
            FileHandle.standardError.write(Data(merged.render().utf8))
        } else {
            print(merged.render(), terminator: "")
        }
        if let json {
            do { try writeOutput(try merged.json(), to: json) } catch {
                throw failure("merge", "cannot write \(json): \(error)", status: HarnessExit.internalError)
            }
        }
        if !merged.passed { throw HarnessExit.failed.code }
    }
}
