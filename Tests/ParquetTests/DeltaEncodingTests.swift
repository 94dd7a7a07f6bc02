import Testing
@testable import Parquet

@Suite("DELTA_BINARY_PACKED and DELTA_BYTE_ARRAY: written, read back, hostile pages refused")
struct DeltaEncodingTests {
    /// `count` integers that walk every bit width: extremes (deltas that wrap), runs, small and wide steps.
    static func integers(_ count: Int) -> [UInt64] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { i in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            switch i % 7 {
            case 0: return UInt64(bitPattern: Int64.min)
            case 1: return UInt64(bitPattern: Int64.max)
            case 2, 3: return 42
            default: return state >> UInt64(i % 64)
            }
        }
    }

    @Test("integers: wrapping deltas, every bit width, blocks and miniblocks partly full", arguments: [0, 1, 2, 31, 32, 33, 127, 128, 129, 130, 1000])
    func integersRoundTrip(count: Int) throws {
        // Given integers from Int64.min to Int64.max and runs of equal ones
        let values = Self.integers(count)
        // When they are encoded and decoded
        var encoded: [UInt8] = []
        values.withUnsafeBufferPointer { DeltaBinaryPacked.append($0, into: &encoded) }
        var sut: [UInt64] = [7]
        let read = try encoded.withUnsafeBytes { try DeltaBinaryPacked.decode($0, count: count, into: &sut) }
        // Then they come back after what was there, and every byte was read
        #expect(sut == [7] + values)
        #expect(read == encoded.count)
    }

    @Test("a column of integers or times is written DELTA_BINARY_PACKED and one of strings DELTA_BYTE_ARRAY, nulls and several row groups included",
          arguments: [ParquetType.int64, .timestampMicros, .string])
    func columnsRoundTrip(type: ParquetType) throws {
        // Given 5,000 rows, every 9th null, ids that share prefixes, in 3 row groups
        let rows = 5_000
        let written: ParquetColumnValues
        if type == .string {
            written = Values.string((0..<rows).map { i in i % 9 == 4 ? nil : "s\(i / 100)-\(i % 100)" + String(repeating: "é", count: i % 19) }, nullable: true)
        } else {
            written = Values.int64(Self.integers(rows).enumerated().map { $0 % 9 == 4 ? nil : Int64(bitPattern: $1) }, type: type, nullable: true)
        }
        let schema = ParquetSchema(columns: [ParquetColumnSchema(name: "v", type: type, nullable: true)])
        // When it is written and read
        let file = ScratchFile()
        let sut = try writeAndRead(schema, [written], compression: .zstd, groups: 3, file: file)
        // Then the chunks say their encoding, and every value of every group is back
        let chunk = try #require(ChunkInspector(file.bytes, rowGroup: 1, column: 0))
        #expect(chunk.meta.encodings == [type == .string ? Encoding.deltaByteArray : Encoding.deltaBinaryPacked, Encoding.rle])
        #expect(chunk.dataPages.allSatisfy { $0.encoding == chunk.meta.encodings[0] })
        for group in 0..<3 { #expect(try sut.read(rowGroup: group, column: 0).cells == written.cells) }
    }

    @Test("strings spread over runs share their prefix with the last value of the run before; nulls and empty strings kept")
    func stringsOverRuns() throws {
        // Given three runs of strings, the first value of each run continuing the last of the one before
        let runs = [
            Values.string(["s0000001-000001", "s0000001-000002", nil], nullable: true),
            Values.string(["s0000001-000003", "", "a long value past sixteen bytes: 0123456789"], nullable: true),
            Values.string([nil, "a long value past sixteen bytes: 0123456790", "s"], nullable: true),
        ]
        let all = runs.flatMap(\.cells)
        // When the rows are encoded as one page and decoded
        var encoded: [UInt8] = [], scratch: [UInt64] = [9]
        DeltaByteArray.append(ColumnRuns(runs), rows: 0..<all.count, scratch: &scratch, into: &encoded)
        var sut = ParquetColumnValues(type: .string)
        try encoded.withUnsafeBytes { try DeltaByteArray.decode($0, count: all.compactMap { $0 }.count, into: &sut) }
        // Then the non-null values come back in order, and the ids kept one suffix byte each
        #expect(sut.cells == all.compactMap { $0 })
        var prefixes: [UInt64] = []
        _ = try encoded.withUnsafeBytes { try DeltaBinaryPacked.decode($0, count: 7, into: &prefixes) }
        #expect(prefixes == [0, 14, 14, 0, 0, 41, 0])
    }

    /// A DELTA_BINARY_PACKED header: block size, miniblocks, count, zigzag first value.
    static func header(block: UInt8 = 128, miniblocks: UInt8 = 4, count: UInt8, first: UInt8 = 0) -> [UInt8] {
        [block & 0x7F | (block >= 128 ? 0x80 : 0), block >= 128 ? 1 : 0, miniblocks, count, first]
    }

    @Test("hostile DELTA_BINARY_PACKED pages are refused with the reason", arguments: [
        ([0x64, 4, 3, 0], 3, "DELTA_BINARY_PACKED block of 100 values (a multiple of 128 up to 65536)"),
        (header(miniblocks: 3, count: 3), 3, "DELTA_BINARY_PACKED block of 128 values in 3 miniblocks"),
        (header(count: 5), 3, "DELTA_BINARY_PACKED holds 5 values, the page 3"),
        (header(count: 3) + [0], 3, "DELTA_BINARY_PACKED block truncated"),
        (header(count: 3) + [0, 65, 0, 0, 0], 3, "DELTA_BINARY_PACKED bit width 65"),
        (header(count: 3) + [0, 8, 0, 0, 0, 1, 2], 3, "DELTA_BINARY_PACKED miniblock truncated"),
        ([0x80, 0x80], 3, "DELTA_BINARY_PACKED header truncated"),
    ] as [([UInt8], Int, String)])
    func hostileIntegers(bytes: [UInt8], count: Int, reason: String) throws {
        // Given a page whose header or blocks lie
        var sut: [UInt64] = []
        // When it is decoded
        let error = try #require(throws: ParquetFormatError.self) { try bytes.withUnsafeBytes { try DeltaBinaryPacked.decode($0, count: count, into: &sut) } }
        // Then the reason says what is wrong
        #expect(error.reason == reason)
    }

    /// A DELTA_BYTE_ARRAY page of prefix lengths `prefixes`, suffix lengths `lengths` and `suffixes`.
    static func strings(prefixes: [UInt64], lengths: [UInt64], suffixes: [UInt8]) -> [UInt8] {
        var page: [UInt8] = []
        prefixes.withUnsafeBufferPointer { DeltaBinaryPacked.append($0, into: &page) }
        lengths.withUnsafeBufferPointer { DeltaBinaryPacked.append($0, into: &page) }
        return page + suffixes
    }

    @Test("hostile DELTA_BYTE_ARRAY pages are refused with the reason", arguments: [
        (strings(prefixes: [1], lengths: [1], suffixes: [65]), 1, "DELTA_BYTE_ARRAY prefix of 1 bytes, the string before has 0"),
        (strings(prefixes: [0, 3], lengths: [2, 0], suffixes: [65, 66]), 2, "DELTA_BYTE_ARRAY prefix of 3 bytes, the string before has 2"),
        (strings(prefixes: [0, 0], lengths: [2, 5], suffixes: [65, 66, 67]), 2, "DELTA_BYTE_ARRAY string of 5 bytes past the page's end"),
        (strings(prefixes: [0], lengths: [UInt64(bitPattern: -1)], suffixes: [65]), 1, "DELTA_BYTE_ARRAY string of -1 bytes past the page's end"),
        // 1,000 bytes repeated 100,000 times by prefixes: 100 MB from a page of about 1 KB.
        (strings(prefixes: [0] + Array(repeating: 1000, count: 99_999), lengths: [1000] + Array(repeating: 0, count: 99_999),
                 suffixes: Array(repeating: 120, count: 1000)), 100_000, "DELTA_BYTE_ARRAY strings expand past 67108864 bytes"),
    ] as [([UInt8], Int, String)])
    func hostileStrings(bytes: [UInt8], count: Int, reason: String) throws {
        // Given a page whose prefixes or lengths lie, or expand to far more than the page
        var sut = ParquetColumnValues(type: .string)
        // When it is decoded
        let error = try #require(throws: ParquetFormatError.self) { try bytes.withUnsafeBytes { try DeltaByteArray.decode($0, count: count, into: &sut) } }
        // Then the reason says what is wrong, and nothing was appended
        #expect(error.reason == reason)
        #expect(sut.count == 0)
    }
}
