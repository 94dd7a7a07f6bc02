import Foundation
@testable import Parquet

/// A file path under the temporary directory, removed when the value goes away.
final class ScratchFile: Sendable {
    let path: String

    init(_ name: String = "t.parquet") {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("parquet-test-\(UUID().uuidString)-\(name)").path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var bytes: [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }
}

/// Builds column values from Swift values: nil is a null row.
enum Values {
    static func int64(_ values: [Int64?], type: ParquetType = .int64, nullable: Bool = false) -> ParquetColumnValues {
        var sut = ParquetColumnValues(type: type, nullable: nullable)
        for v in values {
            if let v { sut.append(v) } else { sut.appendNull() }
        }
        return sut
    }

    static func double(_ values: [Double?], nullable: Bool = false) -> ParquetColumnValues {
        var sut = ParquetColumnValues(type: .double, nullable: nullable)
        for v in values {
            if let v { sut.append(v) } else { sut.appendNull() }
        }
        return sut
    }

    static func string(_ values: [String?], nullable: Bool = false) -> ParquetColumnValues {
        var sut = ParquetColumnValues(type: .string, nullable: nullable)
        for v in values {
            if let v {
                var s = v
                s.withUTF8 { sut.append(utf8: $0) }
            } else {
                sut.appendNull()
            }
        }
        return sut
    }
}

/// A row of a column as a comparable value: nil for null, the bit pattern of a double.
enum Cell: Equatable, CustomStringConvertible {
    case int(Int64), double(UInt64), string(String)

    var description: String {
        switch self {
        case .int(let v): "\(v)"
        case .double(let v): "\(Double(bitPattern: v))"
        case .string(let v): "'\(v)'"
        }
    }
}

extension ParquetColumnValues {
    /// Every row as a `Cell` (nil when null).
    var cells: [Cell?] {
        (0..<count).map { row in
            if isNull(row) { return nil }
            switch type {
            case .int64, .timestampMicros: return .int(int64(row))
            case .double: return .double(double(row).bitPattern)
            case .string: return .string(withUTF8(row) { String(decoding: $0, as: UTF8.self) })
            }
        }
    }
}

/// Writes `columns` as one row group (or `groups` equal ones) and opens the file.
func writeAndRead(_ schema: ParquetSchema, _ columns: [ParquetColumnValues], compression: ParquetCompression = .none,
                  groups: Int = 1, metadata: [(key: String, value: String)] = [], file: ScratchFile = ScratchFile()) throws -> ParquetFileReader {
    var writer = try ParquetFileWriter(path: file.path, schema: schema, keyValueMetadata: metadata)
    for _ in 0..<groups { try writer.append(try EncodedRowGroup(schema: schema, columns: columns, compression: compression)) }
    _ = try writer.finish()
    return try ParquetFileReader(path: file.path)
}

/// The bytes of a file of `columns` written as one row group.
func fileBytes(_ schema: ParquetSchema, _ columns: [ParquetColumnValues], compression: ParquetCompression = .none) throws -> [UInt8] {
    let file = ScratchFile()
    _ = try writeAndRead(schema, columns, compression: compression, file: file)
    return file.bytes
}

/// The footer of a file's bytes, parsed with the module's own thrift reader.
func footer(_ bytes: [UInt8]) throws -> FileMeta {
    let n = bytes.count
    let length = Int(bytes[n - 8]) | Int(bytes[n - 7]) << 8 | Int(bytes[n - 6]) << 16 | Int(bytes[n - 5]) << 24
    return try bytes.withUnsafeBytes { raw in
        var reader = ThriftReader(UnsafeRawBufferPointer(rebasing: raw[(n - 8 - length)..<(n - 8)]))
        return try FileMeta.read(&reader)
    }
}

/// One column chunk's metadata and page headers.
struct ChunkInspector {
    let meta: ColumnMeta
    var dictionaryPage: PageHeader?
    var dataPages: [PageHeader] = []
    /// Where each data page's header starts in the file.
    var dataPageOffsets: [Int] = []

    init?(_ bytes: [UInt8], rowGroup: Int, column: Int) {
        guard let file = try? footer(bytes) else { return nil }
        meta = file.rowGroups[rowGroup].columns[column]
        var position = Int(meta.dictionaryPageOffset ?? meta.dataPageOffset)
        let end = position + Int(meta.compressedSize)
        while position < end {
            let parsed: (PageHeader, Int)? = bytes.withUnsafeBytes { raw in
                var reader = ThriftReader(raw, at: position)
                guard let header = try? PageHeader.read(&reader) else { return nil }
                return (header, reader.position)
            }
            guard let (header, bodyStart) = parsed else { return nil }
            if header.type == PageType.dictionaryPage.rawValue {
                dictionaryPage = header
            } else {
                dataPages.append(header)
                dataPageOffsets.append(position)
            }
            position = bodyStart + Int(header.compressedSize)
        }
    }
}

/// Hand-made files: pages and footers with whatever values a test wants, made with the module's thrift writer.
enum Crafted {
    /// A page: its header (sizes and counts as given, or the body's) and its body.
    static func page(_ type: PageType = .dataPage, values: Int, encoding: Int32 = Encoding.plain, body: [UInt8],
                     compressedSize: Int? = nil, uncompressedSize: Int? = nil) -> [UInt8] {
        var w = ThriftWriter()
        w.i32(1, type.rawValue)
        w.i32(2, Int32(uncompressedSize ?? body.count))
        w.i32(3, Int32(compressedSize ?? body.count))
        w.structure(type == .dictionaryPage ? 7 : 5) { w in
            w.i32(1, Int32(values))
            w.i32(2, encoding)
        }
        return w.finish() + body
    }

    /// A file of one column whose single chunk is `pages`, with the footer's fields as given.
    static func file(_ column: ParquetColumnSchema, rows: Int, pages: [[UInt8]], codec: Int32 = Codec.uncompressed.rawValue,
                     dictionary: Bool = false, edit: (inout FileMeta) -> Void = { _ in }) -> [UInt8] {
        let chunk = pages.flatMap { $0 }
        var meta = FileMeta(schema: SchemaElement.elements(of: ParquetSchema(columns: [column])), numRows: Int64(rows))
        var columnMeta = ColumnMeta(type: (column.type == .double ? PhysicalType.double : column.type == .string ? .byteArray : .int64).rawValue,
                                    encodings: [Encoding.plain], path: [column.name], codec: codec, numValues: Int64(rows),
                                    uncompressedSize: Int64(chunk.count), compressedSize: Int64(chunk.count),
                                    dataPageOffset: dictionary ? 4 + Int64(pages[0].count) : 4)
        if dictionary { columnMeta.dictionaryPageOffset = 4 }
        meta.rowGroups = [RowGroupMeta(columns: [columnMeta], totalByteSize: Int64(chunk.count), numRows: Int64(rows), fileOffset: 4)]
        edit(&meta)
        return assemble(chunk, meta.write())
    }

    /// Magic, data, footer, its length, magic.
    static func assemble(_ data: [UInt8], _ footer: [UInt8]) -> [UInt8] {
        let length = UInt32(footer.count)
        return Array("PAR1".utf8) + data + footer + (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) } + Array("PAR1".utf8)
    }

    /// PLAIN INT64 values.
    static func plain(_ values: [Int64]) -> [UInt8] { values.flatMap { v in (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } } }
}

/// The error reading `bytes` as a file and every column of it gives, or nil when it reads.
func readError(_ bytes: [UInt8]) -> ParquetError? {
    do {
        let sut = try ParquetFileReader(bytes: bytes, name: "bad.parquet")
        for group in 0..<sut.rowGroupCount {
            for column in 0..<sut.schema.columns.count { _ = try sut.read(rowGroup: group, column: column) }
        }
        return nil
    } catch let error as ParquetError {
        return error
    } catch {
        return ParquetError(file: "?", reason: "not a ParquetError: \(error)")
    }
}
