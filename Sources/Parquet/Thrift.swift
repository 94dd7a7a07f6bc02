/// Thrift compact protocol: the encoding of Parquet's page headers and footer.
enum ThriftType: UInt8 {
    case stop = 0, boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7
    case binary = 8, list = 9, set = 10, map = 11, structure = 12
}

/// Writes compact-protocol structs: fields in increasing id order, nested structs through `structure`.
struct ThriftWriter {
    var out: [UInt8] = []
    private var lastField: Int16 = 0
    private var outer: [Int16] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    mutating func zigzag(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    private mutating func field(_ id: Int16, _ type: ThriftType) {
        let delta = id - lastField
        if delta > 0 && delta <= 15 {
            out.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            out.append(type.rawValue)
            zigzag(Int64(id))
        }
        lastField = id
    }

    mutating func i32(_ id: Int16, _ value: Int32) {
        field(id, .i32)
        zigzag(Int64(value))
    }

    mutating func i64(_ id: Int16, _ value: Int64) {
        field(id, .i64)
        zigzag(value)
    }

    mutating func byte(_ id: Int16, _ value: UInt8) {
        field(id, .byte)
        out.append(value)
    }

    mutating func bool(_ id: Int16, _ value: Bool) { field(id, value ? .boolTrue : .boolFalse) }

    mutating func binary(_ id: Int16, _ value: [UInt8]) {
        field(id, .binary)
        varint(UInt64(value.count))
        out.append(contentsOf: value)
    }

    mutating func string(_ id: Int16, _ value: String) { binary(id, Array(value.utf8)) }

    /// A struct field: `body` writes its fields.
    mutating func structure(_ id: Int16, _ body: (inout ThriftWriter) -> Void) {
        field(id, .structure)
        beginStruct()
        body(&self)
        endStruct()
    }

    /// A list field's header; the caller then writes `count` elements.
    mutating func list(_ id: Int16, _ element: ThriftType, count: Int) {
        field(id, .list)
        if count < 15 {
            out.append(UInt8(count) << 4 | element.rawValue)
        } else {
            out.append(0xF0 | element.rawValue)
            varint(UInt64(count))
        }
    }

    /// A list of i32 values (enums).
    mutating func i32List(_ id: Int16, _ values: [Int32]) {
        list(id, .i32, count: values.count)
        for value in values { zigzag(Int64(value)) }
    }

    /// A list of strings.
    mutating func stringList(_ id: Int16, _ values: [String]) {
        list(id, .binary, count: values.count)
        for value in values {
            varint(UInt64(value.utf8.count))
            out.append(contentsOf: value.utf8)
        }
    }

    /// A list element that is a struct: `body` writes its fields.
    mutating func element(_ body: (inout ThriftWriter) -> Void) {
        beginStruct()
        body(&self)
        endStruct()
    }

    private mutating func beginStruct() {
        outer.append(lastField)
        lastField = 0
    }

    private mutating func endStruct() {
        out.append(ThriftType.stop.rawValue)
        lastField = outer.removeLast()
    }

    /// Ends the top-level struct.
    mutating func finish() -> [UInt8] {
        out.append(ThriftType.stop.rawValue)
        return out
    }
}

/// Reads compact-protocol structs from untrusted bytes: every length and count is checked against the
/// bytes left, nesting is limited, and unknown fields are skipped.
struct ThriftReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var position: Int
    private var depth = 0
    static let maxDepth = 32

    init(_ bytes: UnsafeRawBufferPointer, at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw ParquetFormatError("thrift: truncated") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw ParquetFormatError("thrift: varint too long") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func zigzag() throws -> Int64 {
        let v = try varint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    mutating func i32() throws -> Int32 {
        let v = try zigzag()
        guard let value = Int32(exactly: v) else { throw ParquetFormatError("thrift: i32 out of range") }
        return value
    }

    mutating func binary() throws -> UnsafeRawBufferPointer {
        let length = try varint()
        guard length <= UInt64(bytes.count - position) else { throw ParquetFormatError("thrift: binary length \(length) past the end") }
        defer { position += Int(length) }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + Int(length)])
    }

    mutating func string() throws -> String {
        String(decoding: try binary(), as: UTF8.self)
    }

    /// A list header: element type and count; the count is bounded by the bytes left (every element takes one).
    mutating func listHeader() throws -> (ThriftType, Int) {
        let header = try byte()
        var count = UInt64(header >> 4)
        if count == 15 { count = try varint() }
        guard let type = ThriftType(rawValue: header & 0x0F) else { throw ParquetFormatError("thrift: bad list element type") }
        let left = UInt64(bytes.count - position)
        guard count <= left else {
            throw ParquetFormatError("thrift: list of \(count) elements past the end")
        }
        return (type, Int(count))
    }

    /// A list header whose elements must be of `expected` type; returns the count.
    mutating func list(of expected: ThriftType) throws -> Int {
        let (type, count) = try listHeader()
        guard type == expected || count == 0 else { throw ParquetFormatError("thrift: list of \(type) where \(expected) was expected") }
        return count
    }

    /// Reads a struct's fields, calling `body` with each field's id and type; `body` returns false for a
    /// field it does not read, which is then skipped.
    mutating func readStruct(_ body: (inout ThriftReader, Int16, ThriftType) throws -> Bool) throws {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw ParquetFormatError("thrift: nested too deeply") }
        var last: Int16 = 0
        while true {
            let header = try byte()
            guard let type = ThriftType(rawValue: header & 0x0F) else { throw ParquetFormatError("thrift: bad field type \(header & 0x0F)") }
            if type == .stop { return }
            let delta = header >> 4
            let id: Int16
            if delta == 0 {
                guard let wide = Int16(exactly: try zigzag()) else { throw ParquetFormatError("thrift: field id out of range") }
                id = wide
            } else {
                id = last &+ Int16(delta)
            }
            last = id
            if try !body(&self, id, type) { try skip(type) }
        }
    }

    /// Reads a boolean field's value from its type.
    static func bool(_ type: ThriftType) throws -> Bool {
        switch type {
        case .boolTrue: return true
        case .boolFalse: return false
        default: throw ParquetFormatError("thrift: expected a boolean")
        }
    }

    /// Skips a value of `type`.
    mutating func skip(_ type: ThriftType) throws {
        switch type {
        case .stop: throw ParquetFormatError("thrift: unexpected stop")
        case .boolTrue, .boolFalse: return
        case .byte: _ = try byte()
        case .i16, .i32, .i64: _ = try varint()
        case .double:
            guard bytes.count - position >= 8 else { throw ParquetFormatError("thrift: truncated") }
            position += 8
        case .binary: _ = try binary()
        case .list, .set:
            let (element, count) = try listHeader()
            try nested {
                for _ in 0..<count {
                    if element == .boolTrue || element == .boolFalse { _ = try $0.byte() } else { try $0.skip(element) }
                }
            }
        case .map:
            let count = try varint()
            guard count <= UInt64(bytes.count - position) else { throw ParquetFormatError("thrift: map past the end") }
            if count == 0 { return }
            let kinds = try byte()
            guard let key = ThriftType(rawValue: kinds >> 4), let value = ThriftType(rawValue: kinds & 0x0F) else {
                throw ParquetFormatError("thrift: bad map types")
            }
            try nested {
                for _ in 0..<count {
                    try $0.skip(key)
                    try $0.skip(value)
                }
            }
        case .structure: try readStruct { _, _, _ in false }
        }
    }

    private mutating func nested(_ body: (inout ThriftReader) throws -> Void) throws {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw ParquetFormatError("thrift: nested too deeply") }
        try body(&self)
    }
}
