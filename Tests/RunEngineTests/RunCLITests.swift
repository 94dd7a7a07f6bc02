@_spi(Tooling) import ProcessMetrics
import Foundation
@_spi(Tooling) import RunResults
import Testing
@_spi(Tooling) @testable import RunEngine
import TestSupport

/// The exit statuses of `run`, `merge` and `baseline` (0 success, 1 threshold or baseline failure,
/// 2 invalid input, 3 internal error).
@Suite("run, merge and baseline from the command line", .budget(minutes: 2))
struct RunCLITests {
    /// Writes a small scenario file with extra YAML lines and returns its path.
    private func scenario(in directory: ScratchDirectory, _ extra: String = "") throws -> String {
        let path = directory.file("tiny.yaml")
        try ("name: tiny\nseed: 3\nusers: 40\ndays: 2\n" + extra).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a run whose thresholds hold exits 0 and prints the summary")
    func success() throws {
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let sut = try SimHarnessProcess.run(["run", "--scenario", try scenario(in: directory, "thresholds:\n  - users == 40\n"), "--tasks", "2"])
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.contains("pass  users == 40"))
        #expect(sut.stdout.contains("invariant violations: 0"))
        #expect(!sut.stdout.contains("\u{1B}["), "no colours without a terminal")
    }

    @Test("--json - writes the result to stdout and the summary to stderr")
    func jsonToStdout() throws {
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let sut = try SimHarnessProcess.run(["run", "--scenario", try scenario(in: directory), "--json", "-"])
        #expect(sut.status == 0)
        #expect(try ResultJSON.decode(Data(sut.stdout.utf8)).metrics.users == 40)
        #expect(sut.stderr.contains("simharness run: tiny"))
    }

    @Test("a failed threshold exits 1; an abort_on_fail one stops the run and exits 1", arguments: [
        "thresholds:\n  - users > 40\n", "load:\n  batch_users: 1\nthresholds:\n  - check: users < 0\n    abort_on_fail: true\n",
    ])
    func thresholdFailure(extra: String) throws {
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let sut = try SimHarnessProcess.run(["run", "--scenario", try scenario(in: directory, extra)])
        #expect(sut.status == 1)
        #expect(sut.stdout.contains("FAIL"))
    }

    @Test("an invalid scenario exits 2 and says why", arguments: [
        (["--scenario", "no-such-scenario"], "invalid scenario: no-such-scenario: no such scenario"),
        (["--out", "/tmp/unused-harness-out"], "output files need the fixed load model"),
    ])
    func invalidInput(arguments: [String], message: String) throws {
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let base = arguments.contains("--scenario") ? [] : ["--scenario", try scenario(in: directory, "load:\n  model: duration\n  duration: 1s\n")]
        let sut = try SimHarnessProcess.run(["run"] + base + arguments)
        #expect(sut.status == 2)
        #expect(sut.stderr.contains(message), "\(sut.stderr)")
    }

    @Test("a threshold on an unknown metric exits 2 naming the file and line")
    func unknownMetric() throws {
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let path = try scenario(in: directory, "thresholds:\n  - peak_rss_mb < 300\n  - total.events_per_sec > 1\n")
        let sut = try SimHarnessProcess.run(["run", "--scenario", path])
        #expect(sut.status == 2)
        #expect(sut.stderr.contains("\(path):7: unknown metric 'total.events_per_sec' (did you mean 'total.events_per_s'?)"), "\(sut.stderr)")
    }

    @Test("Ctrl-C stops a run at once: the summary of what was done, exit 130")
    func interrupted() throws {
        // Given a run meant to last a minute, drawing its progress line on stderr (the interrupt
        // handler is in place before the run starts, so before the first progress line)
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let process = Process()
        process.executableURL = SimHarnessProcess.executable
        process.environment = SimHarnessProcess.environment
        process.arguments = ["run", "--progress", "always", "--scenario", try scenario(in: directory, "load:\n  model: duration\n  duration: 60s\n")]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // When SIGINT arrives once the first progress line is out (a blocking read: no polling)
        let firstProgress = err.fileHandleForReading.availableData
        process.interrupt()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Then it ends as cancelled, with 130 and the summary of what was done
        #expect(!firstProgress.isEmpty)
        #expect(process.terminationStatus == 130)
        #expect(stdout.contains("cancelled in"))
    }

    @Test("a result that cannot be written is an internal error, exit 3")
    func internalError() throws {
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let sut = try SimHarnessProcess.run(["run", "--scenario", try scenario(in: directory), "--json", directory.file("missing/dir/result.json")])
        #expect(sut.status == 3)
        #expect(sut.stderr.contains("cannot write"))
    }

    @Test("merge combines shard results (exit 0) and refuses mismatched or unreadable ones (exit 2)")
    func merge() throws {
        // Given the two shards of a run, written as JSON
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let path = try scenario(in: directory)
        for shard in ["0/2", "1/2"] {
            let name = directory.file("shard\(shard.first!).json")
            let run = try SimHarnessProcess.run(["run", "--scenario", path, "--shard", shard, "--json", name])
            try #require(run.status == 0, "\(run.stderr)")
        }
        _ = try SimHarnessProcess.run(["run", "--scenario", path, "--seed", "4", "--shard", "1/2", "--json", directory.file("other.json")])
        // When they are merged
        let merged = try SimHarnessProcess.run(["merge", directory.file("shard0.json"), directory.file("shard1.json"), "--json", directory.file("all.json")])
        let mismatched = try SimHarnessProcess.run(["merge", directory.file("shard0.json"), directory.file("other.json")])
        let unreadable = try SimHarnessProcess.run(["merge", directory.file("shard0.json"), directory.file("nothing.json")])
        // Then the merge covers all 40 users, and the bad inputs are refused
        #expect(merged.status == 0, "\(merged.stderr)")
        let result = try ResultJSON.decode(try #require(contents(directory.file("all.json"))))
        #expect(result.metrics.users == 40)
        #expect(result.shards == ["0/2", "1/2"])
        #expect(mismatched.status == 2)
        #expect(mismatched.stderr.contains("cannot merge"))
        #expect(unreadable.status == 2)
    }

    @Test("baseline record then check passes (exit 0); a doctored baseline fails the check (exit 1)")
    func baseline() throws {
        // Given a recorded baseline
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let path = try scenario(in: directory)
        let file = directory.file("tiny.json")
        let record = try SimHarnessProcess.run(["baseline", "record", "--scenario", path, "--repetitions", "2", "--tasks", "2", "--file", file])
        try #require(record.status == 0, "\(record.stderr)")
        // When it is checked as recorded (times loosely: this machine is shared), and against a
        // copy that expects one more meal
        let loose = ["--tolerance", "*=100"]
        let check = try SimHarnessProcess.run(["baseline", "check", "--scenario", path, "--repetitions", "1", "--file", file] + loose)
        var doctored = try BaselineJSON.decode(try #require(contents(file)))
        doctored.metrics["meals.events"]!.value += 1
        try BaselineJSON.encode(doctored).write(to: URL(fileURLWithPath: directory.file("doctored.json")))
        let regressed = try SimHarnessProcess.run(["baseline", "check", "--scenario", path, "--repetitions", "1", "--file", directory.file("doctored.json")] + loose)
        let mismatched = try SimHarnessProcess.run(["baseline", "check", "--scenario", path, "--users", "41", "--file", file])
        // and with the loose tolerances in a table, and with a table that lacks the baseline gate
        let table = directory.file("tolerances.json")
        try Data(#"{ "schema": "simharness.tolerances/1", "gates": { "baseline": { "*": { "relative": 100, "absolute": 1 } } } }"#.utf8).write(to: URL(fileURLWithPath: table))
        let tabled = try SimHarnessProcess.run(["baseline", "check", "--scenario", path, "--repetitions", "1", "--file", file, "--tolerances", table])
        let noGate = directory.file("no-gate.json")
        try Data(#"{ "schema": "simharness.tolerances/1", "gates": {} }"#.utf8).write(to: URL(fileURLWithPath: noGate))
        let refusedTable = try SimHarnessProcess.run(["baseline", "check", "--scenario", path, "--file", file, "--tolerances", noGate])
        // Then the first holds, as does the check with the table; the doctored one regresses on that count; the other
        // users and the table without a baseline gate are refused
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(tabled.status == 0, "\(tabled.stdout)\(tabled.stderr)")
        #expect(refusedTable.status == 2)
        #expect(refusedTable.stderr.contains("no-gate.json: gates.baseline is missing"))
        #expect(check.stdout.contains("no regression"))
        #expect(regressed.status == 1)
        #expect(regressed.stdout.contains("meals.events regressed"))
        #expect(mismatched.status == 2)
        #expect(mismatched.stderr.contains("--users 41 differs from the baseline's 40"))
    }

    @Test("a baseline recorded on a machine twice as fast passes here unchanged with the default gate; check --help names the gates")
    func baselineFromAFasterMachine() throws {
        // Given a baseline recorded here, made into one of a machine twice as fast: its times halved,
        // its rates and calibration scores doubled
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let path = try scenario(in: directory)
        let file = directory.file("tiny.json")
        let record = try SimHarnessProcess.run(["baseline", "record", "--scenario", path, "--repetitions", "2", "--tasks", "2", "--file", file])
        try #require(record.status == 0, "\(record.stderr)")
        var faster = try BaselineJSON.decode(try #require(contents(file)))
        faster.calibration = Calibration(score: faster.calibration.score * 2, cpuScore: faster.calibration.cpuScore * 2)
        for (name, entry) in faster.metrics where [.time, .cpuTime].contains(entry.kind) { faster.metrics[name]!.value /= 2 }
        for (name, entry) in faster.metrics where entry.kind == .throughput { faster.metrics[name]!.value *= 2 }
        try BaselineJSON.encode(faster).write(to: URL(fileURLWithPath: directory.file("faster.json")))

        // When this machine checks the same build against it (CPU time within 50 %: the machine is shared)
        let check = try SimHarnessProcess.run(
            ["baseline", "check", "--scenario", path, "--repetitions", "2", "--file", directory.file("faster.json"), "--tolerance", "cpu_*=0.5"])
        let help = try SimHarnessProcess.run(["baseline", "check", "--help"])

        // Then it passes: the calibration scaled the times, and the counts held
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("as slow as the baseline's"))
        #expect(help.stdout.contains("--gate"))
        #expect(help.stdout.contains("portable"))
    }
}

/// `--shard env/n`: the shard index from the environment a CI matrix or a Kubernetes Indexed Job sets.
@Suite("run --shard env/n", .budget(minutes: 2))
struct ShardFromEnvironmentTests {
    @Test(arguments: [
        (["JOB_COMPLETION_INDEX": "1"], "1/3"),
        (["SIMHARNESS_SHARD_INDEX": "2", "JOB_COMPLETION_INDEX": "0"], "2/3"),
    ])
    func theIndexComesFromTheEnvironment(environment: [String: String], shard: String) throws {
        // Given a small fixed scenario
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let scenario = directory.file("tiny.yaml")
        try "name: tiny\nseed: 3\nusers: 30\ndays: 1\n".write(toFile: scenario, atomically: true, encoding: .utf8)

        // When run as shard env/3
        let sut = try SimHarnessProcess.run(["run", "--scenario", scenario, "--shard", "env/3", "--json", "-"], extraEnvironment: environment)

        // Then it runs the shard the environment names
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(try ResultJSON.decode(Data(sut.stdout.utf8)).shards == [shard])
    }

    @Test(arguments: [
        ([String: String](), "env/3 takes the shard from SIMHARNESS_SHARD_INDEX or JOB_COMPLETION_INDEX, and neither is set"),
        (["JOB_COMPLETION_INDEX": "3"], "env/3: JOB_COMPLETION_INDEX must be an integer in 0...2, not '3'"),
        (["SIMHARNESS_SHARD_INDEX": "one"], "env/3: SIMHARNESS_SHARD_INDEX must be an integer in 0...2, not 'one'"),
    ])
    func aMissingOrBadIndexIsAUsageError(environment: [String: String], message: String) throws {
        // When / Then
        let sut = try SimHarnessProcess.run(["run", "--shard", "env/3"], extraEnvironment: environment)
        #expect(sut.status == 2)
        #expect(sut.stderr.contains(message), "\(sut.stderr)")
    }
}
