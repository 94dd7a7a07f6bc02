// parquet.thrift's footer: FileMetaData, its SchemaElements and their LogicalTypes.

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
