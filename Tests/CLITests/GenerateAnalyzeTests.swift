import Foundation
import Testing
import TestSupport

@Suite("generate then analyze, from the command line", .budget(minutes: 2))
struct GenerateAnalyzeTests {
    static let specOutputs = [
        "fasting_summary.csv", "fasting_daily.csv", "steps_daily.csv", "payments_outcomes.csv", "payments_ledger.csv", "totals.json",
    ]

    /// Generates a dataset into `root`/data and analyzes it into `root`/out.
    func generateAndAnalyze(_ extra: [String], in root: ScratchDirectory) throws -> (dataset: URL, results: URL) {
        let dataset = URL(fileURLWithPath: root.file("data")), results = URL(fileURLWithPath: root.file("out"))
        let generated = try SimHarnessProcess.run(
            ["generate", "--scenario", "smoke", "--users", "60", "--days", "3", "--seed", "7", "--out", dataset.path] + extra
        )
        #expect(generated.status == 0, "\(generated.stderr)")
        let analyzed = try SimHarnessProcess.run(["analyze", "--input", dataset.path, "--out", results.path])
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        return (dataset, results)
    }

    @Test("analyze reads every format generate writes, with identical results",
          arguments: [["--format", "ndjson"], ["--gzip"], ["--format", "ndjson", "--gzip"], ["--format", "sqlite"]])
    func everyFormat(extra: [String]) throws {
        // Given the same scenario and seed written as CSV and in another format
        let csvRoot = try ScratchDirectory(prefix: "cli-tests"), otherRoot = try ScratchDirectory(prefix: "cli-tests")
        let csv = try generateAndAnalyze([], in: csvRoot)
        let other = try generateAndAnalyze(extra, in: otherRoot)
        // Then analyze's SPEC outputs are byte-identical
        for name in Self.specOutputs {
            let a = try String(contentsOf: csv.results.appendingPathComponent(name), encoding: .utf8)
            let b = try String(contentsOf: other.results.appendingPathComponent(name), encoding: .utf8)
            #expect(a == b, "\(name) differs for \(extra)")
        }
    }

    @Test("every injected fault is found by analyze with its reason")
    func faultsAreFound() throws {
        // Given a generated dataset and its manifest of injected faults
        let root = try ScratchDirectory(prefix: "cli-tests")
        let run = try generateAndAnalyze([], in: root)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: run.dataset.appendingPathComponent("manifest.json"))) as! [String: Any]
        let totals = try JSONSerialization.jsonObject(with: Data(contentsOf: run.results.appendingPathComponent("totals.json"))) as! [String: Any]
        let faults = try #require(manifest["faults"] as? [String: [String: Int]])
        // Then, for each file, the rejections counted per reason equal the faults injected
        for kind in ["meals", "steps", "payments"] {
            let rejected = try #require((totals[kind] as? [String: Any])?["rejected"] as? [String: Int])
            let injected = try #require(faults[kind]).filter { $0.key != "out_of_order" && $0.value > 0 }
            #expect(rejected == injected, "\(kind)")
        }
    }
}
