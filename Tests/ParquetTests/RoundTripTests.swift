import Testing
@testable import Parquet

@Suite("Parquet files read back as written")
struct RoundTripTests {
    static let ints: [Int64?] = [0, 1, -1, .min, .max, 42, 42, 42, 7]
    static let doubles: [Double?] = [0, -0.0, .nan, .infinity, -.infinity, 1.5, -2.25, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
    static let strings: [String?] = ["", "a", "", "héllo", "ü", "zzz", "a", "\u{0}", "longer string value"]

    /// Every type, nullable or not, dictionary or not, with every compression.
    static let cases: [(ParquetType, Bool, Bool, ParquetCompression)] = [ParquetType.int64, .timestampMicros, .double, .string].flatMap { type in
        [false, true].flatMap { nullable in [false, true].flatMap { dictionary in ParquetCompression.allCases.map { (type, nullable, dictionary, $0) } } }
    }

    static func values(_ type: ParquetType, nullable: Bool) -> ParquetColumnValues {
        let nulls = { (i: Int) in nullable && i % 3 == 1 }
        switch type {
        case .int64, .timestampMicros: return Values.int64(ints.enumerated().map { nulls($0) ? nil : $1 }, type: type, nullable: nullable)
        case .double: return Values.double(doubles.enumerated().map { nulls($0) ? nil : $1 }, nullable: nullable)
        case .string: return Values.string(strings.enumerated().map { nulls($0) ? nil : $1 }, nullable: nullable)
        }
    }

    @Test("every type, nullable or not, PLAIN or dictionary, with every compression", arguments: cases)
    func roundTrip(type: ParquetType, nullable: Bool, dictionary: Bool, compression: ParquetCompression) throws {
        // Given a column with edge values (Int64.min/max, NaN, -0.0, empty strings) and nulls when nullable
        let schema = ParquetSchema(columns: [ParquetColumnSchema(name: "c", type: type, nullable: nullable, dictionary: dictionary)])
        let written = Self.values(type, nullable: nullable)
        // When it is written and read back
        let sut = try writeAndRead(schema, [written], compression: compression)
        // Then the schema, the row count and every value (bit for bit) are as written
        #expect(sut.schema == ParquetSchema(columns: [ParquetColumnSchema(name: "c", type: type, nullable: nullable)]))
        #expect(sut.rowCount == written.count)
        #expect(try sut.read(rowGroup: 0, column: 0).cells == written.cells)
    }

    @Test("several columns and row groups, with key-value metadata")
    func severalColumnsAndGroups() throws {
        // Given three columns written as three row groups, with metadata
        let schema = ParquetSchema(columns: [
            ParquetColumnSchema(name: "id", type: .string, dictionary: true),
            ParquetColumnSchema(name: "at", type: .timestampMicros),
            ParquetColumnSchema(name: "kcal", type: .double, nullable: true),
        ])
        let columns = [Values.string(["u1", "u2", "u1"]), Values.int64([1, 2, 3], type: .timestampMicros), Values.double([1.5, nil, 3], nullable: true)]
        // When it is written and read
        let sut = try writeAndRead(schema, columns, compression: .zstd, groups: 3, metadata: [(key: "k", value: "v"), (key: "seed", value: "7")])
        // Then every row group holds the values, and the metadata is there
        #expect(sut.rowGroupCount == 3)
        #expect(sut.rowCount == 9)
        #expect(sut.keyValueMetadata == ["k": "v", "seed": "7"])
        for group in 0..<3 {
            #expect(sut.rowCount(ofRowGroup: group) == 3)
            for column in 0..<3 { #expect(try sut.read(rowGroup: group, column: column).cells == columns[column].cells) }
        }
    }

    @Test("an empty column chunk", arguments: ParquetCompression.allCases)
    func empty(compression: ParquetCompression) throws {
        // Given columns with no rows
        let schema = ParquetSchema(columns: [ParquetColumnSchema(name: "a", type: .int64, nullable: true), ParquetColumnSchema(name: "s", type: .string, dictionary: true)])
        // When they are written and read
        let sut = try writeAndRead(schema, [Values.int64([], nullable: true), Values.string([])], compression: compression)
        // Then the file has one row group of no rows
        #expect(sut.rowCount == 0)
        #expect(try sut.read(rowGroup: 0, column: 0).count == 0)
        #expect(try sut.read(rowGroup: 0, column: 1).count == 0)
    }

    @Test("column chunks of several pages", arguments: [ParquetType.int64, .double, .string])
    func multiPage(type: ParquetType) throws {
        // Given 300,000 rows (past one page of 1 MiB or 131,072 rows), a few of them null
        let n = 300_000
        var written = ParquetColumnValues(type: type, nullable: true)
        for i in 0..<n {
            if i % 1000 == 999 { written.appendNull(); continue }
            switch type {
            case .double: written.append(Double(i) / 3)
            case .string: var s = "row \(i) " + String(repeating: "x", count: i % 17); s.withUTF8 { written.append(utf8: $0) }
            default: written.append(Int64(i) * 1_000_003)
            }
        }
        let schema = ParquetSchema(columns: [ParquetColumnSchema(name: "v", type: type, nullable: true)])
        // When they are written and read
        let file = ScratchFile()
        let sut = try writeAndRead(schema, [written], compression: .zstd, file: file)
        // Then the chunk has several data pages, and every value is back
        let chunk = try #require(ChunkInspector(file.bytes, rowGroup: 0, column: 0))
        #expect(chunk.dataPages.count >= 3)
        #expect(chunk.dataPages.allSatisfy { $0.uncompressedSize <= (1 << 20) + (1 << 16) })
        #expect(try sut.read(rowGroup: 0, column: 0).cells == written.cells)
    }

    @Test("a dictionary past 1 MiB falls back to DELTA_BYTE_ARRAY; a small one is used")
    func dictionaryFallback() throws {
        // Given a dictionary column of 200,000 distinct strings (past 1 MiB) and one of 3 values
        var distinct = ParquetColumnValues(type: .string)
        var few = ParquetColumnValues(type: .string)
        for i in 0..<200_000 {
            var s = "distinct value \(i)"
            s.withUTF8 { distinct.append(utf8: $0) }
            var t = ["a", "b", "c"][i % 3]
            t.withUTF8 { few.append(utf8: $0) }
        }
        let schema = ParquetSchema(columns: [ParquetColumnSchema(name: "d", type: .string, dictionary: true), ParquetColumnSchema(name: "f", type: .string, dictionary: true)])
        // When they are written
        let file = ScratchFile()
        let sut = try writeAndRead(schema, [distinct, few], compression: .none, file: file)
        // Then the first chunk is DELTA_BYTE_ARRAY without a dictionary page, the second RLE_DICTIONARY, and both read back
        let plain = try #require(ChunkInspector(file.bytes, rowGroup: 0, column: 0))
        let dictionary = try #require(ChunkInspector(file.bytes, rowGroup: 0, column: 1))
        #expect(plain.meta.encodings == [Encoding.deltaByteArray, Encoding.rle])
        #expect(plain.meta.dictionaryPageOffset == nil)
        #expect(dictionary.meta.encodings == [Encoding.plain, Encoding.rle, Encoding.rleDictionary])
        #expect(dictionary.dictionaryPage?.numValues == 3)
        #expect(try sut.read(rowGroup: 0, column: 0).cells == distinct.cells)
        #expect(try sut.read(rowGroup: 0, column: 1).cells == few.cells)
    }

    @Test("dictionaries of every index width: runs and bit-packed groups", arguments: [1, 2, 255, 256, 257, 65_537])
    func dictionaryWidths(distinct: Int) throws {
        // Given 140,000 rows: every one of `distinct` values once, then runs of 1-20 equal values in a seeded order, some nulls
        // (width 1: a one-entry dictionary; 257: 9 bits; 65,537: 17 bits)
        var state: UInt64 = UInt64(distinct)
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        var ints = ParquetColumnValues(type: .int64, nullable: true)
        var strings = ParquetColumnValues(type: .string)
        var runs = 0
        while ints.count < 140_000 {
            // Every value once first, then any.
            let first = runs < distinct
            let value = first ? runs : next(distinct)
            runs += 1
            for _ in 0..<(first ? 1 : 1 + next(20) * next(2)) {
                if !first && next(50) == 0 { ints.appendNull() } else { ints.append(Int64(value) * 1_000_000_007) }
                var s = "v\(value)"
                s.withUTF8 { strings.append(utf8: $0) }
            }
        }
        let schema = ParquetSchema(columns: [
            ParquetColumnSchema(name: "i", type: .int64, nullable: true, dictionary: true),
            ParquetColumnSchema(name: "s", type: .string, dictionary: true),
        ])
        // When they are written and read
        let file = ScratchFile()
        let sut = try writeAndRead(schema, [ints, strings], compression: .zstd, file: file)
        // Then both chunks are dictionary-encoded, and every value is back
        #expect(try #require(ChunkInspector(file.bytes, rowGroup: 0, column: 0)).dictionaryPage?.numValues == Int32(distinct))
        #expect(try #require(ChunkInspector(file.bytes, rowGroup: 0, column: 1)).dictionaryPage?.numValues == Int32(distinct))
        #expect(try sut.read(rowGroup: 0, column: 0).cells == ints.cells)
        #expect(try sut.read(rowGroup: 0, column: 1).cells == strings.cells)
    }
}
