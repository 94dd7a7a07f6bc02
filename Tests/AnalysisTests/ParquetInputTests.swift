@_spi(Tooling) import Analysis
import Datasets
import Foundation
import Parquet
import Testing
import TestSupport

@Suite("analyze reads Parquet tables, and refuses one that is not a dataset table")
struct ParquetInputTests {
    /// Writes `users.parquet` with `schema`, one row group of the given rows of CSV text typed by `types`.
    private func writeUsers(_ directory: ScratchDirectory, schema: ParquetSchema, rows: [[String]]) throws {
        var writer = try ParquetFileWriter(path: directory.file("users.parquet"), schema: schema)
        var columns = schema.columns.map { ParquetColumnValues(type: $0.type, nullable: $0.nullable) }
        for row in rows {
            for (c, field) in row.enumerated() {
                switch schema.columns[c].type {
                case .string: Array(field.utf8).withUnsafeBufferPointer { columns[c].append(utf8: $0) }
                case .int64, .timestampMicros: columns[c].append(Int64(field)!)
                case .double: columns[c].append(Double(field)!)
                }
            }
        }
        try writer.append(EncodedRowGroup(schema: schema, columns: columns, compression: .none))
        _ = try writer.finish()
    }

    private func refusal(_ directory: ScratchDirectory) async throws -> InputRefusal? {
        let out = try ScratchDirectory(prefix: "analysis-tests")
        do {
            _ = try await DatasetAnalyzer.run(input: directory.path, output: out.path, options: AnalysisOptions(tasks: 2))
            return nil
        } catch let error as InputRefusal {
            return error
        }
    }

    static let userRow = ["u0000001", "60", "16:8", "female", "30", "61.5", "170", "light"]

    @Test("a table of ours is read as its CSV text: a row of it is accepted")
    func ours() async throws {
        // Given users.parquet with the schema generate writes
        let input = try ScratchDirectory(prefix: "analysis-tests")
        try writeUsers(input, schema: DatasetKind.users.parquetSchema, rows: [Self.userRow])
        // When it is analyzed
        let out = try await analyze(input)
        // Then its user is accepted
        #expect(try out.read("totals.json") == "{\n  \"users\": {\"read\": 1, \"accepted\": 1, \"rejected\": {}}\n}\n")
    }

    @Test("a missing column, or a column of another type, refuses the file naming it and the column",
          arguments: [("age", nil, "missing required column 'age'"), ("age", ParquetType.double, "column 'age' is double, expected int64")])
    func notOurs(column: String, type: ParquetType?, reason: String) async throws {
        // Given users.parquet whose `age` column is missing, or a DOUBLE
        let input = try ScratchDirectory(prefix: "analysis-tests")
        var columns = DatasetKind.users.parquetSchema.columns
        var row = Self.userRow
        let index = DatasetKind.users.columns.firstIndex(of: column)!
        if let type {
            columns[index] = ParquetColumnSchema(name: column, type: type)
        } else {
            columns.remove(at: index)
            row.remove(at: index)
        }
        try writeUsers(input, schema: ParquetSchema(columns: columns), rows: [row])
        // When it is analyzed
        let sut = try await refusal(input)
        // Then the file is refused, naming the file and the column
        #expect(sut == InputRefusal(file: "users.parquet", reason: reason))
    }

    @Test("a file that is not Parquet is refused naming it")
    func notParquet() async throws {
        // Given users.parquet holding CSV text
        let input = try ScratchDirectory(prefix: "analysis-tests")
        try input.write("users.parquet", "user_id\nu1\n")
        // When it is analyzed
        let sut = try await refusal(input)
        // Then it is refused as unreadable Parquet
        #expect(sut?.file == "users.parquet")
        #expect(sut?.reason.hasPrefix("unreadable Parquet file") == true, "\(String(describing: sut))")
    }
}
