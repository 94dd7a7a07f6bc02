/// The parts of parquet.thrift this module writes and reads, with their compact-protocol field ids.
enum PhysicalType: Int32 {
    case boolean = 0, int32 = 1, int64 = 2, int96 = 3, float = 4, double = 5, byteArray = 6, fixedLenByteArray = 7
}

/// parquet.thrift's Encoding values used here.
enum Encoding {
    static let plain: Int32 = 0
    static let plainDictionary: Int32 = 2
    static let rle: Int32 = 3
    static let deltaBinaryPacked: Int32 = 5
    static let deltaLengthByteArray: Int32 = 6
    static let deltaByteArray: Int32 = 7
    static let rleDictionary: Int32 = 8

    /// The encoding's name in parquet.thrift, or its number.
    static func name(_ value: Int32) -> String {
        let names = [0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED", 5: "DELTA_BINARY_PACKED", 6: "DELTA_LENGTH_BYTE_ARRAY",
                     7: "DELTA_BYTE_ARRAY", 8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT"]
        return names[Int(value)] ?? "\(value)"
    }
}

/// parquet.thrift's CompressionCodec.
enum Codec: Int32 {
    case uncompressed = 0, snappy = 1, gzip = 2, lzo = 3, brotli = 4, lz4 = 5, zstd = 6, lz4Raw = 7

    var name: String {
        switch self {
        case .uncompressed: "UNCOMPRESSED"
        case .snappy: "SNAPPY"
        case .gzip: "GZIP"
        case .lzo: "LZO"
        case .brotli: "BROTLI"
        case .lz4: "LZ4"
        case .zstd: "ZSTD"
        case .lz4Raw: "LZ4_RAW"
        }
    }
}

/// parquet.thrift's PageType.
enum PageType: Int32 {
    case dataPage = 0, indexPage = 1, dictionaryPage = 2, dataPageV2 = 3
}

/// Statistics: null count and min/max in the column's sort order (fields 3, 5, 6).
struct Statistics: Equatable {
    var nullCount: Int64?
    var min: [UInt8]?
    var max: [UInt8]?

    func write(_ w: inout ThriftWriter) {
        if let nullCount { w.i64(3, nullCount) }
        if let max { w.binary(5, max) }
        if let min { w.binary(6, min) }
    }

    static func read(_ r: inout ThriftReader) throws -> Statistics {
        var s = Statistics()
        try r.readStruct { r, id, type in
            switch (id, type) {
            case (3, .i64): s.nullCount = try r.zigzag()
            case (5, .binary): s.max = Array(try r.binary())
            case (6, .binary): s.min = Array(try r.binary())
            default: return false
            }
            return true
        }
        return s
    }
}

/// ColumnMetaData (inside ColumnChunk field 3).
struct ColumnMeta: Equatable {
    var type: Int32 = 0
    var encodings: [Int32] = []
    var path: [String] = []
    var codec: Int32 = 0
    var numValues: Int64 = 0
    var uncompressedSize: Int64 = 0
    var compressedSize: Int64 = 0
    var dataPageOffset: Int64 = 0
    var dictionaryPageOffset: Int64?
    var statistics: Statistics?

    /// The ColumnChunk struct around this metadata.
    func writeChunk(_ w: inout ThriftWriter) {
        w.i64(2, dictionaryPageOffset ?? dataPageOffset)
        w.structure(3) { w in
            w.i32(1, type)
            w.i32List(2, encodings)
            w.stringList(3, path)
            w.i32(4, codec)
            w.i64(5, numValues)
            w.i64(6, uncompressedSize)
            w.i64(7, compressedSize)
            w.i64(9, dataPageOffset)
            if let dictionaryPageOffset { w.i64(11, dictionaryPageOffset) }
            if let statistics { w.structure(12) { statistics.write(&$0) } }
        }
    }

    static func readChunk(_ r: inout ThriftReader) throws -> ColumnMeta {
        var meta: ColumnMeta?
        try r.readStruct { r, id, type in
            switch (id, type) {
            case (1, .binary): throw ParquetFormatError("column chunk in another file (file_path) is not supported")
            case (3, .structure): meta = try read(&r)
            default: return false
            }
            return true
        }
        guard let meta else { throw ParquetFormatError("column chunk without metadata") }
        return meta
    }

    private static func read(_ r: inout ThriftReader) throws -> ColumnMeta {
        var m = ColumnMeta()
        try r.readStruct { r, id, type in
            switch (id, type) {
            case (1, .i32): m.type = try r.i32()
            case (2, .list):
                for _ in 0..<(try r.list(of: .i32)) { m.encodings.append(try r.i32()) }
            case (3, .list):
                for _ in 0..<(try r.list(of: .binary)) { m.path.append(try r.string()) }
            case (4, .i32): m.codec = try r.i32()
            case (5, .i64): m.numValues = try r.zigzag()
            case (6, .i64): m.uncompressedSize = try r.zigzag()
            case (7, .i64): m.compressedSize = try r.zigzag()
            case (9, .i64): m.dataPageOffset = try r.zigzag()
            case (11, .i64): m.dictionaryPageOffset = try r.zigzag()
            case (12, .structure): m.statistics = try Statistics.read(&r)
            default: return false
            }
            return true
        }
        return m
    }
}

/// RowGroup.
struct RowGroupMeta: Equatable {
    var columns: [ColumnMeta] = []
    var totalByteSize: Int64 = 0
    var numRows: Int64 = 0
    var fileOffset: Int64 = 0
    var totalCompressedSize: Int64 = 0

    func write(_ w: inout ThriftWriter) {
        w.list(1, .structure, count: columns.count)
        for column in columns { w.element { column.writeChunk(&$0) } }
        w.i64(2, totalByteSize)
        w.i64(3, numRows)
        w.i64(5, fileOffset)
        w.i64(6, totalCompressedSize)
    }

    static func read(_ r: inout ThriftReader) throws -> RowGroupMeta {
        var g = RowGroupMeta()
        try r.readStruct { r, id, type in
            switch (id, type) {
            case (1, .list):
                let count = try r.list(of: .structure)
                for _ in 0..<count { g.columns.append(try ColumnMeta.readChunk(&r)) }
            case (2, .i64): g.totalByteSize = try r.zigzag()
            case (3, .i64): g.numRows = try r.zigzag()
            default: return false
            }
            return true
        }
        return g
    }
}
