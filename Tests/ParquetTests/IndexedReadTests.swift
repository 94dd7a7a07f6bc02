import Testing
@testable import Parquet

@Suite("Reading a chunk left dictionary-encoded, and into reused memory")
struct IndexedReadTests {
    static let column = ParquetColumnSchema(name: "x", type: .int64)

    /// The rows a storage view shows.
    static func cells(_ values: ParquetColumnValues, indices: [UInt32]) -> [Cell?] {
        values.withStorage(indices: indices) { view in
            (0..<view.count).map { row -> Cell? in
                if view.isNull(row) { return nil }
                switch values.type {
                case .int64, .timestampMicros: return .int(view.int64(row))
                case .double: return .double(view.double(row).bitPattern)
                case .string: return .string(String(decoding: view.utf8(row), as: UTF8.self))
                }
            }
        }
    }

    @Test("a dictionary-encoded column is left encoded, and its view shows every row as the plain read does",
          arguments: [ParquetCompression.none, .zstd])
    func dictionaryColumn(compression: ParquetCompression) throws {
        // Given a file of a dictionary-encoded string column, a plain one and a nullable dictionary one
        let schema = ParquetSchema(columns: [
            ParquetColumnSchema(name: "user", type: .string, dictionary: true),
            ParquetColumnSchema(name: "n", type: .int64),
            ParquetColumnSchema(name: "ref", type: .string, nullable: true, dictionary: true),
        ])
        let users = (0..<5_000).map { "u\($0 % 7)" }
        let sut = try writeAndRead(schema, [Values.string(users), Values.int64((0..<5_000).map { Int64($0) }),
                                            Values.string((0..<5_000).map { $0 % 3 == 0 ? nil : "p\($0 % 5)" }, nullable: true)],
                                   compression: compression)
        var values = ParquetColumnValues(type: .int64)
        var indices: [UInt32] = [9, 9]
        for c in 0..<3 {
            // When each column is read with indices
            try sut.read(rowGroup: 0, column: c, into: &values, indices: &indices)
            // Then the dictionary column holds its 7 entries and an index a row, the others every row;
            // and every view shows the rows of the plain read
            #expect(indices.count == (c == 0 ? 5_000 : 0))
            #expect(values.count == (c == 0 ? 7 : 5_000))
            #expect(Self.cells(values, indices: indices) == (try sut.read(rowGroup: 0, column: c).cells))
        }
    }

    @Test("a dictionary-encoded page after a plain one, or a plain one after it, is read as every row")
    func mixedEncodings() throws {
        // Given a chunk of a dictionary, then a dictionary-encoded page and a PLAIN one (and the reverse order)
        let dictionary = Crafted.page(.dictionaryPage, values: 2, body: Crafted.plain([10, 20]))
        let encoded = Crafted.page(values: 2, encoding: Encoding.rleDictionary, body: [3, 0x03, 0b001_000, 0])
        let plain = Crafted.page(values: 1, body: Crafted.plain([30]))
        for pages in [[dictionary, encoded, plain], [dictionary, plain, encoded]] {
            let sut = try ParquetFileReader(bytes: Crafted.file(Self.column, rows: 3, pages: pages, dictionary: true), name: "mixed")
            var values = ParquetColumnValues(type: .string)
            var indices: [UInt32] = []
            // When it is read with indices
            try sut.read(rowGroup: 0, column: 0, into: &values, indices: &indices)
            // Then every row is read, none left encoded
            #expect(indices.isEmpty)
            #expect(values.cells == (pages[1] == encoded ? [.int(10), .int(20), .int(30)] : [.int(30), .int(10), .int(20)]))
        }
    }

    @Test("an out-of-range index is refused when the chunk is left encoded too")
    func outOfRange() throws {
        // Given a dictionary of 2 entries and a data page whose second index is 5
        let dictionary = Crafted.page(.dictionaryPage, values: 2, body: Crafted.plain([10, 20]))
        let bad = Crafted.page(values: 2, encoding: Encoding.rleDictionary, body: [3, 0x03, 0b101_000, 0])
        let sut = try ParquetFileReader(bytes: Crafted.file(Self.column, rows: 2, pages: [dictionary, bad], dictionary: true), name: "bad")
        var values = ParquetColumnValues(type: .int64)
        var indices: [UInt32] = []
        // When it is read with indices
        let error = #expect(throws: ParquetError.self) { try sut.read(rowGroup: 0, column: 0, into: &values, indices: &indices) }
        // Then the index is refused as by the plain read
        #expect(error?.reason == "column x, row group 0: dictionary index 5 out of range (dictionary of 2)")
    }

    @Test("reading into the memory of another column's values replaces them with this column's rows")
    func reusedMemory() throws {
        // Given a file of a string column and an int column
        let schema = ParquetSchema(columns: [ParquetColumnSchema(name: "s", type: .string), ParquetColumnSchema(name: "n", type: .int64)])
        let sut = try writeAndRead(schema, [Values.string(["a", "bb", "ccc"]), Values.int64([1, 2, 3])], groups: 2)
        var values = Values.int64([7, 8, 9, 10])
        // When each column of each row group is read into the same values
        var read: [[Cell?]] = []
        for group in 0..<2 {
            for column in 0..<2 {
                try sut.read(rowGroup: group, column: column, into: &values)
                read.append(values.cells)
            }
        }
        // Then each read holds exactly that chunk's rows
        let strings: [Cell?] = [.string("a"), .string("bb"), .string("ccc")], ints: [Cell?] = [.int(1), .int(2), .int(3)]
        #expect(read == [strings, ints, strings, ints])
    }
}
