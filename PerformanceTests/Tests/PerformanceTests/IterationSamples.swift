@_spi(Tooling) import ProcessMetrics

/// What each iteration measured.
struct IterationSamples {
    /// Wall-clock seconds × the wall-clock calibration score of the run before: time in units of the
    /// calibration loop, which a slower or busier machine changes little.
    private var calibratedWallClock: [Double] = []
    private var calibratedCPU: [Double] = []
    private var wallClock: [Double] = []
    private var cpu: [Double] = []
    private var scores: [Double] = []
    private var cpuScores: [Double] = []
    private var allocations: [Double] = []
    private var allocatedBytes: [Double] = []
    var peakResidentBytes: Int?
    var peakHeapBytes: Int?

    mutating func append(calibration: Calibration, wallClock: Duration, cpu: Duration, allocations delta: AllocationDelta) {
        calibratedWallClock.append(wallClock.seconds * calibration.score)
        calibratedCPU.append(cpu.seconds * calibration.cpuScore)
        self.wallClock.append(wallClock.seconds)
        self.cpu.append(cpu.seconds)
        scores.append(calibration.score)
        cpuScores.append(calibration.cpuScore)
        if let count = delta.allocations { allocations.append(Double(count)) }
        if let bytes = delta.allocatedBytes { allocatedBytes.append(Double(bytes)) }
    }

    /// The raw medians and the calibration, for the log.
    var rawSummary: String {
        let calibration = medianCalibration
        return "raw wall \(Int((median(wallClock) ?? 0) * 1000)) ms, raw CPU \(Int((median(cpu) ?? 0) * 1000)) ms, "
            + "calibration \(Int(calibration.score))/\(Int(calibration.cpuScore)) (wall/CPU)"
    }

    /// The median calibration of the run.
    var medianCalibration: Calibration {
        Calibration(score: median(scores) ?? 0, cpuScore: median(cpuScores) ?? 0)
    }

    /// The medians, times converted to seconds on a machine with `reference`'s calibration.
    func metrics(normalizedTo reference: Calibration) -> MeasuredMetrics {
        MeasuredMetrics(
            wallClockSeconds: (median(calibratedWallClock) ?? 0) / reference.score,
            cpuSeconds: (median(calibratedCPU) ?? 0) / reference.cpuScore,
            allocations: median(allocations).map { Int($0.rounded()) },
            allocatedBytes: median(allocatedBytes).map { Int($0.rounded()) },
            peakResidentBytes: peakResidentBytes,
            peakHeapBytes: peakHeapBytes
        )
    }
}
