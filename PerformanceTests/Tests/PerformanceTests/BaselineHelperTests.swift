@_spi(Tooling) import ProcessMetrics
import Testing

// Unit tests of the baseline helper's arithmetic (Swift Testing: they run in a debug build too, where the
// XCTest `measure` tests skip). The regression injection is tested with the workloads, in the main package.

/// Builds `MeasuredMetrics` with readable defaults.
struct MeasuredMetricsBuilder {
    var wallClockSeconds = 0.2
    var cpuSeconds = 0.1
    var allocations: Int? = 1_000
    var allocatedBytes: Int? = 64_000
    var peakResidentBytes: Int? = 100 << 20
    var peakHeapBytes: Int?

    func build() -> MeasuredMetrics {
        MeasuredMetrics(
            wallClockSeconds: wallClockSeconds, cpuSeconds: cpuSeconds, allocations: allocations,
            allocatedBytes: allocatedBytes, peakResidentBytes: peakResidentBytes, peakHeapBytes: peakHeapBytes
        )
    }
}

@Suite struct BaselineComparisonTests {
    @Test func comparesEveryMetricKnownOnBothSides() {
        // Given a run equal to its baseline
        let baseline = MeasuredMetricsBuilder().build()

        // When
        let sut = BaselinePerformanceTestCase.compare(baseline, with: baseline, sameAllocator: true, tolerances: .standard)

        // Then all five metrics are compared, and all hold
        #expect(sut.map(\.metric) == ["wall clock", "CPU time", "allocations", "allocated bytes", "peak resident memory"])
        #expect(sut.allSatisfy { $0.verdict == .held })
    }

    @Test func allocationCountsOfAnotherBackendAreNotCompared() {
        // Given a baseline recorded with another allocation backend, and twice the allocations now
        let baseline = MeasuredMetricsBuilder().build()
        let measured = MeasuredMetricsBuilder(allocations: 2_000).build()

        // When
        let sut = BaselinePerformanceTestCase.compare(measured, with: baseline, sameAllocator: false, tolerances: .standard)

        // Then
        #expect(sut.map(\.metric) == ["wall clock", "CPU time", "peak resident memory"])
    }

    @Test func unknownCountsAreLeftOut() {
        // Given a build that cannot count allocations
        let baseline = MeasuredMetricsBuilder().build()
        let measured = MeasuredMetricsBuilder(allocations: nil, allocatedBytes: nil).build()

        // When
        let sut = BaselinePerformanceTestCase.compare(measured, with: baseline, sameAllocator: true, tolerances: .standard)

        // Then
        #expect(!sut.contains { $0.metric == "allocations" || $0.metric == "allocated bytes" })
    }

    @Test(arguments: [
        // 1000 × 1.001 + 16 = 1017 allowed (give or take a rounding error, so 1016 and 1018).
        (allocations: 1_016, verdict: MetricComparison.Verdict.held),
        (1_018, .regressed),
        (2_000, .regressed),
    ])
    func allocationsAreNearlyExact(allocations: Int, verdict: MetricComparison.Verdict) throws {
        // Given
        let baseline = MeasuredMetricsBuilder().build()
        let measured = MeasuredMetricsBuilder(allocations: allocations).build()

        // When
        let sut = BaselinePerformanceTestCase.compare(measured, with: baseline, sameAllocator: true, tolerances: .standard)

        // Then
        let comparison = try #require(sut.first { $0.metric == "allocations" })
        #expect(comparison.verdict == verdict)
    }

    @Test(arguments: [
        // 100 MiB, 2 % + 1 MiB allowed: 103 MiB holds, +10 % fails; improvements never fail.
        (peakHeap: 103 << 20, verdict: MetricComparison.Verdict.held),
        (104 << 20, .regressed),
        (110 << 20, .regressed),
        (90 << 20, .improved),
    ])
    func peakHeapCatchesTenPercent(peakHeap: Int, verdict: MetricComparison.Verdict) throws {
        // Given a baseline with a peak heap of 100 MiB
        let baseline = MeasuredMetricsBuilder(peakHeapBytes: 100 << 20).build()
        let measured = MeasuredMetricsBuilder(peakHeapBytes: peakHeap).build()

        // When
        let sut = BaselinePerformanceTestCase.compare(measured, with: baseline, sameAllocator: true, tolerances: .standard)

        // Then
        let comparison = try #require(sut.first { $0.metric == "peak heap" })
        #expect(comparison.verdict == verdict)
    }

    @Test func peakHeapOfAnotherBackendIsNotCompared() {
        // Given a baseline with a peak heap, recorded with another allocation backend
        let baseline = MeasuredMetricsBuilder(peakHeapBytes: 100 << 20).build()

        // When
        let sut = BaselinePerformanceTestCase.compare(baseline, with: baseline, sameAllocator: false, tolerances: .standard)

        // Then
        #expect(!sut.contains { $0.metric == "peak heap" })
    }

    @Test(arguments: [
        // 0.1 s CPU, 2× allowed: up to 0.2 s holds; below half, 0.05 s, it counts as improved.
        (cpu: 0.2, verdict: MetricComparison.Verdict.held),
        (0.21, .regressed),
        (0.05, .held),
        (0.049, .improved),
    ])
    func timesMayDouble(cpu: Double, verdict: MetricComparison.Verdict) throws {
        // Given
        let baseline = MeasuredMetricsBuilder().build()
        let measured = MeasuredMetricsBuilder(cpuSeconds: cpu).build()

        // When
        let sut = BaselinePerformanceTestCase.compare(measured, with: baseline, sameAllocator: true, tolerances: .standard)

        // Then
        let comparison = try #require(sut.first { $0.metric == "CPU time" })
        #expect(comparison.verdict == verdict)
    }
}

@Suite struct IterationSamplesTests {
    @Test func timesAreNormalizedIterationByIteration() {
        // Given two iterations: 0.2 s after a calibration of 100 (CPU 0.1 s, CPU score 300), and 0.1 s
        // on a machine twice as fast (score 200; CPU 0.05 s, CPU score 600): 20 and 30 loop-units each
        var sut = IterationSamples()
        sut.append(
            calibration: Calibration(score: 100, cpuScore: 300), wallClock: .milliseconds(200), cpu: .milliseconds(100),
            allocations: AllocationDelta(allocations: 10, allocatedBytes: 100)
        )
        sut.append(
            calibration: Calibration(score: 200, cpuScore: 600), wallClock: .milliseconds(100), cpu: .milliseconds(50),
            allocations: AllocationDelta(allocations: 12, allocatedBytes: 140)
        )

        // When the medians are expressed on a machine scoring 50 (CPU 150)
        let metrics = sut.metrics(normalizedTo: Calibration(score: 50, cpuScore: 150))

        // Then 20 / 50 = 0.4 s and 30 / 150 = 0.2 s; counts are plain medians
        #expect(metrics.wallClockSeconds == 0.4)
        #expect(metrics.cpuSeconds == 0.2)
        #expect(metrics.allocations == 11)
        #expect(metrics.allocatedBytes == 120)
        #expect(sut.medianCalibration == Calibration(score: 150, cpuScore: 450))
    }

    @Test func countsOfABackendThatCannotCountAreUnknown() {
        // Given an iteration without allocation figures
        var sut = IterationSamples()
        sut.append(calibration: Calibration(score: 1, cpuScore: 1), wallClock: .seconds(1), cpu: .seconds(1), allocations: AllocationDelta())

        // When / Then
        #expect(sut.metrics(normalizedTo: Calibration(score: 1, cpuScore: 1)).allocations == nil)
    }
}
