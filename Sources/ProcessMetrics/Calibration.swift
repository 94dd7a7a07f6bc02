/// A speed score of this machine from a fixed CPU-bound loop, so that times measured on one machine
/// can be compared with times measured on another: scale a baseline time by `slowdown(comparedWith:)`.
public struct Calibration: Hashable, Sendable, Codable {
    /// Iterations of the loop in one run.
    public static let iterations = 8_000_000

    /// Millions of loop iterations per second in the fastest run (higher is faster).
    public var score: Double

    public init(score: Double) {
        self.score = score
    }

    /// Runs the loop `repetitions` times and keeps the fastest run, the one least disturbed by other
    /// processes. Takes about 30 ms a repetition on a current x86-64 core.
    public static func measure(repetitions: Int = 5) -> Calibration {
        precondition(repetitions > 0, "repetitions must be positive")
        let clock = ContinuousClock()
        var fastest = Duration.seconds(Int64.max)
        var checksum: UInt64 = 0
        for _ in 0..<repetitions {
            let start = clock.now
            checksum ^= calibrationLoop(iterations: iterations)
            fastest = min(fastest, clock.now - start)
        }
        blackHole(checksum)
        return Calibration(score: Double(iterations) / fastest.seconds / 1e6)
    }

    /// How many times slower this machine is than `baseline`'s (below 1 when faster): the factor by
    /// which a time recorded there is multiplied to predict it here.
    public func slowdown(comparedWith baseline: Calibration) -> Double {
        baseline.score / score
    }
}

/// A dependent chain of loads, multiplies and stores over an L1-sized table: the kind of work the
/// analyzers' hot loops do, with no allocation and nothing the optimizer can fold away.
@inline(never)
func calibrationLoop(iterations: Int) -> UInt64 {
    let mask = 2047
    var table = [UInt64](repeating: 0, count: mask + 1)
    var x: UInt64 = 0x9E37_79B9_7F4A_7C15
    table.withUnsafeMutableBufferPointer { table in
        for i in 0..<iterations {
            x = (x ^ table[Int(truncatingIfNeeded: x) & mask]) &* 0xBF58_476D_1CE4_E5B9
            x ^= x >> 29
            table[i & mask] = x
        }
    }
    return x
}

/// Keeps `value` alive and opaque to the optimizer, so the work that produced it is not removed.
@_optimize(none)
public func blackHole<T>(_ value: T) {}
