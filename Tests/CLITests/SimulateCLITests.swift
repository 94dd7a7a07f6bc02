import Foundation
import PaymentsCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
/// read(2), named apart from `ProcessKillTests.read`.
private let systemRead = Glibc.read
#else
import Darwin
/// read(2), named apart from `ProcessKillTests.read`.
private let systemRead = Darwin.read
#endif

@Suite("simharness simulate from the command line", .budget(minutes: 3))
struct SimulateCLITests {
    /// Every fault kind `--faults` takes, as docs/simulate.md lists them; the last five strike the simulated disk only.
    static let faultKinds = [
        "timeout", "lost", "late", "decline", "outage", "storm", "retry", "duplicate", "reorder", "crash", "storage", "clock", "reuse",
        "power", "torn", "fsync", "full", "read",
    ]

    @Test("--help lists every fault kind, one line each with what it does; the disk's five say so")
    func helpNamesTheFaultKinds() throws {
        // Given the simulate command
        // When its help is asked for
        let sut = try SimHarnessProcess.run(["simulate", "--help"])
        // Then each kind starts a line of its own with its description, the disk's kinds marked, and no line is
        // wrapped (a wrapped description would break the table)
        #expect(sut.status == 0, "\(sut.stderr)")
        let lines = sut.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let kindLines = Self.faultKinds.map { kind in lines.first { $0.hasPrefix("  \(kind) ") } }
        #expect(kindLines.map { $0 != nil } == Array(repeating: true, count: Self.faultKinds.count))
        #expect(kindLines.suffix(5).map { $0?.contains(" disk: ") } == Array(repeating: true, count: 5))
        #expect(kindLines.prefix(13).map { $0?.contains(" disk: ") } == Array(repeating: false, count: 13))
        #expect(kindLines.map { ($0?.split(separator: " ").count ?? 0) > 3 } == Array(repeating: true, count: Self.faultKinds.count))
        #expect(lines.allSatisfy { $0.count <= 80 })
    }

    @Test("a swarm with no violation exits 0 and sums up its worlds")
    func quietSwarm() throws {
        // Given a small swarm
        // When it runs
        let sut = try SimHarnessProcess.run(["simulate", "--seeds", "6", "--from", "40", "--payments", "120", "--tasks", "2"])
        // Then it exits 0 with a summary
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.contains("simulate: 6 worlds (seeds 0x28…0x2d), store memory"))
        #expect(sut.stdout.contains("violations: 0"))
    }

    @Test("a mixed swarm runs every 8th world on the simulated disk; the planted SQLite defect's line reproduces it on the disk")
    func mixedSwarm() throws {
        // Given CI's kind of swarm, with and without the SQLite store's planted defect
        // When each runs
        let quiet = try SimHarnessProcess.run(["simulate", "--seeds", "9", "--payments", "150", "--store", "mixed", "--tasks", "2"])
        let flawed = try SimHarnessProcess.run(["simulate", "--seeds", "9", "--payments", "300", "--store", "mixed", "--flaw", "sqlite-uncounted-refund"])
        // Then the quiet one counts its disk worlds and exits 0; the flawed one is caught on the disk, and its line fails alike
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.contains("simulate: 9 worlds (seeds 0x0…0x8), store mixed (2 on the simulated disk)"), "\(quiet.stdout)")
        #expect(flawed.status == 1)
        #expect(flawed.stdout.contains("VIOLATION of charge-miscounted"), "\(flawed.stdout)")
        let line = try #require(flawed.stdout.split(separator: "\n").first { $0.contains("reproduce: ") })
        let arguments = line.split(separator: " ").map(String.init).drop { $0 != "simharness" }.dropFirst()
        #expect(arguments.contains("disk"))
        let again = try SimHarnessProcess.run(Array(arguments))
        #expect(again.status == 1)
        #expect(again.stdout.contains("VIOLATION of charge-miscounted"))
    }

    @Test("a violation exits 1 with the line that reproduces it and a shrunk one; both fail the same way")
    func reproduction() throws {
        // Given a service with a planted defect
        // When a swarm runs it with shrinking
        let sut = try SimHarnessProcess.run(["simulate", "--seeds", "10", "--payments", "200", "--flaw", "refund-twice", "--shrink"])
        // Then it exits 1, naming the invariant, the repro line and a shrunk line
        #expect(sut.status == 1)
        #expect(sut.stdout.contains("VIOLATION of charge-miscounted"))
        let lines = sut.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let repro = try #require(lines.first { $0.hasPrefix("reproduce: ") }).dropFirst("reproduce: ".count)
        let shrunk = try #require(lines.first { $0.hasPrefix("shrunk: ") }).dropFirst("shrunk: ".count).trimmingCharacters(in: .whitespaces)
        for line in [String(repro), shrunk] {
            let arguments = line.split(separator: " ").map(String.init)
            #expect(arguments.first == "simharness")
            let again = try SimHarnessProcess.run(Array(arguments.dropFirst()))
            #expect(again.status == 1)
            #expect(again.stdout.contains("VIOLATION of charge-miscounted"))
        }
    }

    @Test("--json writes the versioned summary")
    func json() throws {
        // Given a swarm asked for JSON on stdout
        // When it runs
        let sut = try SimHarnessProcess.run(["simulate", "--seeds", "3", "--payments", "100", "--faults", "all", "--json", "-"])
        // Then stdout is the JSON, and the summary went to stderr
        #expect(sut.status == 0, "\(sut.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sut.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect(object["worlds"] as? Int == 3)
        #expect(object["passed"] as? Bool == true)
        #expect((object["violations"] as? [Any])?.isEmpty == true)
        #expect((object["faults"] as? [String: Int])?["crash"] ?? 0 > 0)
        #expect(sut.stderr.contains("violations: 0"))
    }

    @Test("bad options and impossible mixes exit 2 and say what is wrong", arguments: [
        (["--seeds", "0"], "'--seeds <seeds>': must be an integer in 1..."),
        (["--seed", "x1"], "'--seed <seed>': must be an integer in 0...18446744073709551615, decimal or 0x hex"),
        (["--payments", "0"], "'--payments <payments>': must be an integer in 1..."),
        (["--faults", "bogus=1"], "unknown fault 'bogus'"),
        (["--faults", "crash=0.5"], "may be at most 0.1"),
        (["--seed", "1", "--seeds", "2"], "give --seed or --seeds, not both"),
        (["--seed", "1", "--from", "2"], "--from goes with --seeds"),
        (["--resume"], "--resume needs --db FILE"),
        (["--seed", "1", "--db", "x.sqlite"], "--db needs --store sqlite"),
        (["--seeds", "2", "--store", "sqlite", "--db", "x.sqlite"], "--db keeps one world: give --seed"),
        (["--store", "tape"], "'tape' is invalid for '--store <store>'"),
        (["--seed", "1", "--store", "disk", "--db", "x.sqlite"], "--db needs --store sqlite"),
        (["--time-limit", "soon"], "'--time-limit <time-limit>': must be a positive duration"),
        (["--time-limit", "9999999999999999h"], "'--time-limit <time-limit>': must be a positive duration"),
        (["--jobs", "0"], "'--jobs': must be an integer"),
        (["--tasks", "0"], "'--tasks <tasks>': must be an integer"),
        (["--tasks", "1", "--jobs", "1"], "give --tasks only (--jobs is its old name)"),
        (["--flaw", "nope"], "'nope' is invalid for '--flaw'"),
        (["--seed", "1", "--store", "sqlite", "--db", "/nonexistent/x.sqlite", "--resume"], "does not exist"),
        (["--seed", "1", "--kills", "5"], "--kills replays one SQLite world's history"),
        (["--seeds", "2", "--store", "sqlite", "--kills", "5"], "--kills replays one SQLite world's history"),
        (["--seed", "1", "--store", "sqlite", "--kills", "5", "--shrink"], "--kills replays one SQLite world's history"),
        (["--seed", "1", "--store", "sqlite", "--kills", "5,x"], "'--kills <kills>': must be an integer in 0..."),
        (["--seed", "1", "--store", "sqlite", "--kills", "-3"], "--kills"),
        (["--seed", "1", "--flaw", "reentrancy"], "--flaw: the reference service cannot have the planted flaw reentrancy (a flaw of the ledger service)"),
        (["--seed", "1", "--flaw", "no-such-flaw"], "--flaw"),
    ])
    func badOptions(arguments: [String], message: String) throws {
        // Given a bad option
        // When simulate runs
        let sut = try SimHarnessProcess.run(["simulate"] + arguments)
        // Then it exits 2 with the reason
        #expect(sut.status == 2)
        #expect(sut.stderr.contains(message), "\(sut.stderr)")
    }

    @Test("a time limit stops starting worlds")
    func timeLimit() throws {
        // Given a swarm far too large for a 1 ms budget
        // When it runs
        let sut = try SimHarnessProcess.run(["simulate", "--seeds", "1000000", "--payments", "100", "--time-limit", "1ms"])
        // Then it ends at once, having run no more than the worlds already started
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(!sut.stdout.contains("1000000 worlds"))
    }
}

@Suite("The SQLite payment service survives SIGKILL", .budget(minutes: 5))
struct ProcessKillTests {
    /// Runs `simharness` until it has printed `lines` progress lines, then kills it with SIGKILL;
    /// returns whether it was killed (false: it finished first) and its status.
    static func runAndKill(_ arguments: [String], afterLines lines: Int) throws -> (killed: Bool, status: Int32) {
        let process = Process()
        process.executableURL = SimHarnessProcess.executable
        process.arguments = arguments
        process.environment = SimHarnessProcess.environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let descriptor = out.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 4_096), seen = 0
        while seen < lines {
            let count = Self.read(descriptor, into: &chunk)
            if count == 0 { break }  // end of output: the process finished
            seen += chunk[..<count].filter { $0 == UInt8(ascii: "\n") }.count
        }
        let killed = seen >= lines
        if killed { kill(process.processIdentifier, SIGKILL) }
        while Self.read(descriptor, into: &chunk) > 0 {}
        process.waitUntilExit()
        return (killed, process.terminationStatus)
    }

    /// Reads what `descriptor` has next into `buffer`, retrying when a signal interrupts the read
    /// (`FileHandle.availableData` traps then); 0 at the end of the output.
    static func read(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 || errno != EINTR { return max(count, 0) }
        }
    }

    /// Kills world `seed` `times` times at random steps, restarting it on the same files each time, then
    /// runs it to its end; returns what went wrong, nil when nothing did. A run prints about 90 progress
    /// lines (a restarted one too: its clients submit every payment again), so nearly every run is killed,
    /// anywhere in it.
    static func crash(world seed: UInt64, times: Int) throws -> String? {
        let directory = try ScratchDirectory(prefix: "cli-tests")
        let database = directory.file("payments.sqlite")
        let world = ["simulate", "--seed", "\(seed)", "--payments", "200", "--clients", "6", "--faults", "timeout=0.2,lost=0.2,decline=0.1,late=0.1",
                     "--store", "sqlite", "--db", database, "--progress-steps", "25"]
        var random = SplitMix64(seed: seed)
        var kills = 0, runs = 0
        while kills < times {
            let resume = FileManager.default.fileExists(atPath: database) ? ["--resume"] : []
            let outcome = try runAndKill(world + resume, afterLines: 1 + Int(random.next() % 88))
            runs += 1
            if outcome.killed {
                kills += 1
            } else if outcome.status != 0 {
                return "run \(runs), not killed, exited \(outcome.status): it broke an invariant"
            }
            if runs == 4 * times { return "the world ended before it could be killed \(times) times" }
        }
        let last = try SimHarnessProcess.run(world + ["--resume"])
        guard last.status == 0, last.stdout.contains("violations: 0") else { return "the last run exited \(last.status):\n\(last.stdout)" }
        return nil
    }

    /// Two worlds of 25 kills each rather than one of 50: the same number of crash points, on both cores.
    @Test(
        "killed at 25 random moments and restarted on the same files, a world loses nothing and charges nothing twice",
        arguments: [UInt64(0x5eed), 0xfade]
    )
    func killAndResume(seed: UInt64) async {
        // Given a world over a SQLite file with the gateway's truth beside it (in a process of its own: no
        // other test's children run beside it)
        // When it is killed with SIGKILL at 25 random steps, restarted each time, and then run to its end
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [seed] in
            // (A problem is printed, not turned into an exit status: a failed exit test's output is not kept.)
            if let problem = try Self.crash(world: seed, times: 25) { print(problem) }
        }
        // Then the last run held every invariant: every payment final, the ledger equal to the money the gateway
        // moved, no payment charged twice
        let problem = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
        #expect(problem.isEmpty, "\(problem)")
    }
}
