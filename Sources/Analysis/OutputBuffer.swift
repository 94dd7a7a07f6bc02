import Datasets
import HealthCore

/// Bytes of an output file being formatted, without a `String` per field. A row is formatted
/// through a `RowCursor` into reserved room and appended at once.
public struct OutputBuffer: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// The text of recently written days: the rows of a partition share a few weeks of days.
    private var recentDays = DayTexts()

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
    public mutating func day(_ day: LocalDay) {
        let text = dayText(day)
        row(maxBytes: RowCursor.intBytes) { $0.day(day, text: text) }
    }

    /// The 10 bytes of `day` as `YYYY-MM-DD`, from the recent days when there; `nil` for a year
    /// outside 0...9999.
    mutating func dayText(_ day: LocalDay) -> DayText? { recentDays.text(of: day) }
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

    /// The UTF-8 bytes of `s` (room for `s.utf8.count` bytes must be reserved).
    @inline(__always) public mutating func text(_ s: String) {
        for b in s.utf8 { byte(b) }
    }

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

    /// `YYYY-MM-DD` from its `text` (`OutputBuffer.dayText`), or spelled out when `nil` (at most
    /// `intBytes` bytes, whatever the year).
    @inline(__always) mutating func day(_ day: LocalDay, text: DayText?) {
        guard let text else {
            for b in day.isoString.utf8 { byte(b) }
            return
        }
        UnsafeMutableRawPointer(position).storeBytes(of: text.head, as: UInt64.self)
        UnsafeMutableRawPointer(position + 8).storeBytes(of: text.tail, as: UInt16.self)
        position += 10
    }
}

/// The 10 bytes of a `YYYY-MM-DD` date, as stored in memory.
struct DayText: Equatable {
    var head: UInt64
    var tail: UInt16

    /// The text of `day`, `nil` for a year outside 0...9999.
    init?(_ day: LocalDay) {
        let (year, month, dayOfMonth) = day.civil
        guard (0...9999).contains(year) else { return nil }
        var bytes: (UInt64, UInt16) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            var p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            p = NumberWriter.padded(UInt64(year), width: 4, at: p)
            p.pointee = UInt8(ascii: "-")
            p = NumberWriter.padded(UInt64(month), width: 2, at: p + 1)
            p.pointee = UInt8(ascii: "-")
            _ = NumberWriter.padded(UInt64(dayOfMonth), width: 2, at: p + 1)
        }
        (head, tail) = bytes
    }
}

/// A small direct-mapped cache of day texts, by day index.
struct DayTexts: Sendable {
    private static let size = 64
    private var days = [Int64](repeating: .min, count: size)
    private var texts = [DayText?](repeating: nil, count: size)

    mutating func text(of day: LocalDay) -> DayText? {
        let slot = Int(truncatingIfNeeded: day.index) & (Self.size - 1)
        if days[slot] != day.index {
            days[slot] = day.index
            texts[slot] = DayText(day)
        }
        return texts[slot]
    }
}
