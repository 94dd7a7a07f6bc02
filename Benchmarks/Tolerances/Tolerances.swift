// The gates' tolerance table (Gate/tolerances.json, read by `Suite.tolerances`) as package-benchmark's thresholds.
// Apart from Suite: TimeRatios uses Suite and must not link package-benchmark (its malloc interposer).
import Benchmark
@_spi(Tooling) import ProcessMetrics
import Suite

/// package-benchmark's p90 thresholds for `metrics` of `benchmark` (`Target:Benchmark`), from the table's `benchmarks`
/// gate (`metric@Target:Benchmark`, or a prefix of it ending in `*`). package-benchmark takes a relative or an
/// absolute threshold, so each entry must have one of the two.
public func thresholds(_ benchmark: String, _ metrics: [BenchmarkMetric]) -> [BenchmarkMetric: BenchmarkThresholds] {
    var thresholds: [BenchmarkMetric: BenchmarkThresholds] = [:]
    for metric in metrics {
        let key = "\(metric.rawDescription)@\(benchmark)"
        let tolerance: MetricTolerance
        do { tolerance = try Suite.tolerances.required("benchmarks", key) } catch { fatalError("\(error)") }
        switch (tolerance.relative > 0, tolerance.absolute > 0) {
        case (true, false): thresholds[metric] = .init(relative: [.p90: tolerance.relative * 100])
        case (false, _): thresholds[metric] = .init(absolute: [.p90: Int(tolerance.absolute)])
        case (true, true): fatalError("\(Suite.tolerances.source): gates.benchmarks.\(key) must be relative or absolute, not both")
        }
    }
    return thresholds
}
