// Reports (`simharness report`): the result of an hour-long paced soak (3,600 one-second intervals,
// an RSS and CPU sample each) read from its JSON and rendered as HTML. Goal (docs/reports.md): < 1 s
// and < 2 MB. The gate judges malloc counts here (Benchmarks/Thresholds) and the time with TimeRatios.
import Benchmark
import Suite
import Tolerances

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "SoakReportHTML",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(5),
            maxIterations: 20,
            // Foundation's JSON reader: the mallocs vary a little.
            thresholds: thresholds("ReportRendering:SoakReportHTML", [.mallocCountTotal])
        )
    ) { benchmark in
        blackHole(Suite.soakDocument.count)
        for _ in benchmark.scaledIterations {
            blackHole(try Suite.renderSoakReport())
        }
    }
}
