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
