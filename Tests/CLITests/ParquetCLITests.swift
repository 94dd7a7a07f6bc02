import Foundation
import Testing
import TestSupport

@Suite("generate --format parquet, then analyze, from the command line", .budget(minutes: 3))
struct ParquetCLITests {
    static let scenarios = ["faults", "load", "smoke", "soak", "spike", "stress"]
    static let outputs = GenerateAnalyzeTests.specOutputs + ["rejections.csv"]

    private func run(_ arguments: [String]) throws {
        let result = try SimHarnessProcess.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    private func generate(_ scenario: String, into directory: String, _ extra: [String] = []) throws {
        try run(["generate", "--scenario", scenario, "--users", "70", "--days", "3", "--seed", "11", "--out", directory] + extra)
    }

    /// The output files of `analyze` of `input`; in `rejections.csv`, the file column's `.csv` or
    /// `.parquet` dropped (the one difference between the formats).
    private func analyze(_ input: String, into output: String) throws -> [String: String] {
        try run(["analyze", "--input", input, "--out", output])
        var files: [String: String] = [:]
        for name in Self.outputs {
            let text = try String(contentsOfFile: output + "/" + name, encoding: .utf8)
            files[name] = name == "rejections.csv"
                ? text.replacingOccurrences(of: ".parquet,", with: ",").replacingOccurrences(of: ".csv,", with: ",") : text
        }
        return files
    }

    @Test("analyze of the Parquet dataset gives the outputs of the CSV one, rejections and their CSV line numbers included",
          arguments: scenarios)
    func sameResultsAsCSV(scenario: String) throws {
        // Given a shipped scenario written as CSV and as Parquet
        let root = try ScratchDirectory(prefix: "cli-tests")
        try generate(scenario, into: root.file("csv"))
        try generate(scenario, into: root.file("parquet"), ["--format", "parquet"])
        // When both are analyzed
        let csv = try analyze(root.file("csv"), into: root.file("out-csv"))
        let parquet = try analyze(root.file("parquet"), into: root.file("out-parquet"))
        // Then every output is the same
        for name in Self.outputs { #expect(parquet[name] == csv[name], "\(scenario): \(name)") }
    }

    @Test("a Hive dataset of 3 shards in one directory analyzes as the 3 CSV shards one after another")
    func shardsAsOneTable() throws {
        // Given 3 Parquet shards written into one directory, and the 3 CSV shards concatenated (one header)
        let root = try ScratchDirectory(prefix: "cli-tests")
        for k in 0..<3 {
            try generate("faults", into: root.file("hive"), ["--format", "parquet", "--shard", "\(k)/3", "--tasks", "\(1 + k % 2)"])
            try generate("faults", into: root.file("csv\(k)"), ["--shard", "\(k)/3"])
        }
        try FileManager.default.createDirectory(atPath: root.file("csv"), withIntermediateDirectories: true)
        for table in ["users", "meals", "steps", "payments"] {
            let parts = try (0..<3).map { try String(contentsOfFile: root.file("csv\($0)/\(table).csv"), encoding: .utf8) }
            let whole = parts[0] + parts.dropFirst().map { String($0[$0.index(after: $0.firstIndex(of: "\n")!)...]) }.joined()
            try whole.write(toFile: root.file("csv/\(table).csv"), atomically: true, encoding: .utf8)
        }
        // When both are analyzed
        let csv = try analyze(root.file("csv"), into: root.file("out-csv"))
        let hive = try analyze(root.file("hive"), into: root.file("out-hive"))
        // Then every output is the same
        for name in Self.outputs { #expect(hive[name] == csv[name], "\(name)") }
    }

    @Test("a missing shard is refused with status 2, naming the table and the shard")
    func missingShard() throws {
        // Given shards 0 and 2 of 3
        let root = try ScratchDirectory(prefix: "cli-tests")
        for k in [0, 2] { try generate("smoke", into: root.file("hive"), ["--format", "parquet", "--shard", "\(k)/3"]) }
        // When it is analyzed
        let result = try SimHarnessProcess.run(["analyze", "--input", root.file("hive"), "--out", root.file("out")])
        // Then it is refused
        #expect(result.status == 2)
        #expect(result.stderr.contains("shard 1 of 3 is missing"), "\(result.stderr)")
    }

    @Test("Parquet options that do not fit exit 2 with a message",
          arguments: [(["--compression", "zstd"], "--compression applies to --format parquet only"),
                      (["--format", "parquet", "--gzip"], "--gzip applies to csv and ndjson only"),
                      (["--format", "parquet", "--compression", "lz4"], "--compression must be one of none, gzip, zstd")])
    func badOptions(extra: [String], message: String) throws {
        // Given a generate command with options that do not fit
        let root = try ScratchDirectory(prefix: "cli-tests")
        // When it runs
        let result = try SimHarnessProcess.run(["generate", "--scenario", "smoke", "--users", "5", "--out", root.path] + extra)
        // Then it exits 2 with the reason
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("every compression writes a dataset that analyzes as the CSV one", arguments: ["none", "gzip", "zstd"])
    func compressions(name: String) throws {
        // Given the smoke scenario as CSV and as Parquet with one compression
        let root = try ScratchDirectory(prefix: "cli-tests")
        try generate("smoke", into: root.file("csv"))
        try generate("smoke", into: root.file("parquet"), ["--format", "parquet", "--compression", name])
        // When both are analyzed
        let csv = try analyze(root.file("csv"), into: root.file("out-csv"))
        let parquet = try analyze(root.file("parquet"), into: root.file("out-parquet"))
        // Then the outputs are the same and the manifest names the compression
        #expect(parquet == csv)
        let manifest = try String(contentsOfFile: root.file("parquet/manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"compression\": \"\(name)\""))
    }
}
