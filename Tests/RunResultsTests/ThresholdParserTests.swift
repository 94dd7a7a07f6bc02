@_spi(Tooling) @testable import RunResults
@_spi(Tooling) import Scenarios
import Testing

@Suite("Threshold expressions")
struct ThresholdParserTests {
    @Test("valid expressions give the metric, comparison and value", arguments: [
        ("payments.p99_latency_ms < 250", "payments.p99_latency_ms", Threshold.Comparison.less, 250.0),
        ("total.events_per_s > 5e6", "total.events_per_s", .greater, 5_000_000),
        ("peak_rss_mb<300", "peak_rss_mb", .less, 300),
        ("  invariant_violations == 0 ", "invariant_violations", .equal, 0),
        ("meals.rejected.too_long <= 1_000", "meals.rejected.too_long", .lessOrEqual, 1000),
        ("steps.p999_event_latency_ns >= 0.5", "steps.p999_event_latency_ns", .greaterOrEqual, 0.5),
        ("payments.captured != -1", "payments.captured", .notEqual, -1),
    ])
    func valid(text: String, metric: String, comparison: Threshold.Comparison, value: Double) throws {
        // When the expression is parsed
        let sut = try ThresholdParser.parse(text)
        // Then its parts are read as written
        #expect(sut.metric == metric)
        #expect(sut.comparison == comparison)
        #expect(sut.value == value)
        #expect(!sut.abortOnFail)
    }

    @Test("malformed expressions and unknown metrics are refused with the reason", arguments: [
        ("", "empty threshold"),
        ("peak_rss_mb 300", "malformed threshold 'peak_rss_mb 300': expected 'metric <op> number'"),
        ("peak_rss_mb = 300", "malformed threshold 'peak_rss_mb = 300': expected 'metric <op> number'"),
        ("peak_rss_mb <", "malformed threshold 'peak_rss_mb <': expected a number after '<'"),
        ("< 300", "malformed threshold '< 300': a metric name must come before '<'"),
        ("peak_rss_mb < lots", "malformed threshold 'peak_rss_mb < lots': 'lots' is not a number"),
        ("peak rss < 3", "malformed threshold 'peak rss < 3': 'peak rss' is not a metric name"),
        ("payments.p99_latncy_ms < 250", "unknown metric 'payments.p99_latncy_ms' (did you mean 'payments.p99_latency_ms'?)"),
        ("cpu_temperature < 80", "unknown metric 'cpu_temperature'"),
    ])
    func invalid(text: String, message: String) {
        // When the expression is parsed
        let error = #expect(throws: ThresholdSyntaxError.self) { try ThresholdParser.parse(text) }
        // Then the error says why
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "no error")")
    }

    @Test("mean and p95 are metrics of every latency histogram, in thresholds and in the summary")
    func meanAndP95() throws {
        // Given batches of 1, 1, 1 and 9 ms (every 20th value at least 9 ms: p95 is 9)
        var metrics = RunMetrics()
        for millis: UInt64 in [1, 1, 1, 9] { metrics.total.recordBatch(events: 1, nanos: millis * 1_000_000) }
        var sut = RunResult(
            scenario: "s", seed: 1, users: 1, days: 1, load: "fixed", shards: ["0/1"], tasks: 1, timing: true, usersPerBatch: 1,
            durationSeconds: 1, metrics: metrics
        )
        // When thresholds on them are evaluated
        sut.evaluate([try ThresholdParser.parse("total.mean_batch_latency_ms < 2"), try ThresholdParser.parse("total.p95_batch_latency_ms < 2")])
        // Then the mean (3 ms) and the p95 (9 ms, within the histogram's 1 %) fail them, and the summary shows both columns
        #expect(abs(try #require(sut.thresholds[0].value) - 3) < 0.03)
        #expect(abs(try #require(sut.thresholds[1].value) - 9) < 0.09)
        #expect(sut.thresholds.allSatisfy { !$0.passed })
        let summary = Summary.render(sut, style: TextStyle(enabled: false))
        #expect(summary.contains("  batch mean    p50    p95    p99  p99.9    max  event mean "))
        #expect(summary.contains("       3.000  1.003  9.000  9.000  9.000  9.000  3003904 ns  1003519 ns  9000000 ns "))
        #expect(MetricCatalog.isKnown("payments.mean_latency_ms") && MetricCatalog.isKnown("total.p95_response_latency_ms"))
    }

    @Test("a threshold holds or fails on the measured value, and fails without one", arguments: [
        (Threshold.Comparison.less, 10.0, 9.0, true), (.less, 10, 10, false), (.lessOrEqual, 10, 10, true),
        (.greater, 10, 10, false), (.greaterOrEqual, 10, 10, true), (.equal, 0, 0, true), (.notEqual, 0, 0, false),
    ])
    func holds(comparison: Threshold.Comparison, limit: Double, measured: Double, expected: Bool) {
        let sut = Threshold(metric: "users", comparison: comparison, value: limit)
        #expect(sut.holds(for: measured) == expected)
        #expect(!sut.holds(for: nil))
    }
}
