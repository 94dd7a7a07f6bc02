import PaymentsCore
@_spi(Tooling) import RunResults

/// The run's final metrics in the OpenMetrics text format (`application/openmetrics-text`), for a
/// Pushgateway or a node-exporter textfile: counters, gauges, and the latencies as histograms with
/// buckets at 1, 2 and 5 of each decade from 1 µs to 100 s.
package enum OpenMetricsReport {
    /// The OpenMetrics text of `context.result`, ending in `# EOF`.
    package static func render(_ context: ReportContext) -> String {
        let result = context.result
        var out = Writer(scenario: result.scenario)
        out.family("simharness_run", "info", "the run: scenario, seed, load and output digest")
        out.sample("simharness_run_info", ["seed": "\(result.seed)", "load": result.load, "output_digest": result.digestText], 1)
        let streams: [(String, StreamMetrics)] = [
            ("meals", result.metrics.meals), ("steps", result.metrics.steps), ("payments", result.metrics.payments),
            ("total", result.metrics.total), ("generation", result.metrics.generation),
        ]
        out.family("simharness_events", "counter", "events (rows) read, per stream")
        for (stream, metrics) in streams { out.sample("simharness_events_total", ["stream": stream], Double(metrics.events)) }
        out.family("simharness_events_per_second", "gauge", "events per second over the run, per stream")
        for stream in ["meals", "steps", "payments", "total"] {
            out.sample("simharness_events_per_second", ["stream": stream], MetricCatalog.value(of: "\(stream).events_per_s", in: result) ?? 0)
        }
        out.family("simharness_rejected_rows", "counter", "rows rejected, per stream and reason")
        for (stream, metrics) in streams.prefix(3) {
            for (reason, count) in zip(metrics.rejected.reasons, metrics.rejected.counts) {
                out.sample("simharness_rejected_rows_total", ["stream": stream, "reason": reason], Double(count))
            }
        }
        out.family("simharness_payments", "counter", "payments per final state")
        for state in PaymentState.allCases {
            out.sample("simharness_payments_total", ["state": state.rawValue], Double(result.metrics.count(of: state)))
        }
        out.family("simharness_batch_latency_seconds", "histogram", "processing time per batch, per stream")
        for (stream, metrics) in streams {
            out.histogram("simharness_batch_latency_seconds", ["stream": stream], metrics.batchLatency, unitSeconds: 1e-6)
        }
        if result.metrics.responseLatency.count > 0 {
            out.family("simharness_response_latency_seconds", "histogram", "paced loads: time from when each batch was due to the end of its analysis")
            out.histogram("simharness_response_latency_seconds", [:], result.metrics.responseLatency, unitSeconds: 1e-6)
        }
        out.family("simharness_dropped_events", "counter", "paced loads: events due before the end that were never analyzed, per stream")
        for (stream, metrics) in streams.prefix(4) { out.sample("simharness_dropped_events_total", ["stream": stream], Double(metrics.dropped)) }
        out.family("simharness_payment_latency_seconds", "histogram", "simulated time from submission to final answer of a payment")
        out.histogram("simharness_payment_latency_seconds", [:], result.metrics.paymentLatency, unitSeconds: 1e-3)
        out.family("simharness_duration_seconds", "gauge", "wall-clock duration of the run")
        out.sample("simharness_duration_seconds", [:], result.durationSeconds)
        out.family("simharness_cpu_seconds", "counter", "CPU time of the process, per mode")
        out.sample("simharness_cpu_seconds_total", ["mode": "user"], result.process.cpuUserSeconds)
        out.sample("simharness_cpu_seconds_total", ["mode": "system"], result.process.cpuSystemSeconds)
        out.family("simharness_peak_resident_bytes", "gauge", "the highest resident set size during the run")
        out.sample("simharness_peak_resident_bytes", [:], Double(result.process.peakRSSBytes))
        if let allocations = result.process.allocations {
            out.family("simharness_allocations", "counter", "allocation calls during the run")
            out.sample("simharness_allocations_total", [:], Double(allocations))
        }
        out.family("simharness_invariant_violations", "gauge", "broken SPEC invariants")
        out.sample("simharness_invariant_violations", [:], Double(result.metrics.invariantViolations))
        if !result.thresholds.isEmpty {
            out.family("simharness_threshold_passed", "gauge", "1 when the threshold held, 0 when it failed")
            for outcome in result.thresholds {
                out.sample("simharness_threshold_passed", ["threshold": outcome.threshold.text], outcome.passed ? 1 : 0)
            }
        }
        return out.text + "# EOF\n"
    }

    /// Bucket bounds in seconds: 1, 2 and 5 of each decade from 1 µs to 100 s.
    static let bounds: [Double] = (-6...2).flatMap { exponent in [1, 2, 5].map { Double("\($0)e\(exponent)")! } }

    private struct Writer {
        let scenario: String
        var text = ""

        mutating func family(_ name: String, _ type: String, _ help: String) {
            text += "# TYPE \(name) \(type)\n# HELP \(name) \(help)\n"
        }

        mutating func sample(_ name: String, _ labels: [String: String], _ value: Double) {
            var all = labels
            all["scenario"] = scenario
            let rendered = all.keys.sorted().map { "\($0)=\"\(Self.escapedLabel(all[$0]!))\"" }.joined(separator: ",")
            text += "\(name){\(rendered)} \(Self.number(value))\n"
        }

        /// Cumulative buckets of `histogram`, whose values are in units of `unitSeconds`.
        mutating func histogram(_ name: String, _ labels: [String: String], _ histogram: LatencyHistogram, unitSeconds: Double) {
            for bound in OpenMetricsReport.bounds {
                let atMost = histogram.count(atMost: UInt64((bound / unitSeconds * (1 + 1e-9)).rounded(.down)))
                sample(name + "_bucket", labels.merging(["le": "\(bound)"]) { a, _ in a }, Double(atMost))
            }
            sample(name + "_bucket", labels.merging(["le": "+Inf"]) { a, _ in a }, Double(histogram.count))
            sample(name + "_count", labels, Double(histogram.count))
            sample(name + "_sum", labels, histogram.count == 0 ? 0 : histogram.mean * Double(histogram.count) * unitSeconds)
        }

        static func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        }

        static func escapedLabel(_ value: String) -> String {
            value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
        }
    }
}
