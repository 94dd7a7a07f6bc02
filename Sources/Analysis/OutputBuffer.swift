import Datasets
import HealthCore

/// Bytes of an output file being formatted, without a `String` per field.
public struct OutputBuffer: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    public init(line: String) { bytes = Array(line.utf8) + [UInt8(ascii: "\n")] }

    public var isEmpty: Bool { bytes.isEmpty }

    @inline(__always) public mutating func byte(_ b: UInt8) { bytes.append(b) }
    @inline(__always) public mutating func comma() { bytes.append(UInt8(ascii: ",")) }
    @inline(__always) public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    public mutating func text(_ s: String) { bytes.append(contentsOf: s.utf8) }

    public mutating func append(_ raw: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: raw) }

    mutating func id(_ index: Int, in arena: ByteArena) {
        arena.withBytes(index) { bytes.append(contentsOf: $0) }
    }

    public mutating func int(_ value: Int64) {
        if value < 0 {
            byte(UInt8(ascii: "-"))
            unsigned(value == .min ? UInt64(Int64.max) + 1 : UInt64(-value))
        } else {
            unsigned(UInt64(value))
        }
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    public mutating func unsigned(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var n = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[n] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                n += 1
            } while v > 0
            while n > 0 {
                n -= 1
                bytes.append(raw[n])
            }
        }
    }

    /// A fixed-point value given in thousandths, with 3 decimals.
    public mutating func milli(_ thousandths: Int64) {
        if thousandths < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = thousandths.magnitude
        unsigned(magnitude / 1000)
        byte(UInt8(ascii: "."))
        let fraction = magnitude % 1000
        byte(UInt8(ascii: "0") + UInt8(fraction / 100))
        byte(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        byte(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    /// Millionths printed with 3 decimals, rounded half away from zero.
    public mutating func micros3(_ micros: Int64) {
        milli(micros >= 0 ? (micros + 500) / 1000 : (micros - 500) / 1000)
    }

    /// A `Double` printed with 3 decimals.
    public mutating func decimal3(_ value: Double) {
        milli(Int64((value * 1000).rounded()))
    }

    /// `YYYY-MM-DD`.
    public mutating func day(_ day: LocalDay) {
        let (year, month, dayOfMonth) = day.civil
        if year < 0 || year > 9999 {
            text(day.isoString)
            return
        }
        let y = Int(year)
        byte(UInt8(ascii: "0") + UInt8(y / 1000))
        byte(UInt8(ascii: "0") + UInt8(y / 100 % 10))
        byte(UInt8(ascii: "0") + UInt8(y / 10 % 10))
        byte(UInt8(ascii: "0") + UInt8(y % 10))
        byte(UInt8(ascii: "-"))
        byte(UInt8(ascii: "0") + UInt8(month / 10))
        byte(UInt8(ascii: "0") + UInt8(month % 10))
        byte(UInt8(ascii: "-"))
        byte(UInt8(ascii: "0") + UInt8(dayOfMonth / 10))
        byte(UInt8(ascii: "0") + UInt8(dayOfMonth % 10))
    }
}
