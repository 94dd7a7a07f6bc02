import Foundation
import Testing
import TestSupport

/// `simulate --shard k/n` and `merge` of its summaries: shards of one swarm add up to the unsharded run.
@Suite("simharness simulate --shard and merge", .budget(minutes: 3))
struct SimulateShardCLITests {
    /// A small swarm with a mixed store, so the count of worlds on the simulated disk is added up too.
    static let swarm = ["simulate", "--seeds", "10", "--from", "40", "--payments", "100", "--store", "mixed", "--tasks", "2"]
    /// A swarm whose service has a planted defect: most of its worlds fail.
    static let flawed = ["simulate", "--seeds", "12", "--payments", "200", "--flaw", "refund-twice", "--tasks", "2"]

    /// Runs `arguments` once per shard of `count`, each writing its summary in `directory`; returns the files.
    private func runShards(_ arguments: [String], count: Int, in directory: ScratchDirectory) throws -> [String] {
        try (0..<count).map { index in
            let file = directory.file("shard-\(index).json")
            let shard = try SimHarnessProcess.run(arguments + ["--shard", "\(index)/\(count)", "--json", file])
            try #require(shard.status <= 1, "\(shard.stderr)")
            return file
        }
    }

    /// Runs `arguments` unsharded, writing its summary in `directory`; returns the file.
    private func runWhole(_ arguments: [String], in directory: ScratchDirectory) throws -> String {
        let file = directory.file("whole.json")
        let whole = try SimHarnessProcess.run(arguments + ["--json", file])
        try #require(whole.status <= 1, "\(whole.stderr)")
        return file
    }

    private func object(_ file: String) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: file))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the merged summaries of n shards are, byte for byte, the unsharded run's summary", arguments: [1, 3])
    func mergedEqualsUnsharded(shards: Int) throws {
        // Given a swarm, run whole and as n shards
        let directory = try ScratchDirectory(prefix: "cli-tests")
        let whole = try runWhole(Self.swarm, in: directory)
        let files = try runShards(Self.swarm, count: shards, in: directory)

        // When merge adds the shards up, in reverse order
        let merged = directory.file("merged.json")
        let sut = try SimHarnessProcess.run(["merge"] + files.reversed() + ["--json", merged])

        // Then the sum is the unsharded summary, and so is the text
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(FileManager.default.contents(atPath: merged) == FileManager.default.contents(atPath: whole))
        #expect(sut.stdout.contains("simulate: 10 worlds (seeds 0x28…0x31), store mixed (2 on the simulated disk)\n"), "\(sut.stdout)")
    }

    @Test("shard k of n runs the worlds of index i with i mod n == k, and says which shard it is")
    func oneShard() throws {
        // Given a swarm of 10 seeds from 40
        // When shard 1 of 3 runs
        let sut = try SimHarnessProcess.run(Self.swarm + ["--shard", "1/3"])

        // Then it runs seeds 41, 44 and 47
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.contains("simulate: 3 worlds (seeds 0x29…0x2f), store mixed (0 on the simulated disk), shard 1 of 3\n"), "\(sut.stdout)")
    }

    @Test("a violation in a shard survives the merge: the first in seed order, with its reproduce line, exit 1")
    func violationSurvives() throws {
        // Given a flawed swarm, run whole and as 3 shards
        let directory = try ScratchDirectory(prefix: "cli-tests")
        let whole = try object(try runWhole(Self.flawed, in: directory))
        let files = try runShards(Self.flawed, count: 3, in: directory)

        // When merge adds the shards up
        let merged = directory.file("merged.json")
        let sut = try SimHarnessProcess.run(["merge"] + files + ["--json", merged])

        // Then it exits 1, printing and keeping the violation the unsharded run reports
        #expect(sut.status == 1, "\(sut.stderr)")
        let expected = try #require((whole["violations"] as? [[String: Any]])?.first)
        let found = try #require((try object(merged)["violations"] as? [[String: Any]])?.first)
        #expect(found["seed"] as? String == expected["seed"] as? String)
        #expect(found["reproduce"] as? String == expected["reproduce"] as? String)
        #expect(sut.stdout.contains("  reproduce: \(try #require(expected["reproduce"] as? String))\n"), "\(sut.stdout)")
    }

    @Test("--shard env/n takes k from the variable a CI matrix or a Kubernetes Indexed Job sets", arguments: ["SIMHARNESS_SHARD_INDEX", "JOB_COMPLETION_INDEX"])
    func shardFromEnvironment(variable: String) throws {
        // Given the index 2 in the environment
        // When shard env/3 runs
        let sut = try SimHarnessProcess.run(Self.swarm + ["--shard", "env/3"], extraEnvironment: [variable: "2"])

        // Then it is shard 2 of 3
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.contains("seeds 0x2a…0x30), store mixed (1 on the simulated disk), shard 2 of 3\n"), "\(sut.stdout)")
    }

    @Test("a bad --shard exits 2 and says what is wrong", arguments: [
        (["--shard", "3/3"], [:], "must be k/n with 0 <= k < n, or env/n, not '3/3'"),
        (["--shard", "0/0"], [:], "must be k/n with 0 <= k < n, or env/n, not '0/0'"),
        (["--shard", "1"], [:], "must be k/n with 0 <= k < n, or env/n, not '1'"),
        (["--shard", "x/2"], [:], "must be k/n with 0 <= k < n, or env/n, not 'x/2'"),
        (["--shard", "env/2"], ["JOB_COMPLETION_INDEX": "2"], "env/2: JOB_COMPLETION_INDEX must be an integer in 0...1, not '2'"),
        (["--shard", "env/2"], ["SIMHARNESS_SHARD_INDEX": "x"], "env/2: SIMHARNESS_SHARD_INDEX must be an integer in 0...1, not 'x'"),
    ] as [([String], [String: String], String)])
    func badShard(arguments: [String], environment: [String: String], message: String) throws {
        // Given a bad shard
        // When simulate runs
        let sut = try SimHarnessProcess.run(["simulate", "--seeds", "4"] + arguments, extraEnvironment: environment)
        // Then it exits 2 with the reason
        #expect(sut.status == 2)
        #expect(sut.stderr.contains(message), "\(sut.stderr)")
    }

    @Test("--shard with one --seed exits 2: it splits the worlds of --seeds")
    func shardOfOneSeed() throws {
        // Given --seed and --shard
        // When simulate runs
        let sut = try SimHarnessProcess.run(["simulate", "--seed", "4", "--shard", "0/2"])
        // Then it exits 2
        #expect(sut.status == 2)
        #expect(sut.stderr.contains("--shard splits the worlds of --seeds N: give --seeds"), "\(sut.stderr)")
    }

    @Test("merge refuses shards of other swarms, a shard twice, a whole run among shards, and a run result among summaries")
    func mismatchedSummaries() throws {
        // Given shards of two swarms, a whole run and a run's result
        let directory = try ScratchDirectory(prefix: "cli-tests")
        let files = try runShards(Self.swarm, count: 2, in: directory)
        let other = directory.file("other.json")
        #expect(try SimHarnessProcess.run(Self.swarm + ["--payments", "90", "--shard", "1/2", "--json", other]).status == 0)
        let whole = try runWhole(Self.swarm, in: directory)
        let result = directory.file("run.json")
        try #"{"scenario": "smoke", "version": 1}"#.write(toFile: result, atomically: true, encoding: .utf8)

        // When merge is given each wrong mix
        let mixes: [([String], String)] = [
            ([files[0], other], "other.json is of another swarm"),
            ([files[0], files[0]], "shard 0 of 2 appears twice"),
            ([whole, files[1]], "whole.json covers its whole swarm (no --shard)"),
            ([files[0], result], "run.json is not a simulate summary"),
        ]
        for (inputs, message) in mixes {
            let sut = try SimHarnessProcess.run(["merge"] + inputs)
            // Then it exits 2 and says why
            #expect(sut.status == 2, "\(inputs)")
            #expect(sut.stderr.contains(message), "\(sut.stderr)")
        }
    }
}
