#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#else
import Darwin
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif

/// Writes a Parquet file: the magic, then row groups appended in order, then the footer on `finish()`.
/// The output depends only on the schema, the metadata and the row groups: the same input gives the same bytes.
public struct ParquetFileWriter {
    /// The schema every appended row group must have.
    public let schema: ParquetSchema
    private let path: String
    private let sink: FileSink
    private var footer: FileMeta
    private var offset = 4
    private var finished = false

    /// Creates (or truncates) the file at `path` and writes its leading magic.
    public init(path: String, schema: ParquetSchema, keyValueMetadata: [(key: String, value: String)] = []) throws {
        self.path = path
        self.schema = schema
        var names = Set<String>()
        for column in schema.columns {
            guard !column.name.isEmpty, names.insert(column.name).inserted else {
                throw ParquetError(file: path, reason: "column name '\(column.name)' is empty or repeated")
            }
        }
        footer = FileMeta(schema: SchemaElement.elements(of: schema), keyValues: keyValueMetadata.map { .init(key: $0.key, value: $0.value) }, createdBy: "simharness")
        sink = try FileSink(path: path)
        try sink.write(Array("PAR1".utf8), path: path)
    }

    /// Writes `rowGroup`'s column chunks after those already written.
    public mutating func append(_ rowGroup: EncodedRowGroup) throws {
        guard !finished else { throw ParquetError(file: path, reason: "append after finish") }
        guard rowGroup.schema == schema else { throw ParquetError(file: path, reason: "row group of another schema") }
        var group = RowGroupMeta(numRows: Int64(rowGroup.rows), fileOffset: Int64(offset))
        for chunk in rowGroup.chunks {
            var meta = chunk.meta
            meta.dataPageOffset += Int64(offset)
            if let dictionary = meta.dictionaryPageOffset { meta.dictionaryPageOffset = dictionary + Int64(offset) }
            try sink.write(chunk.bytes, path: path)
            offset += chunk.bytes.count
            group.columns.append(meta)
            group.totalByteSize += meta.uncompressedSize
            group.totalCompressedSize += meta.compressedSize
        }
        footer.rowGroups.append(group)
        footer.numRows += Int64(rowGroup.rows)
    }

    /// Writes the footer and closes the file; returns the rows and bytes written.
    public mutating func finish() throws -> (rows: Int, bytes: Int) {
        guard !finished else { throw ParquetError(file: path, reason: "finish called twice") }
        finished = true
        let metadata = footer.write()
        var tail = metadata
        let length = UInt32(metadata.count)
        for k in 0..<4 { tail.append(UInt8(truncatingIfNeeded: length >> (8 * k))) }
        tail.append(contentsOf: Array("PAR1".utf8))
        try sink.write(tail, path: path)
        try sink.close(path: path)
        return (Int(footer.numRows), offset + tail.count)
    }
}

/// The file descriptor behind a writer: closed when the last writer copy goes away without finishing.
private final class FileSink {
    private var descriptor: Int32

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ParquetError(file: path, reason: "cannot create: \(String(cString: strerror(errno)))") }
    }

    deinit { if descriptor >= 0 { systemClose(descriptor) } }

    func write(_ bytes: [UInt8], path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = systemWrite(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw ParquetError(file: path, reason: "write failed: \(String(cString: strerror(errno)))") }
                done += n
            }
        }
    }

    func close(path: String) throws {
        let status = systemClose(descriptor)
        descriptor = -1
        guard status == 0 else { throw ParquetError(file: path, reason: "close failed: \(String(cString: strerror(errno)))") }
    }
}

extension SchemaElement {
    /// The schema's elements: the root, then one leaf a column with its physical, converted and logical types.
    static func elements(of schema: ParquetSchema) -> [SchemaElement] {
        var elements = [SchemaElement(name: "schema", numChildren: Int32(schema.columns.count))]
        for column in schema.columns {
            var e = SchemaElement(repetition: column.nullable ? 1 : 0, name: column.name)
            switch column.type {
            case .int64:
                e.type = PhysicalType.int64.rawValue
                e.convertedType = ConvertedType.int64
                e.logicalType = .integer(bits: 64, signed: true)
            case .timestampMicros:
                e.type = PhysicalType.int64.rawValue
                e.convertedType = ConvertedType.timestampMicros
                e.logicalType = .timestamp(utc: true, unit: 2)
            case .double:
                e.type = PhysicalType.double.rawValue
            case .string:
                e.type = PhysicalType.byteArray.rawValue
                e.convertedType = ConvertedType.utf8
                e.logicalType = .string
            }
            elements.append(e)
        }
        return elements
    }
}

/// parquet.thrift's ConvertedType values used here.
enum ConvertedType {
    static let utf8: Int32 = 0
    static let timestampMillis: Int32 = 9
    static let timestampMicros: Int32 = 10
    static let int64: Int32 = 18
}
