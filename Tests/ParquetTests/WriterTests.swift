import Testing
@testable import Parquet

@Suite("The Parquet writer: deterministic output, misuse refused")
struct WriterTests {
    static let schema = ParquetSchema(columns: [
        ParquetColumnSchema(name: "id", type: .string, dictionary: true),
        ParquetColumnSchema(name: "at", type: .timestampMicros),
        ParquetColumnSchema(name: "kcal", type: .double, nullable: true),
        ParquetColumnSchema(name: "note", type: .string, nullable: true),
    ])

    /// Row group `g` of a small table: 5,000 rows that differ by group.
    static func columns(_ g: Int) -> [ParquetColumnValues] {
        var columns = schema.columns.map { ParquetColumnValues(type: $0.type, nullable: $0.nullable) }
        for i in 0..<5_000 {
            var id = "user-\((i + g) % 97)"
            id.withUTF8 { columns[0].append(utf8: $0) }
            columns[1].append(Int64(1_700_000_000_000_000 + g * 1_000_000 + i))
            if i % 9 == 0 { columns[2].appendNull() } else { columns[2].append(Double(i) / 7) }
            if i % 4 == 0 { columns[3].appendNull() } else { var note = "n\(i * g)"; note.withUTF8 { columns[3].append(utf8: $0) } }
        }
        return columns
    }

    /// A file of 4 row groups, encoded one after another or on child tasks.
    static func file(_ compression: ParquetCompression, parallel: Bool) async throws -> [UInt8] {
        let file = ScratchFile()
        var writer = try ParquetFileWriter(path: file.path, schema: schema, keyValueMetadata: [(key: "seed", value: "1")])
        var groups: [EncodedRowGroup?] = Array(repeating: nil, count: 4)
        if parallel {
            try await withThrowingTaskGroup(of: (Int, EncodedRowGroup).self) { tasks in
                for g in 0..<4 { tasks.addTask { (g, try EncodedRowGroup(schema: schema, columns: columns(g), compression: compression)) } }
                for try await (g, group) in tasks { groups[g] = group }
            }
        } else {
            for g in 0..<4 { groups[g] = try EncodedRowGroup(schema: schema, columns: columns(g), compression: compression) }
        }
        for group in groups { try writer.append(group!) }
        let (rows, bytes) = try writer.finish()
        let written = file.bytes
        #expect(rows == 20_000)
        #expect(bytes == written.count)
        return written
    }

    @Test("the same input gives the same bytes, row groups encoded in parallel or not", arguments: ParquetCompression.allCases)
    func deterministic(compression: ParquetCompression) async throws {
        // Given the same row groups written three times, once encoded on child tasks
        let first = try await Self.file(compression, parallel: false)
        let second = try await Self.file(compression, parallel: false)
        let parallel = try await Self.file(compression, parallel: true)
        // Then the files are byte for byte the same
        #expect(first == second)
        #expect(first == parallel)
    }

    /// `columns` cut into runs of rows at `cuts`.
    static func runs(_ columns: [ParquetColumnValues], cuts: [Int]) -> [[ParquetColumnValues]] {
        let bounds = [0] + cuts + [columns[0].count]
        return zip(bounds, bounds.dropFirst()).map { lower, upper in
            columns.map { column in
                var run = ParquetColumnValues(type: column.type, nullable: column.nullable)
                for row in lower..<upper {
                    if column.isNull(row) {
                        run.appendNull()
                        continue
                    }
                    switch column.type {
                    case .string: column.withUTF8(row) { run.append(utf8: $0) }
                    case .double: run.append(column.double(row))
                    case .int64, .timestampMicros: run.append(column.int64(row))
                    }
                }
                return run
            }
        }
    }

    @Test("a row group encoded from runs of rows is byte for byte the group of the runs joined, pages spanning runs",
          arguments: [[1], [1_000, 1_000, 2_999], [17, 4_000, 4_999]])
    func runsEncodeAsJoined(cuts: [Int]) throws {
        // Given 5,000 rows whose nullable notes of 1,000 bytes fill a page every ~1,000 rows, and the same rows cut into runs
        let schema = ParquetSchema(columns: Self.schema.columns + [ParquetColumnSchema(name: "long", type: .string, nullable: true)])
        var joined = Self.columns(0)
        joined.append(Values.string((0..<5_000).map { $0 % 5 == 0 ? nil : String(repeating: "\($0 % 10)", count: 1_000) }, nullable: true))
        let runs = Self.runs(joined, cuts: cuts)
        // When both are encoded with each compression
        for compression in ParquetCompression.allCases {
            let whole = try EncodedRowGroup(schema: schema, columns: joined, compression: compression)
            let sut = try EncodedRowGroup(schema: schema, runs: runs, compression: compression)
            // Then the column chunks are the same bytes and metadata, and the long notes take several pages
            #expect(sut.rows == whole.rows)
            #expect(sut.chunks.map(\.bytes) == whole.chunks.map(\.bytes), "\(compression)")
            #expect(sut.chunks.map(\.meta) == whole.chunks.map(\.meta), "\(compression)")
            #expect(whole.chunks[4].uncompressedSize > 3 * ColumnChunkEncoder.pageBytes)
        }
    }

    @Test("a chunk the codec does not shrink by a tenth is stored uncompressed, the others compressed; both read back",
          arguments: [ParquetCompression.zstd, .gzip])
    func incompressibleChunksStayUncompressed(compression: ParquetCompression) throws {
        // Given a column of random bit patterns (nothing for a codec to find) beside the test table's columns
        let schema = ParquetSchema(columns: Self.schema.columns + [ParquetColumnSchema(name: "noise", type: .double)])
        var columns = Self.columns(0)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var noise = ParquetColumnValues(type: .double)
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            noise.append(Double(bitPattern: (state ^ state >> 29) & 0x7FEF_FFFF_FFFF_FFFF))
        }
        columns.append(noise)
        // When the row group is encoded with the codec and written
        let sut = try EncodedRowGroup(schema: schema, columns: columns, compression: compression)
        let file = ScratchFile()
        var writer = try ParquetFileWriter(path: file.path, schema: schema)
        try writer.append(sut)
        _ = try writer.finish()
        // Then the noise chunk is UNCOMPRESSED, its pages as they are; the notes and ids keep the codec
        let codec: Codec = compression == .zstd ? .zstd : .gzip
        #expect(sut.chunks[4].meta.codec == Codec.uncompressed.rawValue)
        #expect(sut.chunks[4].meta.compressedSize == sut.chunks[4].meta.uncompressedSize)
        #expect(sut.chunks[0].meta.codec == codec.rawValue)
        #expect(sut.chunks[3].meta.codec == codec.rawValue)
        // And every column reads back as written
        let reader = try ParquetFileReader(path: file.path)
        for c in columns.indices {
            let read = try reader.read(rowGroup: 0, column: c)
            #expect(read.words == columns[c].words && read.bytes == columns[c].bytes && read.ends == columns[c].ends && read.validity == columns[c].validity, "column \(c)")
        }
    }

    @Test("columns that do not match the schema are refused")
    func mismatchedColumns() throws {
        // Given columns of the wrong count, type, nullability or length
        var columns = Self.columns(0)
        let wrongType = [Values.int64([1])] + columns.dropFirst()
        let notNullable = Array(columns.prefix(2)) + [Values.double([1])] + [columns[3]]
        columns[1].append(Int64(7))
        // When row groups are made of them
        // Then each is refused with its reason
        #expect(throws: ParquetError(file: "row group", reason: "3 columns of values for a schema of 4")) {
            try EncodedRowGroup(schema: Self.schema, columns: Array(columns.prefix(3)), compression: .none)
        }
        #expect(throws: ParquetError(file: "row group", reason: "column id: values of int64 for a string column")) {
            try EncodedRowGroup(schema: Self.schema, columns: wrongType, compression: .none)
        }
        #expect(throws: ParquetError(file: "row group", reason: "column kcal: values of double for a double (nullable) column")) {
            try EncodedRowGroup(schema: Self.schema, columns: notNullable, compression: .none)
        }
        #expect(throws: ParquetError(file: "row group", reason: "column at: 5001 rows, the first column has 5000")) {
            try EncodedRowGroup(schema: Self.schema, columns: columns, compression: .none)
        }
    }

    @Test("a row group of another schema, an append after finish, repeated or empty names")
    func misuse() throws {
        // Given a writer
        let file = ScratchFile()
        var sut = try ParquetFileWriter(path: file.path, schema: Self.schema)
        let other = ParquetSchema(columns: [ParquetColumnSchema(name: "x", type: .int64)])
        // When it is misused
        // Then each misuse is refused
        #expect(throws: ParquetError(file: file.path, reason: "row group of another schema")) {
            try sut.append(try EncodedRowGroup(schema: other, columns: [Values.int64([1])], compression: .none))
        }
        _ = try sut.finish()
        #expect(throws: ParquetError(file: file.path, reason: "append after finish")) {
            try sut.append(try EncodedRowGroup(schema: Self.schema, columns: Self.columns(0), compression: .none))
        }
        #expect(throws: ParquetError(file: file.path, reason: "finish called twice")) { _ = try sut.finish() }
        let repeated = ParquetSchema(columns: [ParquetColumnSchema(name: "a", type: .int64), ParquetColumnSchema(name: "a", type: .double)])
        #expect(throws: ParquetError(file: file.path, reason: "column name 'a' is empty or repeated")) {
            _ = try ParquetFileWriter(path: file.path, schema: repeated)
        }
        #expect(throws: ParquetError(file: "/nonexistent/dir/f.parquet", reason: "cannot create: No such file or directory")) {
            _ = try ParquetFileWriter(path: "/nonexistent/dir/f.parquet", schema: Self.schema)
        }
    }

    @Test("the footer: created_by, format version 2, TYPE_ORDER column orders, converted and logical types")
    func footerFields() throws {
        // Given a file of every type
        let schema = ParquetSchema(columns: [
            ParquetColumnSchema(name: "i", type: .int64), ParquetColumnSchema(name: "t", type: .timestampMicros, nullable: true),
            ParquetColumnSchema(name: "d", type: .double), ParquetColumnSchema(name: "s", type: .string),
        ])
        let bytes = try fileBytes(schema, [Values.int64([1]), Values.int64([2], type: .timestampMicros, nullable: true), Values.double([3]), Values.string(["4"])])
        // When its footer is parsed
        let sut = try footer(bytes)
        // Then it says what the format asks
        #expect(sut.version == 2)
        #expect(sut.createdBy == "simharness")
        #expect(sut.typeOrders == 4)
        #expect(sut.schema.map(\.convertedType) == [nil, ConvertedType.int64, ConvertedType.timestampMicros, nil, ConvertedType.utf8])
        #expect(sut.schema.map(\.logicalType) == [nil, .integer(bits: 64, signed: true), .timestamp(utc: true, unit: 2), nil, .string])
        #expect(sut.schema.map(\.repetition) == [nil, 0, 1, 0, 0])
        #expect(bytes.suffix(4) == Array("PAR1".utf8)[...])
    }
}
