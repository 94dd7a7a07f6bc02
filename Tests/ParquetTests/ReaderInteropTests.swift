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

    @Test("pyarrow's files: v1 and v2 pages, PLAIN, dictionary and DELTA encodings, none, gzip and zstd", arguments: [
        "pyarrow-v1-none-plain.parquet", "pyarrow-v1-gzip-dictionary.parquet", "pyarrow-v2-zstd-dictionary.parquet",
        "pyarrow-v2-zstd-plain.parquet", "pyarrow-v2-none-dictionary.parquet", "pyarrow-v1-delta.parquet", "pyarrow-v2-delta-length.parquet",
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

    /// The rows of pyarrow-delta-long.parquet (`long_columns` in the script).
    static let long: (n: [Cell?], s: [Cell?]) = {
        var n = (0..<1000).map { k in Int64((k * k * 7919) % 1_000_003 - 500_000) }
        (n[10], n[11], n[500]) = (.min, .max, .min)
        let s = (0..<1000).map { k in "user-" + String(repeating: "0", count: 5 - String(k / 10).count) + "\(k / 10)-\(k % 7)" + String(repeating: "x", count: k % 23) }
        return (n.map { .int($0) }, s.map { .string($0) })
    }()

    @Test("pyarrow's DELTA pages of several blocks: wrapping deltas between Int64.min and Int64.max, strings of shared prefixes")
    func readsLongDeltaPages() throws {
        // Given 1,000 rows pyarrow wrote DELTA_BINARY_PACKED and DELTA_BYTE_ARRAY in pages of 4 KiB
        let path = Self.fixtures.appendingPathComponent("pyarrow-delta-long.parquet").path
        // When both columns are read
        let sut = try ParquetFileReader(path: path)
        // Then every value is the script's
        #expect(try sut.read(rowGroup: 0, column: 0).cells == Self.long.n)
        #expect(try sut.read(rowGroup: 0, column: 1).cells == Self.long.s)
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
