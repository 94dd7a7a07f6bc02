@_spi(Tooling) @testable import Export
import Foundation
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import Generation
import TestSupport

@Suite("An export replaces a dataset of another format in its directory")
struct ExportReplacementTests {
    private func export(into directory: String, format: ExportOptions.Format, gzip: Bool) async throws {
        let simulator = Simulator(scenario: ScenarioBuilder(users: 20, days: 2).build())
        _ = try await DatasetExport.run(simulator, selection: simulator.allUsers,
                                        options: ExportOptions(directory: directory, toolVersion: "test", format: format, gzip: gzip))
    }

    @Test("CSV, then gzip NDJSON, then SQLite: each leaves only its own files, the manifest and other files")
    func replaces() async throws {
        // Given a directory holding a note and a CSV dataset
        let directory = try ScratchDirectory(prefix: "simulation-tests")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: directory.file("notes.txt")))
        try await export(into: directory.path, format: .csv, gzip: false)
        // When a gzip NDJSON dataset, then a SQLite one, are written into it
        try await export(into: directory.path, format: .ndjson, gzip: true)
        let afterNDJSON = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        try await export(into: directory.path, format: .sqlite, gzip: false)
        let afterSQLite = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        // Then each time only the newest dataset, the manifest and the note are there
        #expect(afterNDJSON == ["manifest.json", "meals.ndjson.gz", "notes.txt", "payments.ndjson.gz", "steps.ndjson.gz", "users.ndjson.gz"])
        #expect(afterSQLite == ["dataset.sqlite", "manifest.json", "notes.txt"])
    }
}
