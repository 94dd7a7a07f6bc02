import ArgumentParser
import Foundation
import Harness
import RunResults

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combines the JSON results of shards (run --shard k/n --json) into one report.",
        discussion: """
            Counts add, histograms merge, rates add (the shards ran side by side), the duration is the longest and peak \
            memory the highest; the thresholds are evaluated again on the sum. Exit status: 0 merged and every threshold \
            held, 1 a threshold failed, 2 unreadable or mismatched results or a bad option, 3 internal error.
            """
    )

    @Argument(help: "Result files written by run --json.")
    var results: [String]

    @Option(help: "Write the merged result here ('-' for stdout).")
    var json: String?

    func run() async throws {
        guard !results.isEmpty else { throw failure("merge", "give at least one result file", status: HarnessExit.invalidInput) }
        var decoded: [RunResult] = []
        for path in results {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw failure("merge", "cannot read \(path)", status: HarnessExit.invalidInput)
            }
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
}
