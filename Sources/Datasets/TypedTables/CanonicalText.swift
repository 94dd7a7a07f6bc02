/// The canonical texts of typed values: a field is typed only when it is the canonical text of
/// its value, so that rendering the value gives the field back byte for byte.
public enum CanonicalText {
    /// Microseconds per second (times are stored as TIMESTAMP(MICROS)).
    public static let microsPerSecond: Int64 = 1_000_000
    /// The largest time, in seconds, whose microseconds fit in 64 bits.
    public static let maximumSeconds = Int64.max / microsPerSecond
    /// The most integer digits of a typed decimal (so its thousandths are exact in a DOUBLE).
    public static let maximumDecimalDigits = 12

    /// The value of `-?(0|[1-9][0-9]*)` in the signed 64-bit range, else `nil` (`+5`, `05`, `-0`,
    /// ` 5`, `3.0` are not canonical).
    @inlinable public static func integer(_ field: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !field.isEmpty else { return nil }
        let negative = field[0] == UInt8(ascii: "-")
        let start = negative ? 1 : 0
        let digits = field.count - start
        guard digits >= 1, digits <= 19 else { return nil }
        if field[start] == UInt8(ascii: "0"), digits > 1 || negative { return nil }
        var magnitude: UInt64 = 0
        for i in start..<field.count {
            let d = field[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            magnitude = magnitude &* 10 &+ UInt64(d)
        }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The thousandths of `-?(0|[1-9][0-9]*)(\.[0-9]{0,2}[1-9])?` with at most
    /// `maximumDecimalDigits` integer digits, not `-0`; else `nil`.
    @inlinable public static func decimalMilli(_ field: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !field.isEmpty else { return nil }
        let negative = field[0] == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        let intStart = i
        var value: Int64 = 0
        while i < field.count, field[i] != UInt8(ascii: ".") {
            let d = field[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            value = value &* 10 &+ Int64(d)  // wraps only past `maximumDecimalDigits` digits, refused below
            i += 1
        }
        let intDigits = i - intStart
        guard intDigits >= 1, intDigits <= maximumDecimalDigits else { return nil }
        if field[intStart] == UInt8(ascii: "0"), intDigits > 1 { return nil }
        var fraction: Int64 = 0
        var scale: Int64 = 1000
        if i < field.count {
            let fractionDigits = field.count - i - 1
            guard fractionDigits >= 1, fractionDigits <= 3, field[field.count - 1] != UInt8(ascii: "0") else { return nil }
            for j in (i + 1)..<field.count {
                let d = field[j] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                scale /= 10
                fraction += Int64(d) * scale
            }
        }
        let milli = value * 1000 + fraction
        if negative, milli == 0 { return nil }
        return negative ? -milli : milli
    }

    /// Whether `field` is a gateway script: `A`, `D`, `T`, `L` tokens joined by `;`.
    @inlinable public static func isScript(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field.count % 2 == 1 else { return false }
        for (i, byte) in field.enumerated() {
            if i % 2 == 1 {
                guard byte == UInt8(ascii: ";") else { return false }
            } else {
                guard byte == UInt8(ascii: "A") || byte == UInt8(ascii: "D") || byte == UInt8(ascii: "T") || byte == UInt8(ascii: "L") else {
                    return false
                }
            }
        }
        return true
    }

    /// The DOUBLE of a typed decimal's thousandths.
    @inlinable public static func double(milli: Int64) -> Double { Double(milli) / 1000 }

    /// The thousandths a DOUBLE holds exactly (as `double(milli:)` makes them), else `nil`.
    @inlinable public static func milli(_ value: Double) -> Int64? {
        let scaled = (value * 1000).rounded()
        guard scaled.magnitude < 9.0e15 else { return nil }
        let milli = Int64(scaled)
        return double(milli: milli) == value ? milli : nil
    }
}
