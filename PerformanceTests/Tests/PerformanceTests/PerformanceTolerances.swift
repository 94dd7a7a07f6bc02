import Foundation
@_spi(Tooling) import BenchmarkWorkloads
@_spi(Tooling) import ProcessMetrics

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
    /// The heap's high-water mark of live bytes during an iteration (the workload's input included):
    /// the steady memory metric, so 2 % + 1 MiB, which catches +10 % of the peak resident memory
    /// (the input is most of it). Measured on identical builds it moved by less than 0.1 %.
    var peakHeap = MetricTolerance(relative: 0.02, absolute: 1_048_576)

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

    static var injectedMemory: InjectedMemory {
        InjectedMemory.fromEnvironment(ProcessInfo.processInfo.environment)
    }
}
