@_spi(Tooling) @testable import Export
import Foundation
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import Generation
import TestSupport

@Suite("Determinism", .budget(minutes: 2))
struct DeterminismTests {
    private let files = ["users.csv", "meals.csv", "steps.csv", "payments.csv", "manifest.json"]

    private func export(_ scenario: Scenario, _ selection: UserSelection? = nil, format: ExportOptions.Format = .csv,
                        gzip: Bool = false, jobs: Int) async throws -> ScratchDirectory {
        let directory = try ScratchDirectory(prefix: "simulation-tests")
        let simulator = Simulator(scenario: scenario)
        _ = try await DatasetExport.run(simulator, selection: selection ?? simulator.allUsers,
                                        options: ExportOptions(directory: directory.path, toolVersion: "test", format: format, gzip: gzip, jobs: jobs))
        return directory
    }

    @Test("the same seed gives byte-identical files with one task and with two",
          arguments: [(ExportOptions.Format.csv, false), (.ndjson, false), (.csv, true), (.ndjson, true), (.sqlite, false)])
    func jobsDoNotChangeBytes(format: ExportOptions.Format, gzip: Bool) async throws {
        // Given a scenario cut into several chunks, with faults
        let scenario = ScenarioBuilder(users: 1500, days: 10).with { $0.faults.defaultRate = 0.01 }.build()
        #expect(DatasetExport.usersPerChunk(scenario) < 500)
        // When it is written with --jobs 1 and --jobs 2
        let one = try await export(scenario, format: format, gzip: gzip, jobs: 1)
        let two = try await export(scenario, format: format, gzip: gzip, jobs: 2)
        // Then every file is byte-identical
        let names = try FileManager.default.contentsOfDirectory(atPath: one.path).sorted()
        #expect(names.count == (format == .sqlite ? 2 : 5))
        for name in names { #expect(read(one.file(name)) == read(two.file(name)), "\(name) differs") }
    }

    @Test("shards 0/2 and 1/2 together hold exactly the rows of the unsharded run")
    func shardsPartitionTheRows() async throws {
        // Given a scenario with faults (duplicates included)
        let scenario = ScenarioBuilder(users: 301, days: 3).with { $0.faults.defaultRate = 0.02 }.build()
        let all = UserSelection(users: 0..<301)
        // When it is written whole and as two shards
        let whole = try await export(scenario, all, jobs: 2)
        let shard0 = try await export(scenario, UserSelection(users: 0..<301, shard: 0, shardCount: 2), jobs: 2)
        let shard1 = try await export(scenario, UserSelection(users: 0..<301, shard: 1, shardCount: 2), jobs: 1)
        // Then for every file the shards' rows, sorted, are the whole run's rows, sorted
        for name in files.dropLast() {
            let expected = lines(whole.file(name)).dropFirst().sorted()
            let actual = (lines(shard0.file(name)).dropFirst() + lines(shard1.file(name)).dropFirst()).sorted()
            #expect(actual == expected, "\(name)")
            #expect(lines(shard0.file(name)).count > 1)
        }
    }

    @Test("a user's rows depend only on the seed, the scenario and the user's index")
    func perUserDeterminism() {
        // Given the same scenario with 10 and with 25 users
        let small = Simulator(scenario: ScenarioBuilder(users: 10).build())
        let large = Simulator(scenario: ScenarioBuilder(users: 25).build())
        // When user 7 is generated alone, in a batch of the first 10 and in a shard of the 25
        var alone = SimulationBatch()
        small.generate(user: 7, into: &alone)
        let batches = Array(small.batches(small.allUsers, usersPerBatch: 3))
        var sharded = SimulationBatch()
        large.fill(&sharded, with: UserSelection(users: 0..<25, shard: 1, shardCount: 3))
        // Then its rows are the same everywhere
        let inBatch = batches[2]
        let i = try! #require(inBatch.users.firstIndex { $0.index == 7 })
        let j = try! #require(sharded.users.firstIndex { $0.index == 7 })
        #expect(batches.map(\.users.count) == [3, 3, 3, 1])
        #expect(Array(inBatch.meals(ofUserAt: i)) == alone.meals)
        #expect(Array(sharded.steps(ofUserAt: j)) == alone.steps)
        #expect(Array(sharded.payments(ofUserAt: j)) == alone.payments)
        #expect(alone.meals.count > 0 && alone.steps.count > 0)
    }

    @Test("another seed gives other rows")
    func seedMatters() {
        // Given one scenario and two seeds
        let scenario = ScenarioBuilder(users: 5).build()
        // When user 0 is generated under each
        var a = SimulationBatch()
        var b = SimulationBatch()
        Simulator(scenario: scenario, seed: 1).generate(user: 0, into: &a)
        Simulator(scenario: scenario, seed: 2).generate(user: 0, into: &b)
        // Then the rows differ
        #expect(a.steps != b.steps)
    }

    @Test("setting every fault rate to zero leaves the clean rows as they were")
    func faultsAreIndependentStreams() {
        // Given a scenario with faults and the same without
        let faulty = Simulator(scenario: ScenarioBuilder(users: 30).with { $0.faults.defaultRate = 0.01 }.build())
        let clean = Simulator(scenario: ScenarioBuilder(users: 30).clean().build())
        // When both generate the same users
        var a = SimulationBatch()
        var b = SimulationBatch()
        faulty.fill(&a, with: faulty.allUsers)
        clean.fill(&b, with: clean.allUsers)
        // Then the clean run has no faults, and the faulty run's untouched meals are the clean run's
        #expect(b.meals.allSatisfy { $0.fault == nil && !$0.late })
        let untouched = Set(a.meals.filter { $0.fault == nil && !$0.late }.map(\.idKey))
        #expect(untouched.count > b.meals.count * 8 / 10)
        #expect(b.meals.filter { untouched.contains($0.idKey) }.allSatisfy { row in a.meals.contains(row) })
    }
}

@Suite("Golden rows")
struct GoldenTests {
    @Test("the first rows of each file for seed 42 are the committed ones (SIMHARNESS_RECORD=1 re-records)",
          arguments: [ExportOptions.Format.csv, .ndjson])
    func firstRows(format: ExportOptions.Format) async throws {
        // Given the smoke scenario cut to 12 users over 2 days, with visible fault rates
        var scenario = try ScenarioCatalog.load("smoke", currentDirectory: repositoryRoot)
        scenario.users = 12
        scenario.days = 2
        scenario.faults.defaultRate = 0.02
        let directory = try ScratchDirectory(prefix: "simulation-tests")
        // When it is written
        _ = try await DatasetExport.run(Simulator(scenario: scenario), selection: UserSelection(users: 0..<12),
                                        options: ExportOptions(directory: directory.path, toolVersion: "test", format: format, jobs: 2))
        // Then the first 12 lines of every file are the committed ones
        for file in GeneratedFile.allCases {
            let name = "\(file.rawValue).\(format.rawValue)"
            let head = lines(directory.file(name)).prefix(12).joined(separator: "\n") + "\n"
            #expect(head == golden(name, head), "\(name)")
        }
    }
}
