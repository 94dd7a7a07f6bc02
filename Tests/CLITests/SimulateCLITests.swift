import Foundation
import PaymentsCore
import Testing
import TestSupport

@Suite("simharness simulate from the command line", .timeLimit(.minutes(3)))
struct SimulateCLITests {
    @Test("a swarm with no violation exits 0 and sums up its worlds")
    func quietSwarm() throws {
        // Given a small swarm
        // When it runs
        let sut = try SimHarnessProcess.run(["simulate", "--seeds", "6", "--from", "40", "--payments", "120", "--jobs", "2"])
        // Then it exits 0 with a summary
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.contains("simulate: 6 worlds (seeds 0x28…0x2d), store memory"))
        #expect(sut.stdout.contains("violations: 0"))
    }

    @Test("a violation exits 1 with the line that reproduces it and a shrunk one; both fail the same way")
    func reproduction() throws {
        // Given a service with a planted defect
        // When a swarm runs it with shrinking
        let sut = try SimHarnessProcess.run(["simulate", "--seeds", "10", "--payments", "200", "--flaw", "refund-twice", "--shrink"])
        // Then it exits 1, naming the invariant, the repro line and a shrunk line
        #expect(sut.status == 1)
        #expect(sut.stdout.contains("VIOLATION of settled-twice"))
        let lines = sut.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let repro = try #require(lines.first { $0.hasPrefix("reproduce: ") }).dropFirst("reproduce: ".count)
        let shrunk = try #require(lines.first { $0.hasPrefix("shrunk: ") }).dropFirst("shrunk: ".count).trimmingCharacters(in: .whitespaces)
        for line in [String(repro), shrunk] {
            let arguments = line.split(separator: " ").map(String.init)
            #expect(arguments.first == "simharness")
            let again = try SimHarnessProcess.run(Array(arguments.dropFirst()))
            #expect(again.status == 1)
            #expect(again.stdout.contains("VIOLATION of settled-twice"))
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
        (["--seeds", "0"], "--seeds must be an integer in 1..."),
        (["--seed", "x1"], "--seed must be an unsigned 64-bit integer"),
        (["--payments", "0"], "--payments must be an integer in 1..."),
        (["--faults", "bogus=1"], "unknown fault 'bogus'"),
        (["--faults", "crash=0.5"], "may be at most 0.1"),
        (["--seed", "1", "--seeds", "2"], "give --seed or --seeds, not both"),
        (["--seed", "1", "--from", "2"], "--from goes with --seeds"),
        (["--resume"], "--resume needs --db FILE"),
        (["--seed", "1", "--db", "x.sqlite"], "--db needs --store sqlite"),
        (["--seeds", "2", "--store", "sqlite", "--db", "x.sqlite"], "--db keeps one world: give --seed"),
        (["--store", "disk"], "--store must be memory or sqlite"),
        (["--time-limit", "soon"], "--time-limit must be a positive duration"),
        (["--jobs", "0"], "--jobs must be an integer"),
        (["--flaw", "nope"], "unknown flaw 'nope'"),
        (["--seed", "1", "--store", "sqlite", "--db", "/nonexistent/x.sqlite", "--resume"], "does not exist"),
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

@Suite("The SQLite payment service survives SIGKILL", .timeLimit(.minutes(5)))
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
        var seen = 0, buffer = Data()
        while seen < lines {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // end of output: the process finished
            buffer.append(chunk)
            seen = buffer.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: Data("step ".utf8)) }.count
        }
        let killed = seen >= lines
        if killed { kill(process.processIdentifier, SIGKILL) }
        _ = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (killed, process.terminationStatus)
    }

    @Test("killed at 50 random moments and restarted on the same files, it loses nothing and charges nothing twice")
    func killAndResume() throws {
        // Given a world over a SQLite file with the gateway's truth beside it
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("payments.sqlite").path
        let world = ["simulate", "--seed", "0x5eed", "--payments", "200", "--clients", "6", "--faults", "timeout=0.2,lost=0.2,decline=0.1,late=0.1",
                     "--store", "sqlite", "--db", database, "--progress-steps", "25"]
        var random = SplitMix64(seed: 0x5eed)
        var kills = 0, runs = 0
        // When it is killed with SIGKILL at random steps, and restarted each time
        while kills < 50 {
            let resume = FileManager.default.fileExists(atPath: database) ? ["--resume"] : []
            let outcome = try Self.runAndKill(world + resume, afterLines: 1 + Int(random.next() % 200))
            runs += 1
            if outcome.killed {
                kills += 1
            } else {
                #expect(outcome.status == 0, "a run that was not killed broke an invariant")
            }
            try #require(runs < 400, "the world ends before it can be killed 50 times")
        }
        // Then a last run, resumed on the same files, ends with every invariant held: every payment final, the ledger equal
        // to the money the gateway moved, no payment charged twice
        let last = try SimHarnessProcess.run(world + ["--resume"])
        #expect(last.status == 0, "\(last.stdout)")
        #expect(last.stdout.contains("violations: 0"))
        #expect(kills == 50)
    }
}
