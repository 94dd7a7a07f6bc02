/// The number scanners of `CanonicalRows`: eight digits per step with bit tricks on whole words
/// (no branch per digit), and a byte loop for the numbers that do not fit in a word.
extension CanonicalFields {
    /// An integer of 1 to 15 digits, no sign, followed by a comma: the value `FieldParsing.int64`
    /// gives. `nil` for any other text.
    @inlinable @inline(__always)
    static func integer(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int64? {
        guard end - p >= 16 else { return integerByBytes(&p, end) }
        let (first, firstCount) = leadingDigits(load(p))
        if firstCount < 8 {
            guard firstCount > 0, p[firstCount] == UInt8(ascii: ",") else { return nil }
            p += firstCount + 1
            return Int64(digitsValue(first, firstCount))
        }
        let (second, secondCount) = leadingDigits(load(p + 8))
        guard secondCount < 8, p[8 + secondCount] == UInt8(ascii: ",") else { return nil }
        var value = eightDigitsValue(first)
        if secondCount > 0 { value = value &* powerOfTen(secondCount) &+ digitsValue(second, secondCount) }
        p += 9 + secondCount
        return Int64(value)
    }

    /// `integer` one byte at a time, for an integer close to `end`.
    @inlinable
    static func integerByBytes(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int64? {
        var value: UInt64 = 0
        let count = digits(&p, end, into: &value)
        guard count > 0, count <= 15, skip(UInt8(ascii: ","), &p, end) else { return nil }
        return Int64(value)
    }

    /// A decimal `[0-9]+(\.[0-9]+)?` of at most 18 digits: all its digits read as one integer
    /// (`12.50` → 1250), their count and how many follow the point. The caller checks the byte
    /// after it. `nil` for any other text.
    @inlinable @inline(__always)
    static func decimal(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (value: UInt64, digits: Int, fractionDigits: Int)? {
        if end - p >= 8 {
            let word = load(p)
            let (integer, integerCount) = leadingDigits(word)
            guard integerCount > 0 else { return nil }
            if integerCount < 8, p[integerCount] != UInt8(ascii: ".") {
                p += integerCount
                return (digitsValue(integer, integerCount), integerCount, 0)
            }
            if integerCount < 7 {
                let (fraction, fractionCount) = leadingDigits(word &>> UInt64(8 &* (integerCount &+ 1)))
                guard fractionCount > 0 else { return nil }
                if integerCount + 1 + fractionCount < 8 {
                    let merged = integer & bytesBelow(integerCount) | fraction &<< UInt64(8 &* integerCount)
                    p += integerCount + 1 + fractionCount
                    return (digitsValue(merged, integerCount + fractionCount), integerCount + fractionCount, fractionCount)
                }
            }
        }
        return decimalByBytes(&p, end)
    }

    /// `decimal` one byte at a time, for the numbers that reach past a word or `end`.
    @inlinable
    static func decimalByBytes(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (value: UInt64, digits: Int, fractionDigits: Int)? {
        var value: UInt64 = 0
        let integerCount = digits(&p, end, into: &value)
        guard integerCount > 0 else { return nil }
        var fractionCount = 0
        if skip(UInt8(ascii: "."), &p, end) {
            fractionCount = digits(&p, end, into: &value)
            guard fractionCount > 0 else { return nil }
        }
        guard integerCount + fractionCount <= 18 else { return nil }
        return (value, integerCount + fractionCount, fractionCount)
    }

    /// A decimal (see `decimal`) as the `Double` that `FieldParsing.decimal` computes for it: with
    /// at most 18 digits, every digit is in its mantissa, divided once by the same exact power of ten.
    @inlinable @inline(__always)
    static func count(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Double? {
        // Digits past 2⁵³ would be rounded twice here: the general path rounds them once.
        guard let number = decimal(&p, end), number.value < 1 << 53 else { return nil }
        let value = Double(number.value)
        return number.fractionDigits == 0 ? value : value / Double(powerOfTen(number.fractionDigits))
    }

    /// The digits at `p`, one byte at a time, appended to `value` (which wraps past 19 digits, so
    /// callers bound the count); returns their count.
    @inlinable @inline(__always)
    static func digits(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, into value: inout UInt64) -> Int {
        let first = p
        while p < end {
            let d = p.pointee &- UInt8(ascii: "0")
            guard d < 10 else { break }
            value = value &* 10 &+ UInt64(d)
            p += 1
        }
        return p - first
    }

    @inlinable @inline(__always) static func load(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// The text bytes of `word` (first byte lowest) as digit values (a digit byte becomes 0–9)
    /// and how many of them lead before the first byte that is not a digit (8 when all are).
    @inlinable @inline(__always) static func leadingDigits(_ word: UInt64) -> (values: UInt64, count: Int) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let values = word ^ (ones &* 0x30)
        // A byte is not a digit when its value is 10 or more: adding 0x76 sets its high bit, or it
        // was set. A carry out of a byte only comes from a non-digit, so the lowest flag is exact.
        let notDigits = (values &+ ones &* 0x76 | values) & (ones << 7)
        return (values, notDigits.trailingZeroBitCount >> 3)
    }

    /// The number written by eight digit values, the first one in the lowest byte.
    @inlinable @inline(__always) static func eightDigitsValue(_ values: UInt64) -> UInt64 {
        let pairs = values &* 10 &+ values >> 8
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let fours = (pairs & mask) &* (100 + 1_000_000 << 32) &+ (pairs >> 16 & mask) &* (1 + 10_000 << 32)
        return fours >> 32
    }

    /// The number written by the first `count` (1 to 8) digit values of `values`.
    @inlinable @inline(__always) static func digitsValue(_ values: UInt64, _ count: Int) -> UInt64 {
        eightDigitsValue((values & ~0 &>> UInt64(64 &- 8 &* count)) &<< UInt64(8 &* (8 &- count)))
    }

    /// 10^n for n in 0...18.
    @inlinable @inline(__always) static func powerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        default: 1_000_000_000_000_000_000
        }
    }
}
