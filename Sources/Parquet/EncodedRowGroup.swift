/// One row group with every column encoded and compressed: a pure value that any child task can make,
/// so that a writer can encode row groups in parallel and append them in order.
public struct EncodedRowGroup: Sendable {
    /// The schema the columns were encoded for.
    public let schema: ParquetSchema
    /// The number of rows.
    public let rows: Int
    let chunks: [EncodedColumnChunk]

    /// Encodes `columns` (one per schema column, in order, each of the column's type and nullability,
    /// all of the same row count) with `compression`.
    public init(schema: ParquetSchema, columns: [ParquetColumnValues], compression: ParquetCompression) throws {
        guard columns.count == schema.columns.count else {
            throw ParquetError(file: "row group", reason: "\(columns.count) columns of values for a schema of \(schema.columns.count)")
        }
        let rows = columns.first?.count ?? 0
        for (values, column) in zip(columns, schema.columns) {
            guard values.type == column.type, values.nullable == column.nullable else {
                throw ParquetError(file: "row group", reason: "column \(column.name): values of \(values.type)\(values.nullable ? " (nullable)" : "") for a \(column.type)\(column.nullable ? " (nullable)" : "") column")
            }
            guard values.count == rows else {
                throw ParquetError(file: "row group", reason: "column \(column.name): \(values.count) rows, the first column has \(rows)")
            }
        }
        let compressor = PageCompressor(compression)
        do {
            chunks = try zip(columns, schema.columns).map { try ColumnChunkEncoder.encode($0, column: $1, compressor: compressor) }
        } catch let error as ParquetFormatError {
            throw ParquetError(file: "row group", reason: error.reason)
        }
        self.schema = schema
        self.rows = rows
    }

    /// The encoded size: pages and their headers.
    public var bytes: Int { chunks.reduce(0) { $0 + $1.bytes.count } }
}
