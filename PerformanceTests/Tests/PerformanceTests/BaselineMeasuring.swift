import Foundation
@_spi(Tooling) import BenchmarkWorkloads
@_spi(Tooling) import ProcessMetrics
import XCTest

/// The base class of the performance tests: skips them in debug builds, where timings mean nothing,
/// before they build their workloads; and compares their measurements with committed baselines.
class BaselinePerformanceTestCase: XCTestCase {
    override func setUpWithError() throws {
        #if DEBUG
        throw XCTSkip("performance baselines are measured in release builds: swift test --package-path PerformanceTests -c release")
        #endif
    }

    /// The regression to inject into the workloads (see `InjectedRegression`).
    let regression = PerformanceEnvironment.injectedRegression
    /// The memory regression to inject around each iteration (see `InjectedMemory`).
    let memoryRegression = PerformanceEnvironment.injectedMemory

    /// Runs `iteration` under XCTest's `measure` (10 iterations) and, alongside it, times each
    /// iteration with `ContinuousClock` and the CPU clock, counts its allocations and tracks the
    /// peak resident memory; then compares the medians with `Baselines/<Class>.<test>.json` and fails
    /// with `XCTFail` for every metric that grew beyond its tolerance. Improvements never fail.
    ///
    /// Each iteration is preceded by a run of the calibration loop, and its times are divided by that
    /// run's, so that a slower or busier machine slows both alike. With `SIMHARNESS_RECORD_BASELINES=1`
    /// it writes the baseline instead.
    func measureAgainstBaseline(
        events: Int,
        tolerances: PerformanceTolerances = .standard,
        function: String = #function,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ iteration: () -> Void
    ) throws {
        let test = "\(String(describing: type(of: self))).\(function.prefix { $0 != "(" })"
        let memory = memoryRegression
        let samples = measureIterations { memory.around(iteration) }

        if PerformanceEnvironment.isRecording {
            let calibration = samples.medianCalibration
            let metrics = samples.metrics(normalizedTo: calibration)
            let baseline = PerformanceBaseline(
                test: test, events: events, machine: .current(), calibration: calibration, metrics: metrics,
                nanosecondsPerEvent: metrics.wallClockSeconds * 1e9 / Double(max(events, 1))
            )
            try baseline.save()
            print("\(test): recorded \(metrics.summary(events: events)) in \(PerformanceBaseline.url(for: test).path)")
            return
        }
        guard let baseline = try PerformanceBaseline.load(test: test) else {
            XCTFail(
                "\(test): no baseline at \(PerformanceBaseline.url(for: test).path); record one with \(PerformanceEnvironment.record)=1",
                file: file, line: line
            )
            return
        }
        guard baseline.events == events else {
            XCTFail(
                "\(test): the workload has \(events) events, the baseline \(baseline.events); re-record with \(PerformanceEnvironment.record)=1",
                file: file, line: line
            )
            return
        }
        let measured = samples.metrics(normalizedTo: baseline.calibration)
        print("\(test): measured \(measured.summary(events: events)) (times normalized to the baseline's calibration; \(samples.rawSummary))")
        let comparisons = Self.compare(
            measured, with: baseline.metrics,
            sameAllocator: baseline.machine.allocator == AllocationBackend.current, tolerances: tolerances
        )
        for comparison in comparisons {
            switch comparison.verdict {
            case .regressed: XCTFail("\(test): \(Self.message(comparison))", file: file, line: line)
            case .improved: print("\(test): \(Self.message(comparison)) (record a new baseline to keep the gain)")
            case .held, .notCompared: break
            }
        }
    }

    /// The unit of each metric compared, for messages.
    static let units: [String: MetricUnit] = [
        "wall clock": .seconds, "CPU time": .seconds, "allocations": .count, "allocated bytes": .bytes, "peak resident memory": .bytes,
        "peak heap": .bytes,
    ]

    /// e.g. `CPU time regressed: baseline 151.9 ms, measured 335.954 ms, allowed at most 227.849 ms`.
    static func message(_ comparison: MetricComparison) -> String {
        comparison.message(limitWord: "allowed at most", (units[comparison.metric] ?? .count).format)
    }

    /// One comparison per metric known on both sides; allocation counts only between builds with the
    /// same allocation backend, as the backends count differently.
    static func compare(
        _ measured: MeasuredMetrics, with baseline: MeasuredMetrics, sameAllocator: Bool, tolerances: PerformanceTolerances
    ) -> [MetricComparison] {
        var comparisons: [MetricComparison] = []
        func add(_ metric: String, _ old: Double?, _ new: Double?, _ tolerance: MetricTolerance) {
            guard let old, let new else { return }
            comparisons.append(MetricComparison(metric: metric, baseline: old, measured: new, tolerance: tolerance))
        }
        add("wall clock", baseline.wallClockSeconds, measured.wallClockSeconds, tolerances.time)
        add("CPU time", baseline.cpuSeconds, measured.cpuSeconds, tolerances.time)
        if sameAllocator {
            add("allocations", baseline.allocations.map(Double.init), measured.allocations.map(Double.init), tolerances.allocations)
            add(
                "allocated bytes", baseline.allocatedBytes.map(Double.init), measured.allocatedBytes.map(Double.init),
                tolerances.allocatedBytes
            )
        }
        add(
            "peak resident memory", baseline.peakResidentBytes.map(Double.init),
            measured.peakResidentBytes.map(Double.init), tolerances.peakResident
        )
        if sameAllocator {
            add("peak heap", baseline.peakHeapBytes.map(Double.init), measured.peakHeapBytes.map(Double.init), tolerances.peakHeap)
        }
        return comparisons
    }

    /// Runs the iterations under `measure`, each after a calibration run.
    private func measureIterations(_ iteration: () -> Void) -> IterationSamples {
        let clock = ContinuousClock()
        var samples = IterationSamples()
        ResidentMemory.resetPeak()
        measureMetrics([.wallClockTime], automaticallyStartMeasuring: false) {
            let calibration = Calibration.measure(repetitions: 1)
            let allocationsBefore = AllocationStatistics.current()
            let cpuBefore = ResourceUsage.current().totalCPU
            let start = clock.now
            startMeasuring()
            iteration()
            stopMeasuring()
            let elapsed = clock.now - start
            let cpu = ResourceUsage.current().totalCPU - cpuBefore
            let allocations = AllocationStatistics.current().delta(since: allocationsBefore)
            samples.append(calibration: calibration, wallClock: elapsed, cpu: cpu, allocations: allocations)
        }
        samples.peakResidentBytes = ResidentMemory.current()?.peakBytes
        // One more iteration, untimed, for the heap's high-water mark: its hook slows every allocation.
        samples.peakHeapBytes = HeapHighWater.measure(iteration).peakBytes
        return samples
    }
}
