#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import PaymentsCore
@_spi(Tooling) import Scenarios

/// xoshiro256**: the fast generator inside each of a user's streams.
@_spi(Tooling) public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    @usableFromInline var s0: UInt64
    @usableFromInline var s1: UInt64
    @usableFromInline var s2: UInt64
    @usableFromInline var s3: UInt64

    /// Seeds the state from SplitMix64, as the xoshiro authors recommend.
    @_spi(Tooling) public init(seed: UInt64) {
        var splitMix = SplitMix64(seed: seed)
        s0 = splitMix.next()
        s1 = splitMix.next()
        s2 = splitMix.next()
        s3 = splitMix.next()
    }

    /// The next 64 random bits.
    @inlinable @_spi(Tooling) public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    @inlinable @inline(__always) func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 &- k)) }

    /// Uniform in [0, 1).
    @inlinable @_spi(Tooling) public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [low, high).
    @inlinable @_spi(Tooling) public mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// True with probability `p`.
    @inlinable @_spi(Tooling) public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Uniform integer in `0..<n` (multiply-shift; the bias is below 2⁻³² for the sizes used here).
    @inlinable @_spi(Tooling) public mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: n).multipliedFullWidth(by: next())).high)
    }

    /// Uniform integer in `low...high`.
    @inlinable @_spi(Tooling) public mutating func integer(_ low: Int64, _ high: Int64) -> Int64 {
        low + Int64(below(Int(high - low + 1)))
    }

    /// A Poisson count, given `exp(-mean)` (Knuth's product of uniforms; means up to ~60).
    @inlinable @_spi(Tooling) public mutating func poisson(expMinusMean: Double) -> Int {
        var k = 0
        var product = unit()
        while product > expMinusMean {
            k += 1
            product *= unit()
        }
        return k
    }
}

/// The independent streams of one user: a user's data depends only on (seed, user index, stream).
package enum RandomStream: UInt64, Sendable {
    case profile = 1, meals, steps, payments, userFaults, mealFaults, stepFaults, paymentFaults

    /// The generator of `stream` for user `user` under `seed`.
    package static func generator(seed: UInt64, user: Int, stream: RandomStream) -> Xoshiro256StarStar {
        Xoshiro256StarStar(seed: mix(mix(seed ^ 0x5348_5349_4D00_0000) &+ UInt64(user) &* 0x9E37_79B9_7F4A_7C15 &+ stream.rawValue))
    }

    /// SplitMix64's finalizer: a bijective mix of 64 bits.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Standard normal draws by table lookup with linear interpolation (no `log` per draw); tails are
/// cut at about ±3.5 standard deviations, which a simulation of daily habits never misses.
package struct GaussianTable: Sendable {
    let quantiles: [Double]
    static let bits = 12

    /// The table (4,097 quantiles), made once.
    package init() {
        let n = 1 << Self.bits
        quantiles = (0...n).map { GaussianTable.inverseNormal((Double($0) + 0.5) / Double(n + 1)) }
    }

    /// A draw from N(0, 1).
    package func draw(_ random: inout Xoshiro256StarStar) -> Double {
        let u = random.next()
        let i = Int(u >> UInt64(64 - Self.bits))
        let fraction = Double((u >> 20) & 0xFFFF_FFFF) * 0x1p-32
        return quantiles.withUnsafeBufferPointer { q in q[i] + (q[i + 1] - q[i]) * fraction }
    }

    /// A draw from N(mean, sd).
    package func draw(_ random: inout Xoshiro256StarStar, mean: Double, sd: Double) -> Double {
        mean + sd * draw(&random)
    }

    /// Acklam's rational approximation of the normal quantile (relative error below 1.2e-9).
    static func inverseNormal(_ p: Double) -> Double {
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - low { return -inverseNormal(1 - p) }
        let q = p - 0.5
        let r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }
}

extension Categorical {
    /// A value drawn with its probability.
    @inlinable @_spi(Tooling) public func draw(_ random: inout Xoshiro256StarStar) -> Value {
        let u = random.next()
        let slot = Int(truncatingIfNeeded: ((u >> 32) &* UInt64(values.count)) >> 32)
        let fraction = Double(u & 0xFFFF_FFFF) * 0x1p-32
        return outcomes[2 &* slot &+ (fraction < keep[slot] ? 1 : 0)]
    }

}

/// Sorts a few values in place (a day's bouts or payments): insertion without a data-dependent
/// branch. Inserting `v` into the sorted `a[0..<i]` makes `a[j]` the larger of `a[j - 1]` and
/// `min(a[j], v)` (for `j` from `i` down to 1, `a[i]` counting as infinity) and `a[0]` the smaller
/// of `a[0]` and `v`: conditional moves, where an insertion sort's search for the place of `v`
/// missed a branch about once per value (the values are random times).
@inlinable func sortShort(_ p: UnsafeMutableBufferPointer<Int64>) {
    guard p.count > 1, let a = p.baseAddress else { return }
    for i in 1..<p.count {
        let v = a[i]
        var upper = v
        var j = i
        while j > 0 {
            let below = a[j - 1]
            a[j] = max(below, upper)
            upper = min(below, v)
            j -= 1
        }
        a[0] = upper
    }
}
