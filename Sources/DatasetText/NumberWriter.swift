/// Formats numbers as ASCII digits at a pointer (room must be reserved); each returns the
/// position after the digits.
public enum NumberWriter {
    /// "00", "01", …, "99": two digits at a time, without a lazily initialized global.
    @usableFromInline package static let pairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    @inlinable package static func digitCount(_ v: UInt64) -> Int {
        var n = 1
        var x = v
        while x >= 10_000 { x /= 10_000; n += 4 }
        if x >= 1000 { return n + 3 }
        if x >= 100 { return n + 2 }
        if x >= 10 { return n + 1 }
        return n
    }

    /// Writes `v` in exactly `width` digits, zero padded (more when it does not fit).
    @inlinable public static func padded(_ v: UInt64, width: Int, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let n = max(width, digitCount(v))
        var x = v
        var p = start + n
        while x >= 100 {
            p -= 2
            pair(x % 100, at: p)
            x /= 100
        }
        if x >= 10 {
            p -= 2
            pair(x, at: p)
        } else {
            p -= 1
            p[0] = UInt8(ascii: "0") &+ UInt8(x)
        }
        while p > start {
            p -= 1
            p[0] = UInt8(ascii: "0")
        }
        return start + n
    }

    /// `v` in decimal, as few digits as it takes: numbers under 10⁶ (durations in seconds among
    /// them) and ten-digit ones (instants in seconds) by pairs without a loop.
    @inlinable public static func unsigned(_ v: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if v < 100 {
            if v < 10 {
                p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
                return p + 1
            }
            pair(v, at: p)
            return p + 2
        }
        if v < 10_000 {
            if v < 1000 { return threeDigits(v, at: p) }
            pair(v / 100, at: p)
            pair(v % 100, at: p + 2)
            return p + 4
        }
        if v < 1_000_000 {
            if v < 100_000 {
                p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v / 10_000)
                pair(v / 100 % 100, at: p + 1)
                pair(v % 100, at: p + 3)
                return p + 5
            }
            pair(v / 10_000, at: p)
            pair(v / 100 % 100, at: p + 2)
            pair(v % 100, at: p + 4)
            return p + 6
        }
        if v >= 1_000_000_000, v < 10_000_000_000 { return tenDigits(v, at: p) }
        return padded(v, width: 1, at: p)
    }

    /// The two digits of `n` (under 100) at `p`.
    @inlinable @inline(__always) package static func pair(_ n: UInt64, at p: UnsafeMutablePointer<UInt8>) {
        let digits = UnsafeRawPointer(pairs.utf8Start).loadUnaligned(fromByteOffset: 2 &* Int(n), as: UInt16.self)
        UnsafeMutableRawPointer(p).storeBytes(of: digits, as: UInt16.self)
    }

    /// `v` (under 1000) in exactly three digits.
    @inlinable @inline(__always) package static func threeDigits(_ v: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v / 100)
        pair(v % 100, at: p + 1)
        return p + 3
    }

    /// `v` (ten digits: an instant in seconds of years 2001 to 2286) as five pairs, split by
    /// independent divisions rather than a chain of them.
    @inlinable @inline(__always) package static func tenDigits(_ v: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let rest = v % 100_000_000, upper = rest / 10_000, lower = rest % 10_000
        pair(v / 100_000_000, at: p)
        pair(upper / 100, at: p + 2)
        pair(upper % 100, at: p + 4)
        pair(lower / 100, at: p + 6)
        pair(lower % 100, at: p + 8)
        return p + 10
    }

    /// `v` in decimal, with a `-` when negative.
    @inlinable public static func signed(_ v: Int64, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = start
        if v < 0 {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        return unsigned(v.magnitude, at: p)
    }

    /// A value in thousandths as a decimal with at most 3 digits after the point.
    @inlinable public static func milli(_ v: Int64, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = start
        if v < 0 {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        let m = v.magnitude
        p = unsigned(m / 1000, at: p)
        let fraction = m % 1000
        guard fraction != 0 else { return p }
        p.pointee = UInt8(ascii: ".")
        if fraction % 10 != 0 { return threeDigits(fraction, at: p + 1) }
        if fraction % 100 != 0 {
            pair(fraction / 10, at: p + 1)
            return p + 3
        }
        p[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 100)
        return p + 2
    }

    /// A finite, whole, non-negative `Double` with all its decimal digits, exactly (up to the 309 of
    /// `Double.greatestFiniteMagnitude`; room for them must be reserved). For values past the 64-bit
    /// range, so not on a hot path: its digits are made in an array of base-10⁹ limbs.
    package static func wholeDouble(_ value: Double, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        precondition(value.isFinite && value >= 0 && value == value.rounded(.towardZero), "wholeDouble of \(value)")
        if value < 9.2e18 { return unsigned(UInt64(value), at: start) }
        // value = significand × 2^shift, both whole: the significand's 53 bits, then doubled `shift` times.
        let shift = Int(value.exponent) - Double.significandBitCount
        let significand = (UInt64(1) << UInt64(Double.significandBitCount)) | value.significandBitPattern
        var limbs: [UInt64] = [significand % 1_000_000_000, significand / 1_000_000_000 % 1_000_000_000, significand / 1_000_000_000_000_000_000]
        var left = shift
        while left > 0 {
            let step = min(left, 30)
            var carry: UInt64 = 0
            for i in limbs.indices {
                let product = limbs[i] << UInt64(step) + carry
                limbs[i] = product % 1_000_000_000
                carry = product / 1_000_000_000
            }
            while carry > 0 {
                limbs.append(carry % 1_000_000_000)
                carry /= 1_000_000_000
            }
            left -= step
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        var p = unsigned(limbs[limbs.count - 1], at: start)
        for limb in limbs.dropLast().reversed() { p = padded(limb, width: 9, at: p) }
        return p
    }
}
