@_spi(Tooling) import Analysis
@_spi(Tooling) import Export
import Foundation
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import RunEngine
@_spi(Tooling) import Generation
import TestSupport

/// `run` must give what `generate` + `analyze` give for the same scenario and seed, whatever the
/// number of tasks.
@Suite("run equals generate + analyze", .budget(minutes: 2))
struct EquivalenceTests {
    static let scenario = ScenarioBuilder(users: 150, days: 5, seed: 77).faulty().build()

    @Test("every SPEC output file and the totals are the same bytes", arguments: [1, 2, 3])
    func sameOutputs(tasks: Int) async throws {
        // Given the scenario generated to files and analyzed
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let simulator = Simulator(scenario: Self.scenario)
        try FileManager.default.createDirectory(atPath: directory.file("data"), withIntermediateDirectories: true)
        _ = try await DatasetExport.run(simulator, selection: simulator.allUsers, options: ExportOptions(directory: directory.file("data"), toolVersion: "test"))
        let analyzed = try await DatasetAnalyzer.run(
            input: directory.file("data"), output: directory.file("analyzed"), options: AnalysisOptions(tasks: 2)
        )

        // When the same scenario runs in memory, in batches of 7 users, writing its outputs
        let sut = ScenarioBuilder(users: 150, days: 5, seed: 77).faulty().plan(batchUsers: 7)
        let result = try await ScenarioRunner.run(sut, options: .test(tasks: tasks, out: directory.file("run")))

        // Then every file is identical, and so are the totals
        for name in SpecOutputSink.fileNames {
            let expected = try #require(contents(directory.file("analyzed/" + name)), "analyze wrote \(name)")
            #expect(contents(directory.file("run/" + name)) == expected, "\(name) differs")
        }
        #expect(result.metrics.analysisTotals == analyzed)
        #expect(result.metrics.invariantViolations == 0)
    }
}
