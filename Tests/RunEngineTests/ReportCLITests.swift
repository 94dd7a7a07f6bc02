import Foundation
@_spi(Tooling) import RunResults
import Testing
@_spi(Tooling) import RunEngine
import TestSupport

/// `simharness report` and `run --report-dir` from the command line.
@Suite("report from the command line", .budget(minutes: 2))
struct ReportCLITests {
    /// Runs a small fixed scenario (seed `seed`) and writes its result to `name` in `directory`.
    private func result(in directory: ScratchDirectory, _ name: String, seed: Int = 3) throws -> String {
        let scenario = directory.file("tiny-\(seed).yaml")
        try "name: tiny\nseed: \(seed)\nusers: 40\ndays: 2\nthresholds:\n  - users == 40\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        let path = directory.file(name)
        let run = try SimHarnessProcess.run(["run", "--scenario", scenario, "--json", path])
        try #require(run.status == 0, "\(run.stderr)")
        return path
    }

    @Test func eachFormatIsWrittenWhereAsked() throws {
        // Given a result and an earlier one to compare with
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let current = try result(in: directory, "current.json")
        let earlier = try result(in: directory, "earlier.json")

        // When
        let sut = try SimHarnessProcess.run([
            "report", current, "--compare", earlier, "--html", directory.file("r.html"), "--markdown", "-",
            "--junit", directory.file("j.xml"), "--openmetrics", directory.file("m.txt"),
        ])

        // Then
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.hasPrefix("### SimHarness · tiny: "))
        #expect(sut.stdout.contains("| metric | tiny · current | tiny · earlier | change | |"))
        #expect(sut.stdout.contains("| count | tiny · current | tiny · earlier | change |"))
        #expect(sut.stdout.contains("| `total.events` |"))
        #expect(String(decoding: contents(directory.file("r.html")) ?? Data(), as: UTF8.self).contains(#"data-chart="throughput""#))
        #expect(String(decoding: contents(directory.file("j.xml")) ?? Data(), as: UTF8.self).contains("<testsuite name=\"compared with tiny · earlier\""))
        #expect(String(decoding: contents(directory.file("m.txt")) ?? Data(), as: UTF8.self).hasSuffix("# EOF\n"))
    }

    @Test func comparedRunsAreNamedByScenarioAndFolderOrByTheirLabels() throws {
        // Given two report folders' results, both called result.json
        let directory = try ScratchDirectory(prefix: "harness-tests")
        for folder in ["main", "pr"] { try FileManager.default.createDirectory(atPath: directory.file(folder), withIntermediateDirectories: true) }
        let main = try result(in: directory, "main/result.json")
        let pr = try result(in: directory, "pr/result.json", seed: 4)

        // When they are compared, named by default and by label
        let named = try SimHarnessProcess.run(["report", pr, "--compare", main, "--markdown", "-"])
        let labelled = try SimHarnessProcess.run(["report", pr, "--compare", main, "--markdown", "-", "--label", "PR 12", "--compare-label", "main branch"])

        // Then each run goes by its scenario and folder, or by its label, never by result.json
        #expect(named.stdout.contains("| metric | tiny · pr | tiny · main | change | |"), "\(named.stdout)")
        #expect(labelled.stdout.contains("| metric | PR 12 | main branch | change | |"), "\(labelled.stdout)")
        #expect(!named.stdout.contains("result.json"))
    }

    @Test func runWithAReportDirWritesTheResultAndEveryReport() throws {
        // Given
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let scenario = directory.file("tiny.yaml")
        try "name: tiny\nseed: 3\nusers: 40\ndays: 2\n".write(toFile: scenario, atomically: true, encoding: .utf8)

        // When
        let sut = try SimHarnessProcess.run(["run", "--scenario", scenario, "--report-dir", directory.file("reports")])

        // Then
        #expect(sut.status == 0, "\(sut.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.file("reports")).sorted()
        #expect(files == ["junit.xml", "latency.hlog", "metrics.txt", "report.html", "result.json", "summary.md"])
        #expect(try ResultJSON.decode(try #require(contents(directory.file("reports/result.json")))).metrics.users == 40)
    }

    @Test func aHistoryFolderAddsTrendLines() throws {
        // Given two earlier results in a folder
        let directory = try ScratchDirectory(prefix: "harness-tests")
        try FileManager.default.createDirectory(atPath: directory.file("history"), withIntermediateDirectories: true)
        _ = try result(in: directory, "history/1.json")
        _ = try result(in: directory, "history/2.json")
        let current = try result(in: directory, "current.json")

        // When
        let sut = try SimHarnessProcess.run(["report", current, "--history", directory.file("history"), "--html", "-"])

        // Then
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.contains("History (3 runs, oldest first)"))
    }

    @Test(arguments: [
        (["report", "RESULT"], 2, "give at least one of --html, --markdown, --junit, --openmetrics and --hdr-log"),
        (["report", "RESULT", "--markdown", "-", "--compare", "RESULT", "--baseline", "RESULT"], 2, "give --baseline or --compare, not both"),
        (["report", "RESULT", "--markdown", "-", "--label", "mine"], 2, "--label and --compare-label go with --compare"),
        (["report", "missing.json", "--markdown", "-"], 2, "simharness report: cannot read missing.json"),
        (["report", "NOT_A_RESULT", "--markdown", "-"], 2, "not-a-result.json: not a simharness run result"),
        (["report", "RESULT", "--history", "HISTORY", "--html", "-"], 2, "not-a-result.json: not a simharness run result"),
        (["report", "RESULT", "--baseline", "RESULT", "--markdown", "-"], 2, "result.json"),
        (["report", "RESULT", "--junit", "/no/such/dir/j.xml"], 3, "simharness report: cannot write /no/such/dir/j.xml"),
    ])
    func badInputIsRefusedWithItsReason(arguments: [String], status: Int32, message: String) throws {
        // Given a result, a JSON file of something else, and a history folder holding it
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let current = try result(in: directory, "result.json")
        try FileManager.default.createDirectory(atPath: directory.file("history"), withIntermediateDirectories: true)
        try #"{"schema": "k6", "version": 1}"#.write(toFile: directory.file("history/not-a-result.json"), atomically: true, encoding: .utf8)
        let paths = ["RESULT": current, "NOT_A_RESULT": directory.file("history/not-a-result.json"), "HISTORY": directory.file("history")]

        // When
        let sut = try SimHarnessProcess.run(arguments.map { paths[$0] ?? $0 })

        // Then
        #expect(sut.status == status)
        #expect(sut.stderr.contains(message), "\(sut.stderr)")
    }
}
