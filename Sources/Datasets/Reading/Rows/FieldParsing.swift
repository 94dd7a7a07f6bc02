#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Parsers for the field grammars of SPEC §0, working on raw UTF-8 bytes.
public enum FieldParsing {
    /// `-?[0-9]+` within the signed 64-bit range, else `nil`.
    @inlinable package static func int64(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let negative = b.count > 0 && b[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        guard i < b.count else { return nil }
        var value: UInt64 = 0
        if b.count - i <= 18 {
            while i < b.count {
                let d = b[i] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                value = value &* 10 &+ UInt64(d)
                i += 1
            }
            return negative ? -Int64(value) : Int64(value)
        }
        while i < b.count {
            let d = b[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d))
            guard !o1, !o2 else { return nil }
            value = sum
            i += 1
        }
        if negative {
            guard value <= UInt64(Int64.max) + 1 else { return nil }
            return value == UInt64(Int64.max) + 1 ? .min : -Int64(value)
        }
        guard value <= UInt64(Int64.max) else { return nil }
        return Int64(value)
    }

    /// A decimal `-?[0-9]+(\.[0-9]+)?`: its value in millionths (rounded half away from zero past
    /// 6 digits, saturating) and whether it is below zero; `nil` when the grammar does not match.
    @inlinable package static func decimalMicros(_ b: UnsafeBufferPointer<UInt8>) -> (micros: Int64, negative: Bool)? {
        var i = 0
        let minus = b.count > 0 && b[0] == UInt8(ascii: "-")
        if minus { i = 1 }
        var integer: UInt64 = 0
        var saturated = false
        let digitsStart = i
        while i < b.count, b[i] != UInt8(ascii: ".") {
            let d = b[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            if integer > 1_000_000_000_000 { saturated = true } else { integer = integer * 10 + UInt64(d) }
            i += 1
        }
        guard i > digitsStart else { return nil }
        var fraction: UInt64 = 0
        var scale: UInt64 = 1_000_000
        var nonZero = integer != 0
        if i < b.count {
            i += 1
            guard i < b.count else { return nil }
            while i < b.count {
                let d = b[i] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                if d != 0 { nonZero = true }
                if scale > 1 {
                    scale /= 10
                    fraction += UInt64(d) * scale
                } else if scale == 1 {
                    if d >= 5 { fraction += 1 }
                    scale = 0
                }
                i += 1
            }
        }
        let total = integer * 1_000_000 + fraction
        let magnitude = saturated || total > UInt64(Int64.max) ? Int64.max : Int64(total)
        return (minus ? -magnitude : magnitude, minus && nonZero)
    }

    /// Whether `b` is a decimal `-?[0-9]+(\.[0-9]+)?` below zero; `nil` when the grammar does not
    /// match. Cheaper than parsing when only the sign matters.
    @inlinable package static func decimalIsNegative(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        var i = 0
        let minus = b.count > 0 && b[0] == UInt8(ascii: "-")
        if minus { i = 1 }
        let digitsStart = i
        var nonZero = false
        var point = -1
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: ".") {
                guard point < 0, i > digitsStart else { return nil }
                point = i
            } else {
                let d = c &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                if d != 0 { nonZero = true }
            }
            i += 1
        }
        guard i > digitsStart, point != b.count - 1 else { return nil }
        return minus && nonZero
    }

    /// A decimal `-?[0-9]+(\.[0-9]+)?` as a `Double`; `nil` when the grammar does not match. Any
    /// number of digits: a value past `Double.greatestFiniteMagnitude` reads as infinity, one that
    /// is not 0 but below the smallest `Double` as `±Double.leastNonzeroMagnitude` (so its sign
    /// holds), `-0` as `-0.0`.
    @inlinable package static func decimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let minus = b.count > 0 && b[0] == UInt8(ascii: "-")
        if minus { i = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        let digitsStart = i
        var sawPoint = false
        var fractionDigits = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: ".") {
                guard !sawPoint, i > digitsStart else { return nil }
                sawPoint = true
                i += 1
                continue
            }
            let d = c &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            if sawPoint { fractionDigits += 1 }
            if digits < 18 {
                mantissa = mantissa * 10 + UInt64(d)
                if mantissa != 0 { digits += 1 }
                if sawPoint { exponent -= 1 }
            } else if !sawPoint {
                exponent += 1
            }
            i += 1
        }
        guard i > digitsStart, !sawPoint || fractionDigits > 0 else { return nil }
        guard mantissa < 1 << 53, exponent >= -22, exponent <= 22 else { return roundedDecimal(b, nonZero: mantissa != 0) }
        // Exact operands (the digits below 2⁵³, a power of ten up to 10²²): one rounding, the nearest Double.
        var value = Double(mantissa)
        if exponent < 0 {
            value /= powerOfTen(-exponent)
        } else if exponent > 0 {
            value *= powerOfTen(exponent)
        }
        return minus ? -value : value
    }

    /// `decimal` of a field with more digits, or a larger or smaller power of ten, than one exact
    /// division takes: the nearest Double by `strtod` (correctly rounded; infinity past the largest
    /// Double), on a copy of the field (such fields are rare). A value that is not 0 never reads as
    /// 0: below a Double's range it is the smallest Double of its sign (a negative one stays below
    /// zero, SPEC's `count < 0`).
    @usableFromInline static func roundedDecimal(_ b: UnsafeBufferPointer<UInt8>, nonZero: Bool) -> Double {
        var text = [CChar](repeating: 0, count: b.count + 1)
        for i in b.indices { text[i] = CChar(bitPattern: b[i]) }
        let value = strtod(text, nil)
        guard value == 0, nonZero else { return value }
        return b[0] == UInt8(ascii: "-") ? -.leastNonzeroMagnitude : .leastNonzeroMagnitude
    }

    @usableFromInline static func powerOfTen(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<n { result *= 10 }
        return result
    }

    /// Unicode scalars in well-formed UTF-8 bytes (bytes that do not continue a sequence).
    @inlinable package static func scalarCount(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        for byte in b where byte & 0xC0 != 0x80 { n += 1 }
        return n
    }

    /// A fast 64-bit hash of an id's bytes (not cryptographic).
    @inlinable package static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(b.count)
        var i = 0
        let raw = UnsafeRawBufferPointer(b)
        while i + 8 <= b.count {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < b.count {
            tail |= UInt64(b[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 32
        h = h &* 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 29)
    }

    /// `hash(b)` of an id of `count` (at most 16) bytes held little-endian in `low` then `high`,
    /// zero-padded: the same value, for a parser that already holds the id in registers.
    @inlinable @inline(__always) public static func hash(low: UInt64, high: UInt64, count: Int) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
        var tail = low
        if count >= 8 {
            h = (h ^ low) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            tail = high
            if count == 16 {
                h = (h ^ high) &* 0xBF58_476D_1CE4_E5B9
                h ^= h >> 29
                tail = 0
            }
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 32
        h = h &* 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 29)
    }

    /// Byte-wise comparison, as SPEC §0 sorts ids.
    @inlinable package static func less(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmpBytes(pa, pb, n)
            if c != 0 { return c < 0 }
        }
        return a.count < b.count
    }

    /// Whether two byte strings are equal.
    @inlinable package static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmpBytes(pa, pb, a.count) == 0
    }

    @usableFromInline static func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Int32 {
        memcmp(a, b, n)
    }
}
