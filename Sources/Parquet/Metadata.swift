/// The parts of parquet.thrift this module writes and reads, with their compact-protocol field ids.
enum PhysicalType: Int32 {
    case boolean = 0, int32 = 1, int64 = 2, int96 = 3, float = 4, double = 5, byteArray = 6, fixedLenByteArray = 7
}

/// parquet.thrift's Encoding values used here.
enum Encoding {
    static let plain: Int32 = 0
    static let plainDictionary: Int32 = 2
    static let rle: Int32 = 3
    static let rleDictionary: Int32 = 8
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

/// LogicalType, as far as this module knows it.
enum LogicalType: Equatable {
    case string
    case integer(bits: Int8, signed: Bool)
    case timestamp(utc: Bool, unit: Int16)  // 1 millis, 2 micros, 3 nanos
    case other(Int16)

    func write(_ w: inout ThriftWriter) {
        switch self {
        case .string: w.structure(1) { _ in }
        case .integer(let bits, let signed):
            w.structure(10) { w in
                w.byte(1, UInt8(bitPattern: bits))
                w.bool(2, signed)
            }
        case .timestamp(let utc, let unit):
            w.structure(8) { w in
                w.bool(1, utc)
                w.structure(2) { $0.structure(unit) { _ in } }
            }
        case .other(let id): w.structure(id) { _ in }
        }
    }

    static func read(_ r: inout ThriftReader) throws -> LogicalType? {
        var result: LogicalType?
        try r.readStruct { r, id, type in
            guard type == .structure else { return false }
            switch id {
            case 1: result = .string; try r.skip(type)
            case 10:
                var bits: Int8 = 0, signed = false
                try r.readStruct { r, id, type in
                    switch (id, type) {
                    case (1, .byte): bits = Int8(bitPattern: try r.byte())
                    case (2, _): signed = try ThriftReader.bool(type)
                    default: return false
                    }
                    return true
                }
                result = .integer(bits: bits, signed: signed)
            case 8:
                var utc = false, unit: Int16 = 0
                try r.readStruct { r, id, type in
                    switch (id, type) {
                    case (1, _): utc = try ThriftReader.bool(type)
                    case (2, .structure):
                        try r.readStruct { r, id, type in
                            unit = id
                            return false
                        }
                    default: return false
                    }
                    return true
                }
                result = .timestamp(utc: utc, unit: unit)
            default: result = .other(id); try r.skip(type)
            }
            return true
        }
        return result
    }
}

/// SchemaElement.
struct SchemaElement: Equatable {
    var type: Int32?
    var repetition: Int32?
    var name = ""
    var numChildren: Int32?
    var convertedType: Int32?
    var logicalType: LogicalType?

    func write(_ w: inout ThriftWriter) {
        if let type { w.i32(1, type) }
        if let repetition { w.i32(3, repetition) }
        w.string(4, name)
        if let numChildren { w.i32(5, numChildren) }
        if let convertedType { w.i32(6, convertedType) }
        if let logicalType { w.structure(10) { logicalType.write(&$0) } }
    }

    static func read(_ r: inout ThriftReader) throws -> SchemaElement {
        var e = SchemaElement()
        try r.readStruct { r, id, type in
            switch (id, type) {
            case (1, .i32): e.type = try r.i32()
            case (3, .i32): e.repetition = try r.i32()
            case (4, .binary): e.name = try r.string()
            case (5, .i32): e.numChildren = try r.i32()
            case (6, .i32): e.convertedType = try r.i32()
            case (10, .structure): e.logicalType = try LogicalType.read(&r)
            default: return false
            }
            return true
        }
        return e
    }
}

/// FileMetaData: the footer.
struct FileMeta: Equatable {
    var version: Int32 = 2
    var schema: [SchemaElement] = []
    var numRows: Int64 = 0
    var rowGroups: [RowGroupMeta] = []
    var keyValues: [KeyValue] = []
    var createdBy: String?
    /// How many column_orders entries are TYPE_ORDER (read only: the writer writes one a column).
    var typeOrders = 0

    /// A key and its value (KeyValue).
    struct KeyValue: Equatable {
        var key: String
        var value: String?
    }

    func write() -> [UInt8] {
        var w = ThriftWriter()
        w.i32(1, version)
        w.list(2, .structure, count: schema.count)
        for element in schema { w.element { element.write(&$0) } }
        w.i64(3, numRows)
        w.list(4, .structure, count: rowGroups.count)
        for group in rowGroups { w.element { group.write(&$0) } }
        if !keyValues.isEmpty {
            w.list(5, .structure, count: keyValues.count)
            for pair in keyValues {
                w.element { w in
                    w.string(1, pair.key)
                    if let value = pair.value { w.string(2, value) }
                }
            }
        }
        if let createdBy { w.string(6, createdBy) }
        // column_orders: TYPE_ORDER for every leaf column, so readers trust min_value/max_value.
        let leaves = schema.count - 1
        w.list(7, .structure, count: leaves)
        for _ in 0..<leaves { w.element { $0.structure(1) { _ in } } }
        return w.finish()
    }

    static func read(_ r: inout ThriftReader) throws -> FileMeta {
        var m = FileMeta()
        m.version = 0
        try r.readStruct { r, id, type in
            switch (id, type) {
            case (1, .i32): m.version = try r.i32()
            case (2, .list):
                let count = try r.list(of: .structure)
                for _ in 0..<count { m.schema.append(try SchemaElement.read(&r)) }
            case (3, .i64): m.numRows = try r.zigzag()
            case (4, .list):
                let count = try r.list(of: .structure)
                for _ in 0..<count { m.rowGroups.append(try RowGroupMeta.read(&r)) }
            case (5, .list):
                let count = try r.list(of: .structure)
                for _ in 0..<count {
                    var pair = KeyValue(key: "", value: nil)
                    try r.readStruct { r, id, type in
                        switch (id, type) {
                        case (1, .binary): pair.key = try r.string()
                        case (2, .binary): pair.value = try r.string()
                        default: return false
                        }
                        return true
                    }
                    m.keyValues.append(pair)
                }
            case (6, .binary): m.createdBy = try r.string()
            case (7, .list):
                for _ in 0..<(try r.list(of: .structure)) {
                    try r.readStruct { r, id, type in
                        if id == 1 && type == .structure { m.typeOrders += 1 }
                        return false
                    }
                }
            default: return false
            }
            return true
        }
        return m
    }
}
