import Datasets
import HealthCore

/// Bytes of an output file being formatted, without a `String` per field. A row is formatted
/// through a `RowCursor` into reserved room and appended at once.
public struct OutputBuffer: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    public init(line: String) { bytes = Array(line.utf8) + [UInt8(ascii: "\n")] }

    public var isEmpty: Bool { bytes.isEmpty }

    /// Appends what `body` writes, at most `maxBytes` bytes.
    @inline(__always) public mutating func row(maxBytes: Int, _ body: (inout RowCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxBytes) { room in
            var cursor = RowCursor(room.baseAddress!)
            body(&cursor)
            bytes.append(contentsOf: UnsafeBufferPointer(start: room.baseAddress, count: cursor.position - room.baseAddress!))
        }
    }

    @inline(__always) public mutating func byte(_ b: UInt8) { bytes.append(b) }
    @inline(__always) public mutating func comma() { bytes.append(UInt8(ascii: ",")) }
    @inline(__always) public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    public mutating func text(_ s: String) { bytes.append(contentsOf: s.utf8) }

    public mutating func append(_ raw: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: raw) }

    mutating func id(_ index: Int, in arena: ByteArena) {
        arena.withBytes(index) { bytes.append(contentsOf: $0) }
    }

    public mutating func int(_ value: Int64) { row(maxBytes: RowCursor.intBytes) { $0.int(value) } }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    public mutating func unsigned(_ value: UInt64) { row(maxBytes: RowCursor.intBytes) { $0.unsigned(value) } }

    /// A fixed-point value given in thousandths, with 3 decimals.
    public mutating func milli(_ thousandths: Int64) { row(maxBytes: RowCursor.intBytes) { $0.milli(thousandths) } }

    /// Millionths printed with 3 decimals, rounded half away from zero.
    public mutating func micros3(_ micros: Int64) { row(maxBytes: RowCursor.intBytes) { $0.micros3(micros) } }

    /// A `Double` printed with 3 decimals.
    public mutating func decimal3(_ value: Double) { row(maxBytes: RowCursor.intBytes) { $0.decimal3(value) } }

    /// `YYYY-MM-DD`.
    public mutating func day(_ day: LocalDay) { row(maxBytes: RowCursor.intBytes) { $0.day(day) } }
}

/// Writes the fields of one row at a pointer, into room reserved by `OutputBuffer.row`.
public struct RowCursor {
    /// The most bytes an integer, a number with 3 decimals or a day takes.
    public static let intBytes = 24

    public private(set) var position: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) { position = start }

    @inline(__always) public mutating func byte(_ b: UInt8) {
        position.pointee = b
        position += 1
    }

    @inline(__always) public mutating func comma() { byte(UInt8(ascii: ",")) }
    @inline(__always) public mutating func newline() { byte(UInt8(ascii: "\n")) }

    @inline(__always) public mutating func int(_ value: Int64) { position = NumberWriter.signed(value, at: position) }

    @inline(__always) public mutating func int(_ value: Int) { int(Int64(value)) }

    @inline(__always) public mutating func unsigned(_ value: UInt64) { position = NumberWriter.unsigned(value, at: position) }

    /// A fixed-point value given in thousandths, with 3 decimals.
    @inline(__always) public mutating func milli(_ thousandths: Int64) {
        if thousandths < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = thousandths.magnitude
        unsigned(magnitude / 1000)
        byte(UInt8(ascii: "."))
        position = NumberWriter.padded(magnitude % 1000, width: 3, at: position)
    }

    /// Millionths printed with 3 decimals, rounded half away from zero.
    @inline(__always) public mutating func micros3(_ micros: Int64) {
        milli(micros >= 0 ? (micros + 500) / 1000 : (micros - 500) / 1000)
    }

    /// A `Double` printed with 3 decimals.
    @inline(__always) public mutating func decimal3(_ value: Double) {
        milli(Int64((value * 1000).rounded()))
    }

    /// `YYYY-MM-DD` (at most `intBytes` bytes, whatever the year).
    @inline(__always) public mutating func day(_ day: LocalDay) {
        let (year, month, dayOfMonth) = day.civil
        guard (0...9999).contains(year) else {
            for b in day.isoString.utf8 { byte(b) }
            return
        }
        position = NumberWriter.padded(UInt64(year), width: 4, at: position)
        byte(UInt8(ascii: "-"))
        position = NumberWriter.padded(UInt64(month), width: 2, at: position)
        byte(UInt8(ascii: "-"))
        position = NumberWriter.padded(UInt64(dayOfMonth), width: 2, at: position)
    }
}
