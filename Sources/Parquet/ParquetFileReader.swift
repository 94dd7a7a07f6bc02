/// Reads Parquet files of flat schemas whose columns are INT64 (plain, INTEGER(64, signed) or
/// TIMESTAMP(MICROS)), DOUBLE and STRING, from this module's writer or another (pyarrow's, for one):
/// PLAIN and dictionary encodings, data pages v1 and v2, codecs UNCOMPRESSED, GZIP and ZSTD.
/// Every length, offset and count in the file is checked before use: bad bytes give a `ParquetError`.
/// `read(rowGroup:column:)` may run on several tasks at once (each reads its chunk with `pread`).
public struct ParquetFileReader: Sendable {
    /// The file's columns.
    public let schema: ParquetSchema
    /// The footer's key-value metadata (a repeated key keeps its last value; a key without a value maps to "").
    public let keyValueMetadata: [String: String]
    /// The number of rows in the file.
    public let rowCount: Int
    private let name: String
    private let source: ByteSource
    private let groups: [RowGroupMeta]

    /// Opens the file at `path` and reads its footer.
    public init(path: String) throws {
        try self.init(source: .file(try OpenFile(path: path)), name: path)
    }

    /// Reads a file held in memory; `name` is the file named in errors.
    public init(bytes: [UInt8], name: String) throws {
        try self.init(source: .memory(bytes), name: name)
    }

    private init(source: ByteSource, name: String) throws {
        self.name = name
        self.source = source
        let size = source.count
        guard size >= 12 else { throw ParquetError(file: name, offset: 0, reason: "not a Parquet file: \(size) bytes, too short") }
        let head = try source.read(offset: 0, count: 4, name: name)
        let tail = try source.read(offset: size - 8, count: 8, name: name)
        guard head == Array("PAR1".utf8) else { throw ParquetError(file: name, offset: 0, reason: "not a Parquet file: bad magic at the start") }
        guard Array(tail[4...]) == Array("PAR1".utf8) else { throw ParquetError(file: name, offset: size - 4, reason: "not a Parquet file: bad magic at the end") }
        let length = Int(tail[0]) | Int(tail[1]) << 8 | Int(tail[2]) << 16 | Int(tail[3]) << 24
        guard length <= size - 12 else {
            throw ParquetError(file: name, offset: size - 8, reason: "footer length \(length) is past the start of the file")
        }
        let footerStart = size - 8 - length
        let footer = try source.read(offset: footerStart, count: length, name: name)
        let meta: FileMeta = try footer.withUnsafeBytes { bytes in
            var reader = ThriftReader(bytes)
            do {
                return try FileMeta.read(&reader)
            } catch let error as ParquetFormatError {
                throw ParquetError(file: name, offset: footerStart + reader.position, reason: "footer: \(error.reason)")
            }
        }
        do {
            schema = try Self.schema(of: meta.schema)
            try Self.check(meta, schema: schema, dataEnd: footerStart)
        } catch let error as ParquetFormatError {
            throw ParquetError(file: name, offset: footerStart, reason: error.reason)
        }
        groups = meta.rowGroups
        rowCount = Int(meta.numRows)
        keyValueMetadata = Dictionary(meta.keyValues.map { ($0.key, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    }

    /// The number of row groups.
    public var rowGroupCount: Int { groups.count }

    /// The number of rows in row group `index` (0 when there is no such row group).
    public func rowCount(ofRowGroup index: Int) -> Int {
        groups.indices.contains(index) ? Int(groups[index].numRows) : 0
    }

    /// Decodes column `column` of row group `rowGroup`: every row, nulls included.
    public func read(rowGroup: Int, column: Int) throws -> ParquetColumnValues {
        var values = ParquetColumnValues(type: .int64)
        try read(rowGroup: rowGroup, column: column, into: &values)
        return values
    }

    /// Decodes column `column` of row group `rowGroup` into `values`, replacing its rows (and type) and
    /// reusing its memory: for a reader that visits many row groups.
    public func read(rowGroup: Int, column: Int, into values: inout ParquetColumnValues) throws {
        var indices: [UInt32] = []
        try decode(rowGroup: rowGroup, column: column, into: &values, indices: &indices, keepingIndices: false)
    }

    /// As `read(rowGroup:column:into:)`, but a chunk of a column that is not nullable whose data pages
    /// are all dictionary-encoded is left encoded: `values` gets the dictionary's entries and `indices`
    /// the entry of each row (each checked to be one); for any other chunk `values` gets every row and
    /// `indices` is emptied. (`ParquetColumnValues.withStorage(indices:)` views the rows either way.)
    public func read(rowGroup: Int, column: Int, into values: inout ParquetColumnValues, indices: inout [UInt32]) throws {
        try decode(rowGroup: rowGroup, column: column, into: &values, indices: &indices, keepingIndices: true)
    }

    private func decode(
        rowGroup: Int, column: Int, into values: inout ParquetColumnValues, indices: inout [UInt32], keepingIndices: Bool
    ) throws {
        guard groups.indices.contains(rowGroup), schema.columns.indices.contains(column) else {
            throw ParquetError(file: name, reason: "no column \(column) in row group \(rowGroup) (\(groups.count) row groups of \(schema.columns.count) columns)")
        }
        let meta = groups[rowGroup].columns[column]
        let start = Int(meta.dictionaryPageOffset ?? meta.dataPageOffset)
        let bytes = try source.read(offset: start, count: Int(meta.compressedSize), name: name)
        var decoder = ColumnChunkDecoder(
            column: schema.columns[column], codec: Codec(rawValue: meta.codec) ?? .uncompressed, rows: Int(meta.numValues),
            keepingIndices: keepingIndices
        )
        decoder.reuse(&values, indices: &indices)
        do {
            try bytes.withUnsafeBytes { try decoder.decode($0) }
        } catch let error as ParquetFormatError {
            throw ParquetError(file: name, offset: start + decoder.position, reason: "column \(schema.columns[column].name), row group \(rowGroup): \(error.reason)")
        }
        values = decoder.takeValues()
        indices = decoder.takeIndices()
    }
}
