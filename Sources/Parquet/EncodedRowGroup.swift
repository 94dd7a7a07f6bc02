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
        try self.init(schema: schema, runs: [columns], compression: compression)
    }

    /// Encodes consecutive runs of rows as one row group, without joining them: each run is columns
    /// as `init(schema:columns:compression:)` takes them. The bytes are those of the runs joined.
    public init(schema: ParquetSchema, runs: [[ParquetColumnValues]], compression: ParquetCompression) throws {
        var rows = 0
        for columns in runs {
            guard columns.count == schema.columns.count else {
                throw ParquetError(file: "row group", reason: "\(columns.count) columns of values for a schema of \(schema.columns.count)")
            }
            let runRows = columns.first?.count ?? 0
            for (values, column) in zip(columns, schema.columns) {
                guard values.type == column.type, values.nullable == column.nullable else {
                    throw ParquetError(file: "row group", reason: "column \(column.name): values of \(values.type)\(values.nullable ? " (nullable)" : "") for a \(column.type)\(column.nullable ? " (nullable)" : "") column")
                }
                guard values.count == runRows else {
                    throw ParquetError(file: "row group", reason: "column \(column.name): \(values.count) rows, the first column has \(runRows)")
                }
            }
            rows += runRows
        }
        // Empty runs add nothing; a group of no rows keeps one (empty) run.
        let filled = runs.filter { ($0.first?.count ?? 0) > 0 }
        let parts = filled.isEmpty ? Array(runs.prefix(1)) : filled
        let compressor = PageCompressor(compression)
        var body: [UInt8] = [], compressed: [UInt8] = []
        do {
            chunks = try schema.columns.indices.map { c in
                try ColumnChunkEncoder.encode(
                    ColumnRuns(parts.map { $0[c] }), column: schema.columns[c], compressor: compressor, body: &body, compressed: &compressed)
            }
        } catch let error as ParquetFormatError {
            throw ParquetError(file: "row group", reason: error.reason)
        }
        self.schema = schema
        self.rows = rows
    }

    /// The encoded size: pages and their headers.
    public var bytes: Int { chunks.reduce(0) { $0 + $1.bytes.count } }
}
