@_spi(Tooling) @testable import Export
import Foundation
@_spi(Tooling) import HealthCore
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import Generation
import TestSupport

@Suite("SPEC boundary catalogue and the boundary users")
struct SpecBoundaryTests {
    @Test("the catalogue lists every key once, in key order, with a unique id")
    func catalogueOrder() {
        // Given the catalogue, Then entry i is key i and no id repeats
        #expect(SpecBoundary.catalogue.map(\.key) == SpecBoundary.Key.allCases)
        #expect(Set(SpecBoundary.catalogue.map(\.id)).count == SpecBoundary.catalogue.count)
    }

    @Test("docs/boundaries.md prints the catalogue's table (SIMHARNESS_RECORD=1 rewrites it)")
    func documentMatchesCode() throws {
        // Given the document and the table the code renders
        let path = repositoryRoot + "/docs/boundaries.md"
        let begin = "<!-- catalogue:begin -->\n", end = "<!-- catalogue:end -->"
        func table() throws -> (document: String, range: Range<String.Index>) {
            let document = try String(contentsOfFile: path, encoding: .utf8)
            let from = try #require(document.range(of: begin)), to = try #require(document.range(of: end))
            return (document, from.upperBound..<to.lowerBound)
        }
        if ProcessInfo.processInfo.environment["SIMHARNESS_RECORD"] == "1" {
            var (document, range) = try table()
            document.replaceSubrange(range, with: SpecBoundary.markdownTable)
            try document.write(toFile: path, atomically: true, encoding: .utf8)
        }
        // When the document's table is read
        let (document, range) = try table()
        // Then it is the code's
        #expect(String(document[range]) == SpecBoundary.markdownTable)
    }

    @Test("boundaries: is read, and refused outside 0...1 with its line", arguments: [("boundaries: 0.25\n", 0.25), ("users: 3\n", 0)])
    func parse(yaml: String, expected: Double) throws {
        #expect(try ScenarioParser.parse(yaml, file: "x.yaml").boundaries == expected)
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.parse("users: 3\nboundaries: 2\n", file: "x.yaml") }
        #expect(error?.description == "x.yaml:2: 'boundaries' must be in 0.0...1.0, not 2")
    }

    @Test("boundary users are every stride-th user from a seeded phase, cycling through the plans; none without the share")
    func selection() throws {
        // Given a scenario with a share of a tenth (seed 40: phase 0), and the same without it
        var scenario = ScenarioBuilder(users: 200, days: 15, seed: 40).build()
        let plain = Simulator(scenario: scenario)
        scenario.boundaries = 0.1
        let sut = Simulator(scenario: scenario)
        // When users are classified
        let chosen = (0..<200).filter(sut.isBoundaryUser)
        // Then every tenth user is one, none without the share, and their offsets cycle through the plans
        #expect(chosen.count == 20)
        #expect(zip(chosen, chosen.dropFirst()).allSatisfy { $1 - $0 == 10 })
        #expect(!(0..<200).contains(where: plain.isBoundaryUser))
        #expect(chosen.prefix(6).map { sut.user($0).utcOffsetMinutes } == [-720, 0, 840, 345, -721, 841])
        #expect(chosen.prefix(6).map { sut.user($0).isAccepted } == [true, true, true, true, false, false])
    }

    @Test("a boundary user of a two-day scenario has the rows of those two days only; a rejected one has none")
    func shortScenario() {
        // Given boundary users only, over two days
        var scenario = ScenarioBuilder(users: 6, days: 2, seed: 0).build()
        scenario.boundaries = 1
        let sut = Simulator(scenario: scenario)
        // When they are generated
        var batch = SimulationBatch()
        for user in 0..<6 { sut.generate(user: user, into: &batch) }
        // Then every row starts within the two local days (the latest end at offset -720) but plan 2's rows at the end
        // of Int64's range, and the rejected users have none
        let end = LocalDay(index: scenario.startDay + 2).startInstant(utcOffsetMinutes: -720)
        let endOfTime = LocalDay(instant: .max, utcOffsetMinutes: 840).exactStartInstant(utcOffsetMinutes: 840)!
        #expect(batch.payments.allSatisfy { $0.createdAt < end })
        #expect(batch.meals.filter { $0.start >= end }.map { $0.start - endOfTime } == [600, 5400])
        #expect(batch.steps.filter { $0.start >= end }.map { [$0.start - endOfTime, $0.end - endOfTime] } == [[-300, 300]])
        #expect(Set(batch.payments.map(\.user)) == [0, 1, 2, 3])
        #expect(batch.meals(ofUserAt: 4).isEmpty && batch.steps(ofUserAt: 5).isEmpty && batch.payments(ofUserAt: 5).isEmpty)
    }

    @Test("edges writes byte-identical files with one task and with three")
    func edgesFilesDoNotDependOnTasks() async throws {
        // Given the edges scenario, written in several chunks
        let scenario = try ScenarioCatalog.load("edges", currentDirectory: "/nonexistent")
        #expect(DatasetExport.usersPerChunk(scenario) < scenario.users / 2)
        var written: [[String: Data]] = []
        for jobs in [1, 3] {
            // When it is written with that many tasks
            let directory = try ScratchDirectory(prefix: "simulation-tests")
            let simulator = Simulator(scenario: scenario)
            _ = try await DatasetExport.run(simulator, selection: simulator.allUsers, options: ExportOptions(directory: directory.path, toolVersion: "test", format: .csv, jobs: jobs))
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            written.append(Dictionary(uniqueKeysWithValues: try names.map { ($0, try Data(contentsOf: URL(fileURLWithPath: directory.file($0)))) }))
        }
        // Then every file is byte-identical
        #expect(written[0].count == 5)
        #expect(written[0] == written[1])
    }

    @Test("an ordinary user's rows do not depend on the share")
    func ordinaryUsersUnchanged() {
        // Given the same scenario with and without boundary users
        var scenario = ScenarioBuilder(users: 40, days: 3, seed: 9).build()
        let plain = Simulator(scenario: scenario)
        scenario.boundaries = 0.2
        let sut = Simulator(scenario: scenario)
        // When an ordinary user of both is generated
        let ordinary = (0..<40).filter { !sut.isBoundaryUser($0) }
        var a = SimulationBatch(), b = SimulationBatch()
        for user in ordinary {
            plain.generate(user: user, into: &a)
            sut.generate(user: user, into: &b)
        }
        // Then the rows are the same
        #expect(a.users == b.users && a.meals == b.meals && a.steps == b.steps && a.payments == b.payments)
    }
}
