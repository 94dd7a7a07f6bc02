import Foundation
import Testing
@testable import Parquet

/// Files written by pyarrow (scripts/parquet-fixtures.py): every page kind, encoding and codec the reader
/// claims, each read to the exact values of the script's formulas.
@Suite("Reading files written by pyarrow")
struct ReaderInteropTests {
    static let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
    static let rows = 40

    static func i(_ n: Int) -> Cell? {
        if n == 0 { return .int(.min) }
        if n == 1 { return .int(.max) }
        return n % 5 == 3 ? nil : .int(Int64(n * n - 200) * 1_000_000_007)
    }

    static func ts(_ n: Int) -> Cell? { .int(1_700_000_000_000_000 + Int64(n) * 1_000_001) }

    static func d(_ n: Int) -> Cell? {
        if n % 7 == 2 { return nil }
        let value: Double = n % 9 == 4 ? .nan : n == 6 ? -0.0 : Double(n) * 0.25 - 3
        return .double(value.bitPattern)
    }

    static func s(_ n: Int) -> Cell? {
        if n % 6 == 5 { return nil }
        return .string(n % 4 == 0 ? "" : "s\(n % 3)-é")
    }

    static func r(_ n: Int) -> Cell? { .int(Int64(n) * 3) }

    /// The script's columns, row by row.
    static let expected: [[Cell?]] = [i, ts, ts, d, s, r].map { column in (0..<rows).map(column) }

    static let schema = ParquetSchema(columns: [
        ParquetColumnSchema(name: "i", type: .int64, nullable: true),
        ParquetColumnSchema(name: "ts", type: .timestampMicros),
        ParquetColumnSchema(name: "local", type: .timestampMicros),
        ParquetColumnSchema(name: "d", type: .double, nullable: true),
        ParquetColumnSchema(name: "s", type: .string, nullable: true),
        ParquetColumnSchema(name: "r", type: .int64),
    ])

    @Test("pyarrow's files: v1 and v2 pages, PLAIN and dictionary, none, gzip and zstd", arguments: [
        "pyarrow-v1-none-plain.parquet", "pyarrow-v1-gzip-dictionary.parquet", "pyarrow-v2-zstd-dictionary.parquet",
        "pyarrow-v2-zstd-plain.parquet", "pyarrow-v2-none-dictionary.parquet",
    ])
    func readsPyarrow(file: String) throws {
        // Given a file pyarrow wrote with small pages
        let path = Self.fixtures.appendingPathComponent(file).path
        // When it is opened and every column read
        let sut = try ParquetFileReader(path: path)
        // Then the schema, the row count and every value are the script's
        #expect(sut.schema == Self.schema)
        #expect(sut.rowCount == Self.rows)
        #expect(sut.rowGroupCount == 1)
        for column in 0..<Self.schema.columns.count {
            #expect(try sut.read(rowGroup: 0, column: column).cells == Self.expected[column], "column \(Self.schema.columns[column].name)")
        }
    }

    @Test("the fixtures have several pages per column chunk, and the v2 ones DATA_PAGE_V2 pages")
    func fixturesCoverPages() throws {
        // Given the bytes of a v1 and a v2 file
        let v1 = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("pyarrow-v1-none-plain.parquet")))
        let v2 = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("pyarrow-v2-zstd-dictionary.parquet")))
        // When their first column chunk is inspected
        let plain = try #require(ChunkInspector(v1, rowGroup: 0, column: 0))
        let dictionary = try #require(ChunkInspector(v2, rowGroup: 0, column: 4))
        // Then there are several pages of the expected kinds
        #expect(plain.dataPages.count > 1)
        #expect(plain.dataPages.allSatisfy { $0.type == PageType.dataPage.rawValue })
        #expect(dictionary.dictionaryPage != nil)
        #expect(dictionary.dataPages.count > 1)
        #expect(dictionary.dataPages.allSatisfy { $0.type == PageType.dataPageV2.rawValue })
    }

    @Test("a SNAPPY file is refused: unsupported codec SNAPPY")
    func snappy() throws {
        // Given a file pyarrow compressed with snappy
        let path = Self.fixtures.appendingPathComponent("pyarrow-snappy.parquet").path
        // When it is opened
        let error = try #require(throws: ParquetError.self) { try ParquetFileReader(path: path) }
        // Then the reason names the codec
        #expect(error.reason == "unsupported codec SNAPPY")
        #expect(error.file == path)
    }
}
