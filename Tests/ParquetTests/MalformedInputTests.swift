import Testing
@testable import Parquet

/// Bad bytes end in a `ParquetError` that says what is wrong, never a crash or a huge allocation.
@Suite("Malformed Parquet input is refused with a reason")
struct MalformedInputTests {
    static let column = ParquetColumnSchema(name: "x", type: .int64)
    static let valid = Crafted.file(column, rows: 3, pages: [Crafted.page(values: 3, body: Crafted.plain([1, 2, 3]))])

    @Test("the hand-made control file reads (so that each defect below is the only one)")
    func control() throws {
        // Given a hand-made file of 3 PLAIN INT64 values
        // When it is read
        let sut = try ParquetFileReader(bytes: Self.valid, name: "ok.parquet")
        // Then the values are there
        #expect(try sut.read(rowGroup: 0, column: 0).cells == [.int(1), .int(2), .int(3)])
    }

    @Test("bad magic at the start or the end, and files too short")
    func magic() throws {
        // Given a valid file with its first or last byte changed, and a file of 11 bytes
        var start = Self.valid
        start[0] = UInt8(ascii: "X")
        var end = Self.valid
        end[end.count - 1] = UInt8(ascii: "X")
        // When they are read
        // Then each is refused at the right offset
        #expect(readError(start) == ParquetError(file: "bad.parquet", offset: 0, reason: "not a Parquet file: bad magic at the start"))
        #expect(readError(end) == ParquetError(file: "bad.parquet", offset: end.count - 4, reason: "not a Parquet file: bad magic at the end"))
        #expect(readError(Array(Self.valid.prefix(11)))?.reason == "not a Parquet file: 11 bytes, too short")
    }

    @Test("a truncated footer: its length past the start of the file, or its thrift cut short")
    func truncatedFooter() throws {
        // Given a file whose footer lost bytes while its length stayed, and one whose length shrank with it
        let n = Self.valid.count
        let footerLength = Int(Self.valid[n - 8]) | Int(Self.valid[n - 7]) << 8
        let cut = Array(Self.valid[0..<(n - 8 - footerLength)]) + Array(Self.valid[(n - 8 - 10)...])
        var short = Array(Self.valid[0..<(n - 8 - 10)]) + Array(Self.valid[(n - 8)...])
        short[short.count - 8] = UInt8(footerLength - 10)
        // When they are read
        // Then the first is refused for its length, the second for its thrift
        #expect(readError(cut)?.reason == "footer length \(footerLength) is past the start of the file")
        #expect(readError(short)?.reason.hasPrefix("footer: thrift:") == true)
    }

    @Test("lying lengths and counts in page headers and the footer, unknown encodings", arguments: [
        (Crafted.file(column, rows: 3, pages: [Crafted.page(values: 3, body: Crafted.plain([1, 2, 3]), compressedSize: 1000)]),
         "page of 1000 bytes past the chunk's end"),
        (Crafted.file(column, rows: 3, pages: [Crafted.page(values: 3, body: Crafted.plain([1, 2, 3]), uncompressedSize: 99)]),
         "uncompressed page of 24 bytes, header says 99"),
        (Crafted.file(column, rows: 3, pages: [Crafted.page(values: 50, body: Crafted.plain([1, 2, 3]))]),
         "page of 50 values past the chunk's 3"),
        (Crafted.file(column, rows: 4, pages: [Crafted.page(values: 4, body: Crafted.plain([1, 2, 3]))]),
         "PLAIN data holds fewer than its 4 values"),
        (Crafted.file(column, rows: 6, pages: [Crafted.page(values: 3, body: Crafted.plain([1, 2, 3]))]),
         "the chunk ends after 3 of 6 values"),
        (Crafted.file(column, rows: 1 << 30, pages: [Crafted.page(values: 1 << 30, encoding: Encoding.rleDictionary, body: [1, 0x80, 0x80, 0x80, 0x80, 0x08, 0])]),
         "page of 24 bytes declares 1073741824 values"),
        (Crafted.file(column, rows: 3, pages: [Crafted.page(values: 3, encoding: 7, body: Crafted.plain([1, 2, 3]))]),
         "encoding DELTA_BYTE_ARRAY is not supported for int64 values"),
        (Crafted.file(column, rows: 3, pages: [Crafted.page(values: 3, encoding: 42, body: Crafted.plain([1, 2, 3]))]),
         "encoding 42 is not supported for int64 values"),
        (Crafted.file(column, rows: 3, pages: [Crafted.page(.dictionaryPage, values: 1, encoding: 9, body: Crafted.plain([1]))], dictionary: true),
         "dictionary page encoding BYTE_STREAM_SPLIT is not supported"),
        (Crafted.file(column, rows: 3, pages: [Crafted.page(values: 3, body: Crafted.plain([1, 2, 3]))]) { $0.numRows = 7 },
         "the footer says 7 rows, its row groups hold 3"),
        (Crafted.file(column, rows: 3, pages: [Crafted.page(values: 3, body: Crafted.plain([1, 2, 3]))]) { $0.rowGroups[0].columns[0].dataPageOffset = 9999 },
         "row group 0, column x: chunk of 37 bytes at 9999 is outside the file's data"),
    ] as [([UInt8], String)])
    func lyingLengths(file: [UInt8], reason: String) throws {
        // Given a file whose header or footer lies
        // When it is read
        let error = try #require(readError(file))
        // Then the reason says which length or count
        #expect(error.reason.hasSuffix(reason), "\(error)")
    }

    @Test("compressed pages: a size past what the codec can expand to, a size that differs, corrupt bytes", arguments: [
        (Codec.zstd, ParquetCompression.zstd, 1 << 30, "zstd page of 29 bytes cannot hold the 1073741824 bytes its header says"),
        (Codec.gzip, ParquetCompression.gzip, 1 << 30, "gzip page of 28 bytes cannot hold the 1073741824 bytes its header says"),
        (Codec.zstd, ParquetCompression.zstd, 100, "ZSTD page decompresses to 24 bytes, header says 100"),
        (Codec.zstd, ParquetCompression.zstd, 10, "zstd: Destination buffer is too small"),
        (Codec.gzip, ParquetCompression.gzip, 100, "GZIP page decompresses to 24 bytes, header says 100"),
        (Codec.gzip, ParquetCompression.gzip, 10, "gzip page decompresses past the 10 bytes its header says"),
        (Codec.zstd, ParquetCompression.none, 24, "zstd: Unknown frame descriptor"),
        (Codec.gzip, ParquetCompression.none, 24, "gzip: corrupt or truncated page (zlib -3)"),
    ] as [(Codec, ParquetCompression, Int, String)])
    func compressedSizes(codec: Codec, compression: ParquetCompression, claimed: Int, reason: String) throws {
        // Given a page of 3 INT64 values (24 bytes) compressed (or not) and a header that claims `claimed` bytes
        var body: [UInt8] = []
        try PageCompressor(compression).compress(Crafted.plain([1, 2, 3]), into: &body)
        let file = Crafted.file(Self.column, rows: 3, pages: [Crafted.page(values: 3, body: body, uncompressedSize: claimed)], codec: codec.rawValue)
        // When it is read
        let error = try #require(readError(file))
        // Then it is refused before any output past the claim
        #expect(error.reason.hasSuffix(reason), "\(error)")
    }

    @Test("an out-of-range dictionary index, and a bit width over 32")
    func dictionaryIndex() throws {
        // Given a dictionary of 2 entries and a data page whose second index (bit-packed, width 3) is 5
        let dictionary = Crafted.page(.dictionaryPage, values: 2, body: Crafted.plain([10, 20]))
        let indices = Crafted.page(values: 2, encoding: Encoding.rleDictionary, body: [3, 0x03, 0b101_000, 0])
        let wide = Crafted.page(values: 2, encoding: Encoding.rleDictionary, body: [40, 0x03, 0, 0])
        let good = Crafted.page(values: 2, encoding: Encoding.rleDictionary, body: [3, 0x03, 0b001_000, 0])
        // When they are read
        let bad = readError(Crafted.file(Self.column, rows: 2, pages: [dictionary, indices], dictionary: true))
        let tooWide = readError(Crafted.file(Self.column, rows: 2, pages: [dictionary, wide], dictionary: true))
        let control = try ParquetFileReader(bytes: Crafted.file(Self.column, rows: 2, pages: [dictionary, good], dictionary: true), name: "ok").read(rowGroup: 0, column: 0)
        // Then the index and the width are refused, and the same page with index 1 reads
        #expect(bad?.reason == "column x, row group 0: dictionary index 5 out of range (dictionary of 2)")
        #expect(bad?.offset == 4 + dictionary.count)
        #expect(tooWide?.reason.hasSuffix("bit width 40 out of range") == true, "\(String(describing: tooWide))")
        #expect(control.cells == [.int(10), .int(20)])
    }

    @Test("unsupported codecs, nested schemas and unknown types are refused by name", arguments: [
        (Crafted.file(column, rows: 0, pages: [Crafted.page(values: 0, body: [])], codec: Codec.lz4Raw.rawValue), "unsupported codec LZ4_RAW"),
        (Crafted.file(column, rows: 0, pages: [Crafted.page(values: 0, body: [])], codec: 77), "unsupported codec 77"),
        (Crafted.file(column, rows: 0, pages: [Crafted.page(values: 0, body: [])]) { meta in
            meta.schema = [SchemaElement(name: "schema", numChildren: 1), SchemaElement(repetition: 0, name: "g", numChildren: 1),
                           SchemaElement(type: PhysicalType.int64.rawValue, repetition: 0, name: "x")]
        }, "nested schemas are not supported (the root has 1 children of 2 elements)"),
        (Crafted.file(column, rows: 0, pages: [Crafted.page(values: 0, body: [])]) { $0.schema[1].repetition = 2 },
         "column x: repeated or unannotated columns are not supported"),
        (Crafted.file(column, rows: 0, pages: [Crafted.page(values: 0, body: [])]) { $0.schema[1].type = PhysicalType.int32.rawValue },
         "column x: type int32 with logical type integer(bits: 64, signed: true) is not supported"),
        (Crafted.file(column, rows: 0, pages: [Crafted.page(values: 0, body: [])]) {
            $0.schema[1].logicalType = .timestamp(utc: true, unit: 1)
            $0.schema[1].convertedType = ConvertedType.timestampMillis
        }, "column x: type int64 with logical type timestamp(utc: true, unit: 1) is not supported"),
    ] as [([UInt8], String)])
    func unsupported(file: [UInt8], reason: String) throws {
        // Given a file with something the reader does not support
        // When it is opened
        let error = try #require(readError(file))
        // Then the reason names it
        #expect(error.reason == reason)
    }

    @Test("a path that is missing or a directory, and a row group or column that does not exist")
    func pathsAndIndices() throws {
        // Given a missing path, a directory, and a valid file of one row group of one column
        let missing = "/nonexistent/x.parquet"
        let sut = try ParquetFileReader(bytes: Self.valid, name: "ok.parquet")
        // When they are opened or read
        // Then each is refused with its reason
        #expect(throws: ParquetError(file: missing, reason: "cannot open: No such file or directory")) { try ParquetFileReader(path: missing) }
        #expect(throws: ParquetError(file: "/tmp", reason: "not a regular file")) { try ParquetFileReader(path: "/tmp") }
        #expect(throws: ParquetError(file: "ok.parquet", reason: "no column 0 in row group 1 (1 row groups of 1 columns)")) { try sut.read(rowGroup: 1, column: 0) }
        #expect(throws: ParquetError(file: "ok.parquet", reason: "no column 1 in row group 0 (1 row groups of 1 columns)")) { try sut.read(rowGroup: 0, column: 1) }
        #expect(sut.rowCount(ofRowGroup: 1) == 0)
    }

    @Test("an error's description: file, offset, reason")
    func description() {
        // Given errors with and without an offset
        // Then they read as the file, the offset when known, and the reason
        #expect(ParquetError(file: "a.parquet", offset: 12, reason: "bad").description == "a.parquet: offset 12: bad")
        #expect(ParquetError(file: "a.parquet", reason: "bad").description == "a.parquet: bad")
    }
}
