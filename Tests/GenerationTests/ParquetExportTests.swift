import Datasets
@_spi(Tooling) @testable import Export
import Foundation
import GRDB
import Parquet
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import Generation
import TestSupport

@Suite("generate --format parquet", .budget(minutes: 2))
struct ParquetExportTests {
    private func export(_ scenario: Scenario, _ selection: UserSelection? = nil, format: ExportOptions.Format, jobs: Int = 2,
                        rowGroupRows: Int = ParquetExport.rowGroupRows, into directory: ScratchDirectory? = nil) async throws -> (ScratchDirectory, Manifest) {
        let directory = try directory ?? ScratchDirectory(prefix: "simulation-tests")
        let simulator = Simulator(scenario: scenario)
        var options = ExportOptions(directory: directory.path, toolVersion: "test", format: format, jobs: jobs)
        options.rowGroupRows = rowGroupRows
        let manifest = try await DatasetExport.run(simulator, selection: selection ?? simulator.allUsers, options: options)
        return (directory, manifest)
    }

    private static func shipped(_ name: String) throws -> Scenario {
        var scenario = try ScenarioCatalog.load(name)
        scenario.users = 90
        scenario.days = 3
        return scenario
    }

    /// The CSV text a Parquet table reads back as (`analyze`'s view of it).
    private func text(_ kind: DatasetKind, at path: String) throws -> String {
        let sut = try ParquetTableText(DatasetFile(kind: kind, path: path, format: .parquet, gzip: false))
        let buffer = ByteBuffer(capacity: 1 << 16)
        for unit in 0..<sut.unitCount { try sut.appendText(ofUnit: unit, to: buffer) }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test("typed rows and rejected_rows read back as exactly the CSV file of the same seed, for every shipped scenario",
          arguments: ScenarioCatalog.names)
    func readsBackAsCSV(name: String) async throws {
        // Given a shipped scenario written as CSV and as Parquet (row groups of ~500 rows)
        let scenario = try Self.shipped(name)
        let (csv, _) = try await export(scenario, format: .csv)
        let (parquet, manifest) = try await export(scenario, format: .parquet, rowGroupRows: 500)
        for kind in DatasetKind.allCases {
            // When each table is read back as text
            let actual = try text(kind, at: parquet.file(kind.rawValue + ".parquet"))
            // Then it is the CSV file, byte for byte, and the manifest's counts add up
            #expect(actual == (try String(contentsOfFile: csv.file(kind.rawValue + ".csv"), encoding: .utf8)), "\(name): \(kind)")
            let summary = try #require(manifest.parquet)
            #expect(summary.typedRows[kind]! + summary.rejectedRows[kind]! == manifest.files[kind]!.rows)
            #expect(try ParquetFileReader(path: parquet.file(kind.rawValue + ".parquet")).rowCount == summary.typedRows[kind]!)
        }
    }

    @Test("the faults that break SPEC's grammar go to rejected_rows, the rows that break other rules stay typed")
    func rejectedRowsAreTheMalformedOnes() async throws {
        // Given a scenario with every fault
        let scenario = ScenarioBuilder(users: 300, days: 4).with { $0.faults.defaultRate = 0.02 }.build()
        // When it is written as Parquet
        let (_, manifest) = try await export(scenario, format: .parquet)
        // Then rejected_rows holds some rows of each file, at most the malformed ones (and the non-integer amounts)
        let summary = try #require(manifest.parquet)
        #expect(summary.rejectedRows[.meals]! > 0 && summary.rejectedRows[.meals]! <= manifest.faults.meals[.malformed]!)
        #expect(summary.rejectedRows[.steps]! > 0 && summary.rejectedRows[.steps]! <= manifest.faults.steps[.malformed]!)
        #expect(summary.rejectedRows[.payments]! > 0)
        #expect(summary.rejectedRows[.payments]! <= manifest.faults.payments[.malformed]! + manifest.faults.payments[.invalidAmount]!)
        #expect(summary.typedRows[.meals]! > manifest.files[.meals]!.rows - manifest.faults.meals[.malformed]! - 1)
    }

    @Test("the same seed gives byte-identical Parquet files with one task and with two, row groups cut in the same places")
    func jobsDoNotChangeBytes() async throws {
        // Given a scenario cut into several chunks, with faults, and small row groups
        let scenario = ScenarioBuilder(users: 1500, days: 10).with { $0.faults.defaultRate = 0.01 }.build()
        // When it is written with one task and with two
        let (one, _) = try await export(scenario, format: .parquet, jobs: 1, rowGroupRows: 2_000)
        let (two, _) = try await export(scenario, format: .parquet, jobs: 2, rowGroupRows: 2_000)
        // Then every file is byte-identical, and the tables have several row groups
        let names = try FileManager.default.contentsOfDirectory(atPath: one.path).sorted()
        #expect(names == ["manifest.json", "meals.parquet", "payments.parquet", "rejected_rows.parquet", "steps.parquet", "users.parquet"])
        for name in names { #expect(FileManager.default.contents(atPath: one.file(name)) == FileManager.default.contents(atPath: two.file(name)), "\(name)") }
        #expect(try ParquetFileReader(path: one.file("steps.parquet")).rowGroupCount > 2)
    }

    @Test("shards go to a Hive layout in one directory, each with its manifest, and read back as their CSV files")
    func shardsInOneDirectory() async throws {
        // Given a scenario written as 3 Parquet shards into one directory, and as 3 CSV shards
        let scenario = ScenarioBuilder(users: 200, days: 3).with { $0.faults.defaultRate = 0.02 }.build()
        let directory = try ScratchDirectory(prefix: "simulation-tests")
        var csv: [ScratchDirectory] = []
        for k in 0..<3 {
            let selection = UserSelection(users: 0..<200, shard: k, shardCount: 3)
            _ = try await export(scenario, selection, format: .parquet, jobs: 2 - k % 2, into: directory)
            csv.append(try await export(scenario, selection, format: .csv).0)
        }
        // When the directory is listed and each table read back
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        // Then it holds one directory per table and one manifest per shard
        #expect(names == ["manifest-shard-0.json", "manifest-shard-1.json", "manifest-shard-2.json", "meals", "payments", "rejected_rows", "steps", "users"])
        // And the table directory reads as the shards' CSV files one after another (one header)
        for kind in DatasetKind.allCases {
            let whole = try text(kind, at: directory.file(kind.rawValue))
            let expected = try (0..<3).map { k in
                let lines = try String(contentsOfFile: csv[k].file(kind.rawValue + ".csv"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                return (k == 0 ? lines[...] : lines.dropFirst()).dropLast().joined(separator: "\n") + "\n"
            }.joined()
            #expect(whole == expected, "\(kind)")
        }
    }

    @Test("a CSV export into a Parquet directory removes every table and shard; an unsharded Parquet export removes the shards")
    func replacesParquet() async throws {
        // Given a directory holding two Parquet shards
        let scenario = ScenarioBuilder(users: 20, days: 2).build()
        let directory = try ScratchDirectory(prefix: "simulation-tests")
        for k in 0..<2 { _ = try await export(scenario, UserSelection(users: 0..<20, shard: k, shardCount: 2), format: .parquet, into: directory) }
        // When an unsharded Parquet export, then a CSV one, are written into it
        _ = try await export(scenario, format: .parquet, into: directory)
        let afterParquet = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        _ = try await export(scenario, format: .csv, into: directory)
        let afterCSV = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        // Then each time only the newest dataset and its manifest are there
        #expect(afterParquet == ["manifest.json", "meals.parquet", "payments.parquet", "rejected_rows.parquet", "steps.parquet", "users.parquet"])
        #expect(afterCSV == ["manifest.json", "meals.csv", "payments.csv", "steps.csv", "users.csv"])
    }

    @Test("the typed SQLite views hold as many rows as the Parquet tables of the same seed", arguments: ["faults", "smoke"])
    func sqliteViewsMatchParquet(name: String) async throws {
        // Given a shipped scenario written as SQLite and as Parquet
        let scenario = try Self.shipped(name)
        let (sqlite, _) = try await export(scenario, format: .sqlite)
        let (_, manifest) = try await export(scenario, format: .parquet)
        // When the typed views are counted
        let db = try DatabaseQueue(path: sqlite.file(ExportOptions.sqliteFileName))
        for kind in DatasetKind.allCases {
            let count = try await db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(SQLiteTypedViews.name(kind))") }
            // Then each equals the rows the Parquet table typed
            #expect(count == manifest.parquet?.typedRows[kind], "\(name): \(kind)")
        }
        let kcal = try await db.read { try String.fetchOne($0, sql: "SELECT typeof(kcal) || ',' || typeof(start) FROM meals_typed LIMIT 1") }
        #expect(kcal == "real,integer")
    }
}
