import Foundation
import ProcessMetrics
import XCTest

/// How far each metric may grow over its baseline (`allowed = expected × (1 + relative) + absolute`).
struct PerformanceTolerances {
    /// Wall clock and CPU time, after scaling by the calibration slowdown: loose, as the machine is
    /// shared and a median of 10 iterations still moves by tens of percent under load.
    var time = MetricTolerance.time(relative: 0.5)
    /// Allocation calls: deterministic for single-threaded value-type code, so nearly exact; the slack
    /// absorbs one-off runtime allocations (metadata caches, lazy globals) that land in an iteration.
    var allocations = MetricTolerance(relative: 0.001, absolute: 16)
    /// Bytes requested: deterministic too, with the same small slack.
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

    /// The regression to inject into the workloads (see `InjectedRegression`).
    static var injectedRegression: InjectedRegression {
        InjectedRegression.fromEnvironment(ProcessInfo.processInfo.environment)
    }
}

extension XCTestCase {
    /// Runs `iteration` under XCTest's `measure` (10 iterations) and, alongside it, times each
    /// iteration with `ContinuousClock`, counts its CPU time and allocations, and tracks the peak
    /// resident memory; then compares the medians with `Baselines/<Class>.<test>.json` and fails
    /// with `XCTFail` for every metric that grew beyond its tolerance. Improvements never fail.
    ///
    /// Times are normalized by the calibration loop, run before every iteration so that a busy
    /// machine slows both alike. With `SIMHARNESS_RECORD_BASELINES=1` it writes the baseline instead.
    /// Skipped in debug builds: only release timings mean anything.
    func measureAgainstBaseline(
        events: Int,
        tolerances: PerformanceTolerances = .standard,
        function: String = #function,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ iteration: () -> Void
    ) throws {
        #if DEBUG
        throw XCTSkip("performance baselines are measured in release builds: swift test -c release --filter PerformanceTests")
        #else
        let test = "\(String(describing: type(of: self))).\(function.prefix { $0 != "(" })"
        let run = measureIterations(iteration)
        let measured = run.metrics
        let calibration = run.calibration
        let machine = MachineDescription.current()
        let perEvent = measured.wallClockSeconds * 1e9 / Double(max(events, 1))
        print("\(test): \(events) events, \(Int(perEvent.rounded())) ns/event, \(measured), calibration \(calibration.score)")

        if PerformanceEnvironment.isRecording {
            let baseline = PerformanceBaseline(
                test: test, events: events, machine: machine, calibration: calibration, metrics: measured,
                nanosecondsPerEvent: perEvent
            )
            try baseline.save()
            print("\(test): recorded \(PerformanceBaseline.url(for: test).path)")
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
        let comparisons = Self.compare(
            measured, with: baseline, sameAllocator: baseline.machine.allocator == machine.allocator,
            slowdown: calibration.slowdown(comparedWith: baseline.calibration), tolerances: tolerances
        )
        for comparison in comparisons {
            switch comparison.verdict {
            case .regressed: XCTFail("\(test): \(comparison.message)", file: file, line: line)
            case .improved: print("\(test): \(comparison.message) (record a new baseline to keep the gain)")
            case .held: break
            }
        }
        #endif
    }

    /// One comparison per metric known on both sides; allocation counts only between builds with the
    /// same allocation backend, as the backends count differently.
    static func compare(
        _ measured: MeasuredMetrics, with baseline: PerformanceBaseline, sameAllocator: Bool, slowdown: Double,
        tolerances: PerformanceTolerances
    ) -> [MetricComparison] {
        let old = baseline.metrics
        var comparisons = [
            MetricComparison(
                metric: "wall clock", unit: .seconds, baseline: old.wallClockSeconds, measured: measured.wallClockSeconds,
                tolerance: tolerances.time, slowdown: slowdown
            ),
            MetricComparison(
                metric: "CPU time", unit: .seconds, baseline: old.cpuSeconds, measured: measured.cpuSeconds,
                tolerance: tolerances.time, slowdown: slowdown
            ),
        ]
        func add(_ metric: String, _ unit: MetricUnit, _ old: Int?, _ new: Int?, _ tolerance: MetricTolerance) {
            guard let old, let new else { return }
            comparisons.append(
                MetricComparison(metric: metric, unit: unit, baseline: Double(old), measured: Double(new), tolerance: tolerance)
            )
        }
        if sameAllocator {
            add("allocations", .count, old.allocations, measured.allocations, tolerances.allocations)
            add("allocated bytes", .bytes, old.allocatedBytes, measured.allocatedBytes, tolerances.allocatedBytes)
        }
        add("peak resident memory", .bytes, old.peakResidentBytes, measured.peakResidentBytes, tolerances.peakResident)
        return comparisons
    }

    /// Runs the iterations under `measure` and returns the medians and the median calibration.
    private func measureIterations(_ iteration: () -> Void) -> (metrics: MeasuredMetrics, calibration: Calibration) {
        let clock = ContinuousClock()
        var wallClock: [Double] = []
        var cpu: [Double] = []
        var allocations: [Double] = []
        var allocatedBytes: [Double] = []
        var scores: [Double] = []
        ResidentMemory.resetPeak()
        measureMetrics([.wallClockTime], automaticallyStartMeasuring: false) {
            scores.append(Calibration.measure(repetitions: 1).score)
            let allocationsBefore = AllocationStatistics.current()
            let usageBefore = ResourceUsage.current()
            let start = clock.now
            startMeasuring()
            iteration()
            stopMeasuring()
            let elapsed = clock.now - start
            let usage = ResourceUsage.current()
            let delta = AllocationStatistics.current().delta(since: allocationsBefore)
            wallClock.append(elapsed.seconds)
            cpu.append((usage.totalCPU - usageBefore.totalCPU).seconds)
            if let count = delta.allocations { allocations.append(Double(count)) }
            if let bytes = delta.allocatedBytes { allocatedBytes.append(Double(bytes)) }
        }
        let metrics = MeasuredMetrics(
            wallClockSeconds: median(wallClock) ?? 0,
            cpuSeconds: median(cpu) ?? 0,
            allocations: median(allocations).map { Int($0.rounded()) },
            allocatedBytes: median(allocatedBytes).map { Int($0.rounded()) },
            peakResidentBytes: ResidentMemory.current()?.peakBytes
        )
        return (metrics, Calibration(score: median(scores) ?? 0))
    }
}
