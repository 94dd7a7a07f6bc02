import Foundation
@_spi(Tooling) import BenchmarkWorkloads
@_spi(Tooling) import ProcessMetrics

/// How far each metric may grow over its baseline (`allowed = baseline × (1 + relative) + absolute`): the tolerance
/// table's `gates.xctest` (Benchmarks/Gate/tolerances.json; its presets say why each is what it is, and
/// docs/performance.md the runs behind them).
struct PerformanceTolerances {
    /// Wall clock and CPU time, once normalized by the calibration loop.
    var time: MetricTolerance
    /// Allocation calls.
    var allocations: MetricTolerance
    /// Bytes requested.
    var allocatedBytes: MetricTolerance
    /// Peak resident memory of the process during the test.
    var peakResident: MetricTolerance
    /// The heap's high-water mark of live bytes during an iteration.
    var peakHeap: MetricTolerance

    /// The tolerances of `table`'s `xctest` gate.
    init(table: ToleranceTable) throws {
        time = try table.required("xctest", "time")
        allocations = try table.required("xctest", "allocations")
        allocatedBytes = try table.required("xctest", "allocatedBytes")
        peakResident = try table.required("xctest", "peakResident")
        peakHeap = try table.required("xctest", "peakHeap")
    }

    /// The repository's table: `SIMHARNESS_TOLERANCES` when set, else Benchmarks/Gate/tolerances.json. A table that
    /// cannot be read stops the tests with its file, field and reason.
    static let standard: PerformanceTolerances = {
        let path = ProcessInfo.processInfo.environment["SIMHARNESS_TOLERANCES"] ?? URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Benchmarks/Gate/tolerances.json").path
        do { return try PerformanceTolerances(table: ToleranceTable.load(path)) } catch { fatalError("\(error)") }
    }()
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
