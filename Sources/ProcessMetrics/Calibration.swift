/// The speed of this machine on a fixed CPU-bound loop, so that times measured on one machine can be
/// compared with times measured on another: scale a baseline time by `slowdown(comparedWith:)`.
@_spi(Tooling) public struct Calibration: Hashable, Sendable, Codable {
    /// Iterations of the loop in one run.
    package static let iterations = 8_000_000

    /// Millions of loop iterations per second of wall-clock time (higher is faster): the speed a
    /// program sees, load from other processes included.
    @_spi(Tooling) public var score: Double
    /// Millions of loop iterations per second of the thread's CPU time: the speed of one core, nearly
    /// independent of other load.
    @_spi(Tooling) public var cpuScore: Double

    /// Scores measured elsewhere (as read from a baseline file).
    @_spi(Tooling) public init(score: Double, cpuScore: Double) {
        self.score = score
        self.cpuScore = cpuScore
    }

    /// Runs the loop `repetitions` times and keeps the fastest run by each clock, the one least
    /// disturbed by other processes. About 30 ms a repetition on a current x86-64 core.
    @_spi(Tooling) public static func measure(repetitions: Int = 5) -> Calibration {
        precondition(repetitions > 0, "repetitions must be positive")
        let clock = ContinuousClock()
        var fastestWall = Duration.seconds(Int64.max)
        var fastestCPU = Duration.seconds(Int64.max)
        var checksum: UInt64 = 0
        for _ in 0..<repetitions {
            let start = clock.now
            let startCPU = ResourceUsage.currentThreadCPU()
            checksum ^= calibrationLoop(iterations: iterations)
            fastestCPU = min(fastestCPU, ResourceUsage.currentThreadCPU() - startCPU)
            fastestWall = min(fastestWall, clock.now - start)
        }
        blackHole(checksum)
        return Calibration(score: rate(fastestWall), cpuScore: rate(fastestCPU))
    }

    /// The median of each score over `calibrations` (measured beside the runs they scale).
    @_spi(Tooling) public static func median(of calibrations: [Calibration]) -> Calibration {
        guard let score = ProcessMetrics.median(calibrations.map(\.score)), let cpuScore = ProcessMetrics.median(calibrations.map(\.cpuScore))
        else { preconditionFailure("no calibration to take the median of") }
        return Calibration(score: score, cpuScore: cpuScore)
    }

    /// How many times slower this machine is than `baseline`'s in wall-clock time (below 1 when
    /// faster): the factor by which a wall-clock time recorded there is multiplied to predict it here.
    @_spi(Tooling) public func slowdown(comparedWith baseline: Calibration) -> Double {
        baseline.score / score
    }

    /// The same for CPU time.
    @_spi(Tooling) public func cpuSlowdown(comparedWith baseline: Calibration) -> Double {
        baseline.cpuScore / cpuScore
    }

    private static func rate(_ duration: Duration) -> Double {
        Double(iterations) / max(duration.seconds, 1e-9) / 1e6
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
@_spi(Tooling) public func blackHole<T>(_ value: T) {}
