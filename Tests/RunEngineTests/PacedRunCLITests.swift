import Foundation
@_spi(Tooling) import RunResults
import Testing
@_spi(Tooling) @testable import RunEngine
import TestSupport

/// `run --strict`, `--duration`, `--rate` and `--dump-user` from the command line.
@Suite("run: strict schedules, load overrides, one user's rows", .budget(minutes: 2))
struct PacedRunCLITests {
    /// Writes a small scenario file with extra YAML lines and returns its path.
    private func scenario(in directory: ScratchDirectory, _ extra: String = "") throws -> String {
        let path = directory.file("tiny.yaml")
        try ("name: tiny\nseed: 3\nusers: 40\ndays: 2\n" + extra).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A schedule no machine keeps: 10⁹ events/s for 100 ms, 10⁸ events due.
    private let impossible = "load:\n  model: arrival_rate\n  rate: 1e9\n  duration: 100ms\n"

    @Test("a paced run that drops events without a threshold on them passes, with a warning")
    func warned() throws {
        // Given a tiny population under a schedule no machine keeps
        let directory = try ScratchDirectory(prefix: "harness-tests")
        // When it runs
        let sut = try SimHarnessProcess.run(["run", "--scenario", try scenario(in: directory, impossible), "--progress", "never"])
        // Then it exits 0, the summary warning of the drops
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.contains("WARNING: the paced load fell"))
    }

    @Test("--strict, or load.strict: true, makes the same run fail on dropped_events", arguments: [(["--strict"], ""), ([], "  strict: true\n")])
    func strict(options: [String], strictLine: String) throws {
        // Given the same run, made strict
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let path = try scenario(in: directory, impossible + strictLine)
        // When it runs
        let sut = try SimHarnessProcess.run(["run", "--scenario", path, "--progress", "never"] + options)
        // Then the strict threshold fails it: exit 1, and no warning on top
        #expect(sut.status == 1, "\(sut.stderr)")
        #expect(sut.stdout.contains("FAIL  dropped_events == 0"))
        #expect(!sut.stdout.contains("WARNING"))
    }

    @Test("--duration and --rate replace the scenario's; the summary shows the load run")
    func overrides() throws {
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let sut = try SimHarnessProcess.run(["run", "--scenario", try scenario(in: directory), "--duration", "200ms", "--json", "-"])
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(try ResultJSON.decode(Data(sut.stdout.utf8)).load.hasPrefix("duration "))
    }

    @Test("an override the load has no place for, or a bad value, is a usage error saying why", arguments: [
        (["--rate", "1000"], "--rate needs a duration with the fixed model: give --duration too"),
        (["--duration", "soon"], "must be a positive duration up to 8760h such as 500ms, 30s, 5m or 1h30m, not 'soon'"),
        (["--rate", "0"], "must be a number of events per second above 0 and at most 1e9, not '0'"),
        (["--dump-user", "someone"], "must be a user id such as u0000042 or an index such as 42, not 'someone'"),
        (["--dump-user", "u0000100"], "--dump-user u0000100: the scenario has 40 users (u0000000 to u0000039), the check 60 boundary users (u0000040 to u0000099)"),
        (["--dump-dir", "x"], "--dump-dir goes with --dump-user"),
    ])
    func refused(options: [String], message: String) throws {
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let sut = try SimHarnessProcess.run(["run", "--scenario", try scenario(in: directory)] + options)
        #expect(sut.status == 2)
        #expect(sut.stderr.contains(message), "\(sut.stderr)")
    }

    @Test("--duration on a ramping load is refused: its stages set their own")
    func rampingKeepsItsStages() throws {
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let path = try scenario(in: directory, "load:\n  model: ramping\n  stages:\n    - {duration: 1s, target: 10}\n")
        let sut = try SimHarnessProcess.run(["run", "--scenario", path, "--duration", "5s"])
        #expect(sut.status == 2)
        #expect(sut.stderr.contains("the ramping model's stages set their own durations and rates"), "\(sut.stderr)")
    }

    @Test("--dump-user writes one user's rows, and analyze of them gives that user's rows of the whole dataset")
    func dumpUser() throws {
        // Given the tiny scenario, generated and analyzed whole
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let path = try scenario(in: directory)
        let generated = try SimHarnessProcess.run(["generate", "--scenario", path, "--out", directory.file("all")])
        let analyzed = try SimHarnessProcess.run(["analyze", "--input", directory.file("all"), "--out", directory.file("all-out")])
        try #require(generated.status == 0 && analyzed.status == 0, "\(generated.stderr)\(analyzed.stderr)")

        // When user 7's rows are dumped and analyzed alone
        let sut = try SimHarnessProcess.run(["run", "--scenario", path, "--dump-user", "u0000007", "--dump-dir", directory.file("u7")])
        let alone = try SimHarnessProcess.run(["analyze", "--input", directory.file("u7"), "--out", directory.file("u7-out")])

        // Then the dump holds that user only, and its outputs are that user's rows of the whole
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.hasPrefix("wrote the input rows of u0000007 (scenario tiny, seed 3) to "))
        #expect(alone.status == 0, "\(alone.stderr)")
        let users = try String(contentsOfFile: directory.file("u7/users.csv"), encoding: .utf8).split(separator: "\n")
        #expect(users.dropFirst().allSatisfy { $0.hasPrefix("u0000007,") })
        let files = [("fasting_summary", "u0000007,"), ("fasting_daily", "u0000007,"), ("steps_daily", "u0000007,"),
                     ("payments_outcomes", "p0000007-"), ("payments_ledger", "u0000007,")]
        for (file, prefix) in files {
            let whole = try String(contentsOfFile: directory.file("all-out/\(file).csv"), encoding: .utf8).split(separator: "\n")
            let mine = try String(contentsOfFile: directory.file("u7-out/\(file).csv"), encoding: .utf8).split(separator: "\n")
            #expect(Array(mine.dropFirst()) == whole.filter { $0.hasPrefix(prefix) }, "\(file)")
        }
        #expect(try String(contentsOfFile: directory.file("u7-out/fasting_summary.csv"), encoding: .utf8).contains("\nu0000007,"))
    }

    @Test("--dump-user also writes a user of the boundary population every check adds after the scenario's users")
    func dumpBoundaryUser() throws {
        // Given the tiny scenario of 40 users, whose check adds boundary users u0000040 to u0000099
        let directory = try ScratchDirectory(prefix: "harness-tests")
        // When u0000042 (plan 0: UTC offset -720, 16:8) is dumped
        let sut = try SimHarnessProcess.run(["run", "--scenario", try scenario(in: directory), "--dump-user", "u0000042", "--dump-dir", directory.file("b")])
        // Then its users row is the plan's, and its meals hold the zero-length one of the layout
        #expect(sut.status == 0, "\(sut.stderr)")
        let users = try String(contentsOfFile: directory.file("b/users.csv"), encoding: .utf8).split(separator: "\n")
        #expect(users.dropFirst().map { $0.hasPrefix("u0000042,-720,16:8,") } == [true])
        let meals = try String(contentsOfFile: directory.file("b/meals.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(meals.contains { row in let f = row.split(separator: ","); return f[1] == "u0000042" && f[2] == f[3] })
    }
}
