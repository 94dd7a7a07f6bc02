import Foundation
import ProcessMetrics
import XCTest

/// How far each metric may grow over its baseline (`allowed = baseline × (1 + relative) + absolute`).
struct PerformanceTolerances {
    /// Wall clock and CPU time, once normalized by the calibration loop: up to 2×. Loose, because on a
    /// shared machine even normalized medians of 10 iterations moved by up to 1.7× between runs of the
    /// same code (cache and SMT contention slow memory-bound work more than the calibration loop).
    var time = MetricTolerance(relative: 1.0)
    /// Allocation calls: deterministic for single-threaded value-type code, so nearly exact; the slack
    /// absorbs one-off runtime allocations (metadata caches, lazy globals) that land in an iteration.
    var allocations = MetricTolerance(relative: 0.001, absolute: 16)
    /// Bytes requested: deterministic too, with the same kind of small slack.
    var allocatedBytes = MetricTolerance(relative: 0.01, absolute: 4096)
    /// Peak resident memory of the process during the test: it also holds memory freed by earlier
    /// tests that the C allocator keeps, so a quarter plus 16 MiB.
    var peakResident = MetricTolerance(relative: 0.25, absolute: 16 * 1_048_576)

    static let standard = PerformanceTolerances()
}

/// The environment variables the helper reads.
enum PerformanceEnvironment {
    /// `1`: write new baselines instead of comparing.
    static let record = "SIMHARNESS_RECORD_BASELINES"

    static var isRecording: Bool { ProcessInfo.processInfo.environment[record] == "1" }

    static var injectedRegression: InjectedRegression {
        InjectedRegression.fromEnvironment(ProcessInfo.processInfo.environment)
    }
}

/// The base class of the performance tests: skips them in debug builds, where timings mean nothing,
/// before they build their workloads; and compares their measurements with committed baselines.
class BaselinePerformanceTestCase: XCTestCase {
    override func setUpWithError() throws {
        #if DEBUG
        throw XCTSkip("performance baselines are measured in release builds: swift test -c release --filter PerformanceTests")
        #endif
    }

    /// The regression to inject into the workloads (see `InjectedRegression`).
    let regression = PerformanceEnvironment.injectedRegression

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
        let samples = measureIterations(iteration)

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
            case .regressed: XCTFail("\(test): \(comparison.message)", file: file, line: line)
            case .improved: print("\(test): \(comparison.message) (record a new baseline to keep the gain)")
            case .held: break
            }
        }
    }

    /// One comparison per metric known on both sides; allocation counts only between builds with the
    /// same allocation backend, as the backends count differently.
    static func compare(
        _ measured: MeasuredMetrics, with baseline: MeasuredMetrics, sameAllocator: Bool, tolerances: PerformanceTolerances
    ) -> [MetricComparison] {
        var comparisons: [MetricComparison] = []
        func add(_ metric: String, _ unit: MetricUnit, _ old: Double?, _ new: Double?, _ tolerance: MetricTolerance) {
            guard let old, let new else { return }
            comparisons.append(MetricComparison(metric: metric, unit: unit, baseline: old, measured: new, tolerance: tolerance))
        }
        add("wall clock", .seconds, baseline.wallClockSeconds, measured.wallClockSeconds, tolerances.time)
        add("CPU time", .seconds, baseline.cpuSeconds, measured.cpuSeconds, tolerances.time)
        if sameAllocator {
            add("allocations", .count, baseline.allocations.map(Double.init), measured.allocations.map(Double.init), tolerances.allocations)
            add(
                "allocated bytes", .bytes, baseline.allocatedBytes.map(Double.init), measured.allocatedBytes.map(Double.init),
                tolerances.allocatedBytes
            )
        }
        add(
            "peak resident memory", .bytes, baseline.peakResidentBytes.map(Double.init),
            measured.peakResidentBytes.map(Double.init), tolerances.peakResident
        )
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
        return samples
    }
}

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
            peakResidentBytes: peakResidentBytes
        )
    }
}
