/// What the reader checks in a footer before it trusts it: a flat schema of known types, and row groups
/// whose column chunks match it and lie within the file's data.
extension ParquetFileReader {
    /// The schema of a footer's elements: a root and its leaves, nothing nested or repeated.
    static func schema(of elements: [SchemaElement]) throws -> ParquetSchema {
        guard let root = elements.first else { throw ParquetFormatError("empty schema") }
        guard Int(root.numChildren ?? 0) == elements.count - 1 else {
            throw ParquetFormatError("nested schemas are not supported (the root has \(root.numChildren ?? 0) children of \(elements.count - 1) elements)")
        }
        var columns: [ParquetColumnSchema] = []
        for e in elements.dropFirst() {
            guard (e.numChildren ?? 0) == 0, e.type != nil else { throw ParquetFormatError("column \(e.name): nested schemas are not supported") }
            guard let repetition = e.repetition, repetition == 0 || repetition == 1 else {
                throw ParquetFormatError("column \(e.name): repeated or unannotated columns are not supported")
            }
            columns.append(ParquetColumnSchema(name: e.name, type: try type(of: e), nullable: repetition == 1))
        }
        return ParquetSchema(columns: columns)
    }

    private static func type(of e: SchemaElement) throws -> ParquetType {
        let physical = e.type.flatMap(PhysicalType.init(rawValue:))
        switch (physical, e.logicalType, e.convertedType) {
        case (.int64?, nil, nil), (.int64?, .integer(64, true)?, _), (.int64?, nil, ConvertedType.int64?):
            return .int64
        case (.int64?, .timestamp(_, 2)?, _), (.int64?, nil, ConvertedType.timestampMicros?):
            return .timestampMicros
        case (.double?, nil, nil):
            return .double
        case (.byteArray?, .string?, _), (.byteArray?, nil, ConvertedType.utf8?):
            return .string
        default:
            let logical = e.logicalType.map { " with logical type \($0)" } ?? e.convertedType.map { " with converted type \($0)" } ?? ""
            throw ParquetFormatError("column \(e.name): type \(physical.map { "\($0)" } ?? "\(e.type ?? -1)")\(logical) is not supported")
        }
    }

    /// Checks row counts, column types and paths, codecs, and that every chunk lies between the magic and the footer.
    static func check(_ meta: FileMeta, schema: ParquetSchema, dataEnd: Int) throws {
        var rows: Int64 = 0
        for (g, group) in meta.rowGroups.enumerated() {
            guard group.numRows >= 0, group.numRows <= Int64(Int32.max) else { throw ParquetFormatError("row group \(g): \(group.numRows) rows") }
            rows += group.numRows
            guard group.columns.count == schema.columns.count else {
                throw ParquetFormatError("row group \(g): \(group.columns.count) column chunks for \(schema.columns.count) columns")
            }
            for (chunk, column) in zip(group.columns, schema.columns) {
                let physical: PhysicalType = column.type == .double ? .double : column.type == .string ? .byteArray : .int64
                guard chunk.type == physical.rawValue, chunk.path == [column.name] else {
                    throw ParquetFormatError("row group \(g), column \(column.name): chunk of type \(chunk.type), path \(chunk.path)")
                }
                guard let codec = Codec(rawValue: chunk.codec) else { throw ParquetFormatError("unsupported codec \(chunk.codec)") }
                guard codec == .uncompressed || codec == .gzip || codec == .zstd else { throw ParquetFormatError("unsupported codec \(codec.name)") }
                guard chunk.numValues == group.numRows else {
                    throw ParquetFormatError("row group \(g), column \(column.name): \(chunk.numValues) values for \(group.numRows) rows")
                }
                let start = chunk.dictionaryPageOffset ?? chunk.dataPageOffset
                guard start >= 4, chunk.compressedSize > 0, chunk.compressedSize <= Int64(dataEnd) - start else {
                    throw ParquetFormatError("row group \(g), column \(column.name): chunk of \(chunk.compressedSize) bytes at \(start) is outside the file's data")
                }
            }
        }
        guard rows == meta.numRows else { throw ParquetFormatError("the footer says \(meta.numRows) rows, its row groups hold \(rows)") }
    }
}
