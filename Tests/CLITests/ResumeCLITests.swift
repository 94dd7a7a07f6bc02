import Foundation
import Testing
import TestSupport

/// `simulate --db FILE --resume` cannot lie: it refuses another world's store, and after a kill its
/// reproduce line replays the whole history.
@Suite("simharness simulate --resume", .budget(minutes: 3))
struct ResumeCLITests {
    static let world = ["simulate", "--seed", "1", "--payments", "120", "--clients", "6", "--faults", "timeout=0.2,lost=0.3", "--store", "sqlite"]

    /// A store of `world` run to its end in `directory`; returns its path.
    static func store(in directory: ScratchDirectory) throws -> String {
        let database = directory.file("payments.sqlite")
        let first = try SimHarnessProcess.run(world + ["--db", database])
        try #require(first.status == 0, "\(first.stderr)")
        return database
    }

    @Test("resuming with another value of the world exits 2, naming the field, the recorded value and the given one", arguments: [
        (["--seed", "2"], "seed: the database records 0x1, this run gives 0x2"),
        (["--payments", "100"], "payments: the database records 120, this run gives 100"),
        (["--payments", "4000"], "payments: the database records 120, this run gives 4000"),
        (["--clients", "7"], "clients: the database records 6, this run gives 7"),
        (["--faults", "timeout=0.2"], "faults: the database records lost=0.3,timeout=0.2, this run gives timeout=0.2"),
        (["--flaw", "refund-twice"], "flaws: the database records none, this run gives refund-twice"),
    ])
    func mismatch(change: [String], message: String) throws {
        // Given a store written by one world
        let directory = try ScratchDirectory(prefix: "cli-tests")
        let database = try Self.store(in: directory)
        // When it is resumed with one value of the world changed (a later option wins)
        let sut = try SimHarnessProcess.run(Self.world + change + ["--db", database, "--resume"])
        // Then it exits 2 before running, naming the field and both values
        #expect(sut.status == 2)
        #expect(sut.stderr.contains("holds another world: \(message)"), "\(sut.stderr)")
        #expect(sut.stdout.isEmpty)
    }

    @Test("the same world resumes, and its store records the run's history")
    func sameWorld() throws {
        // Given a store written by one world
        let directory = try ScratchDirectory(prefix: "cli-tests")
        let database = try Self.store(in: directory)
        // When the same world resumes it
        let sut = try SimHarnessProcess.run(Self.world + ["--db", database, "--resume"])
        // Then it runs and holds every invariant
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.contains("violations: 0"))
    }

    @Test("a store whose truth file is gone is refused with exit 2")
    func missingTruth() throws {
        // Given a store whose truth file is gone
        let directory = try ScratchDirectory(prefix: "cli-tests")
        let database = try Self.store(in: directory)
        try FileManager.default.removeItem(atPath: database + ".gateway")
        // When it is resumed
        let sut = try SimHarnessProcess.run(Self.world + ["--db", database, "--resume"])
        // Then it is refused
        #expect(sut.status == 2)
        #expect(sut.stderr.contains("payments.sqlite.gateway does not exist"), "\(sut.stderr)")
    }

    @Test("killed twice and resumed to its end, a world prints its history, and the replay runs the same last run")
    func historyOfTwoKills() async {
        // Given a world killed twice with SIGKILL, resumed each time, then run to its end (in a process of its own)
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let directory = try ScratchDirectory(prefix: "cli-tests")
            let world = Self.world + ["--db", directory.file("payments.sqlite")]
            let first = try ProcessKillTests.runAndKill(world + ["--progress-steps", "25"], afterLines: 4)
            let second = try ProcessKillTests.runAndKill(world + ["--resume", "--progress-steps", "25"], afterLines: 8)
            let last = try SimHarnessProcess.run(world + ["--resume"])
            // When the replay line of its summary is run as printed
            let line = last.stdout.split(separator: "\n").first { $0.hasPrefix("  history: ") }.map(String.init) ?? ""
            let replay = line.components(separatedBy: "replay: simharness ").last ?? ""
            let again = try SimHarnessProcess.run(replay.split(separator: " ").map(String.init))
            // (What is compared is printed: a failed exit test's output is not kept.)
            let summary = { (stdout: String) in stdout.split(separator: "\n").filter { $0.hasPrefix("  steps") || $0.hasPrefix("  faults") || $0.hasPrefix("  payments") } }
            print("killed \(first.killed) \(second.killed); statuses \(last.status) \(again.status); \(line)")
            print("last: \(summary(last.stdout))")
            print("replay: \(summary(again.stdout))")
        }
        // Then both kills are in the history, and the replay's last run is the resumed run, step for step
        let lines = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.first?.range(of: #"^killed true true; statuses 0 0;   history: runs killed after steps \d+, \d+; replay: "#, options: .regularExpression) != nil, "\(lines)")
        #expect(lines.count == 3 && lines[1].contains("steps") && lines[1].dropFirst("last: ".count) == lines[2].dropFirst("replay: ".count), "\(lines)")
    }

    @Test("after a kill and a resume that finds a planted bug, the printed line replays the whole history to the same violation")
    func reproduceAfterResume() async {
        // Given a world whose service forgets to ask the gateway after a restart (a bug only a crash or a kill shows),
        // killed partway with SIGKILL and resumed (in a process of its own: no other test's children run beside it)
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let directory = try ScratchDirectory(prefix: "cli-tests")
            let world = ["simulate", "--seed", "1", "--payments", "200", "--clients", "6", "--faults", "timeout=0.2,lost=0.4",
                         "--flaw", "no-reconcile-on-restart", "--store", "sqlite", "--db", directory.file("payments.sqlite")]
            let killed = try ProcessKillTests.runAndKill(world + ["--progress-steps", "25"], afterLines: 6)
            let resumed = try SimHarnessProcess.run(world + ["--resume"])
            // When the reproduce line the resumed run printed is run as printed
            let line = resumed.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("reproduce: ") }?.dropFirst("reproduce: simharness ".count) ?? ""
            let again = try SimHarnessProcess.run(line.split(separator: " ").map(String.init))
            // (What is compared is printed: a failed exit test's output is not kept.)
            let found = { (stdout: String) in stdout.split(separator: "\n").filter { $0.hasPrefix("VIOLATION") || $0.hasPrefix("  at step") } }
            print("killed \(killed.killed); resumed \(resumed.status); replayed \(again.status); line: \(line)")
            print("resumed: \(found(resumed.stdout))")
            print("replayed: \(found(again.stdout))")
        }
        // Then the resumed run found the bug, its line names the kill, and the replay finds the same violation at the same step
        let lines = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.first?.hasPrefix("killed true; resumed 1; replayed 1; line: simulate --seed 0x1 --payments 200") == true, "\(lines)")
        #expect(lines.first?.contains("--flaw no-reconcile-on-restart --kills ") == true, "\(lines)")
        #expect(lines.count == 3 && lines[1].contains("VIOLATION of money-without-booking"), "\(lines)")
        #expect(lines.count == 3 && lines[1].dropFirst("resumed: ".count) == lines[2].dropFirst("replayed: ".count), "\(lines)")
    }
}
