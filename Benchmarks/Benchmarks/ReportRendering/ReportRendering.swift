// Reports (`simharness report`): the result of an hour-long paced soak (3,600 one-second intervals,
// an RSS and CPU sample each) read from its JSON and rendered as HTML. Goal (docs/reports.md): < 1 s
// and < 2 MB. Thresholds: Benchmarks/Thresholds.
import Benchmark
import Foundation
import RunResults
import Reports

/// An hour-long soak's result: each interval with 60 batches and a spread of latencies.
func soakResult() -> RunResult {
    var metrics = RunMetrics()
    var series = IntervalSeries(intervalSeconds: 1)
    for second in 0..<3_600 {
        var interval = IntervalFigures(index: second)
        interval.events = [67_000, 315_000, 15_000, 397_000]
        interval.rejected = [140, 630, 40, 810]
        interval.batches = 60
        let spread = UInt64(second % 7)
        interval.serviceLatency = [400, 9_000, 1_500, 11_000].map { base in
            SparseCounts(buckets: (0..<12).map { (base + UInt64($0) * (base / 8) + spread, UInt64(1 + $0 % 5)) })
        }
        interval.responseLatency = SparseCounts(buckets: (0..<12).map { (12_000 + UInt64($0) * 1_500 + spread, UInt64(1 + $0 % 5)) })
        interval.targetEvents = 400_000
        series.intervals.append(interval)
        for _ in 0..<60 { metrics.total.batchLatency.record(11_000 + spread * 100) }
    }
    metrics.total.events = 397_000 * 3_600
    var process = ProcessFigures()
    process.rssSamples = (0..<3_600).map { RSSSample(seconds: Double($0), bytes: 37_000_000 + ($0 % 97) * 4_096, cpuSeconds: Double($0) * 1.2) }
    return RunResult(
        scenario: "soak", seed: 42, users: 3_000, days: 365, load: "arrival_rate 400000/s for 1h", shards: ["0/1"], tasks: 2,
        timing: true, usersPerBatch: 60, durationSeconds: 3_600, metrics: metrics, process: process, series: series
    )
}

let benchmarks: @Sendable () -> Void = {
    let document = try! ResultJSON.encode(soakResult())
    Benchmark(
        "SoakReportHTML",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(5),
            maxIterations: 20,
            // CPU time within 80 % of the recorded 551 ms keeps the goal (< 1 s); wall clock loose (a
            // shared machine moves it by 2×); 5 % on mallocs (Foundation's JSON reader).
            thresholds: [.wallClock: .init(relative: [.p90: 200]), .cpuTotal: .init(relative: [.p90: 80]),
                         .mallocCountTotal: .init(relative: [.p90: 5])]
        )
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let html = HTMLReport.render(ReportContext(result: try ResultJSON.decode(document)))
            precondition(html.utf8.count < 2_000_000, "the report weighs \(html.utf8.count) bytes")
            blackHole(html)
        }
    }
}
