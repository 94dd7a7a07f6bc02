import PaymentsCore

/// The names of a run's metrics, as thresholds and baselines use them, and their values.
///
/// - `<s>.events`, `<s>.events_per_s`, `<s>.batches` for `<s>` in meals, steps, payments, total,
///   generation; `<s>.rejected` and `<s>.rejected.<reason>` for meals, steps, payments.
/// - `<s>.<p>_batch_latency_ms` and `<s>.<p>_event_latency_ns` with `<p>` in mean, p50, p90, p95,
///   p99, p999, max: processing time per batch and per event.
/// - `payments.<p>_latency_ms`: simulated payment latency (virtual time, retries and backoff
///   included); `payments.<state>` for each final state.
/// - Paced loads: `total.<p>_response_latency_ms` (from when each batch was due to the end of its
///   analysis), `<s>.dropped_events` and `dropped_events` (due before the end, never analyzed),
///   `behind_schedule_s` (the most a batch started after it was due).
/// - `users`, `duration_s`, `cpu_user_s`, `cpu_system_s`, `peak_rss_mb`, `rss_slope_mb_per_min`,
///   `allocations`, `allocated_mb`, `allocations_per_event`, `invariant_violations`.
/// - `mismatches`: fields that differ from the reference's (`run --check-against reference`);
///   `boundaries_unreached`: the SPEC boundaries the checked users did not reach on both sides.
package enum MetricCatalog {
    typealias Extractor = @Sendable (RunResult) -> Double?

    /// The statistics of a histogram a metric name can ask for, and how to read each.
    static let percentiles: [(name: String, value: @Sendable (LatencyHistogram) -> Double)] = [
        ("mean", { $0.mean }), ("p50", { Double($0.percentile(50)) }), ("p90", { Double($0.percentile(90)) }),
        ("p95", { Double($0.percentile(95)) }), ("p99", { Double($0.percentile(99)) }), ("p999", { Double($0.percentile(99.9)) }),
        ("max", { Double($0.max) }),
    ]

    static let streams: [(name: String, metrics: @Sendable (RunResult) -> StreamMetrics, rate: @Sendable (RunResult) -> Double?)] = [
        ("meals", { $0.metrics.meals }, { $0.eventsPerSecond.meals }),
        ("steps", { $0.metrics.steps }, { $0.eventsPerSecond.steps }),
        ("payments", { $0.metrics.payments }, { $0.eventsPerSecond.payments }),
        ("total", { $0.metrics.total }, { $0.eventsPerSecond.total }),
        ("generation", { $0.metrics.generation }, { _ in nil }),
    ]

    static let extractors: [String: Extractor] = {
        var table: [String: Extractor] = [:]
        for stream in streams {
            let metrics = stream.metrics
            table["\(stream.name).events"] = { Double(metrics($0).events) }
            table["\(stream.name).batches"] = { Double(metrics($0).batches) }
            if stream.name != "generation" { table["\(stream.name).events_per_s"] = stream.rate }
            for (name, percentile) in percentiles {
                table["\(stream.name).\(name)_batch_latency_ms"] = { value(metrics($0).batchLatency, percentile).map { $0 / 1e3 } }
                table["\(stream.name).\(name)_event_latency_ns"] = { value(metrics($0).eventLatency, percentile) }
            }
            if stream.name != "generation" { table["\(stream.name).dropped_events"] = { Double(metrics($0).dropped) } }
            guard !metrics(RunResult.empty).rejected.reasons.isEmpty else { continue }
            table["\(stream.name).rejected"] = { Double(metrics($0).rejected.total) }
            for reason in metrics(RunResult.empty).rejected.reasons {
                table["\(stream.name).rejected.\(reason)"] = { Double(metrics($0).rejected[reason]) }
            }
        }
        for (name, percentile) in percentiles {
            table["payments.\(name)_latency_ms"] = { value($0.metrics.paymentLatency, percentile) }
        }
        for (name, percentile) in percentiles {
            table["total.\(name)_response_latency_ms"] = { value($0.metrics.responseLatency, percentile).map { $0 / 1e3 } }
        }
        table["dropped_events"] = { Double($0.metrics.total.dropped) }
        table["behind_schedule_s"] = { $0.metrics.behindScheduleSeconds }
        for state in PaymentState.allCases {
            table["payments.\(state.rawValue)"] = { Double($0.metrics.count(of: state)) }
        }
        table["users"] = { Double($0.metrics.users) }
        table["duration_s"] = { $0.durationSeconds }
        table["cpu_user_s"] = { $0.process.cpuUserSeconds }
        table["cpu_system_s"] = { $0.process.cpuSystemSeconds }
        table["peak_rss_mb"] = { Double($0.process.peakRSSBytes) / 1e6 }
        table["rss_slope_mb_per_min"] = { $0.process.rssSlopeMBPerMinute }
        table["allocations"] = { $0.process.allocations.map(Double.init) }
        table["allocated_mb"] = { $0.process.allocatedBytes.map { Double($0) / 1e6 } }
        table["allocations_per_event"] = { r in r.process.allocations.map { Double($0) / Double(max(1, r.metrics.events)) } }
        table["invariant_violations"] = { Double($0.metrics.invariantViolations) }
        table["mismatches"] = { $0.check.map { Double($0.mismatches) } }
        table["boundaries_unreached"] = { $0.check.map { Double($0.boundaries.unreached.count) } }
        return table
    }()

    /// The rejection reasons of `stream` (meals, steps or payments), in SPEC order.
    static func rejectionReasons(of stream: String) -> [String] {
        streams.first { $0.name == stream }.map { $0.metrics(RunResult.empty).rejected.reasons } ?? []
    }

    /// Every metric name, sorted.
    package static var names: [String] { extractors.keys.sorted() }

    /// Whether `name` is a metric thresholds and baselines can use.
    package static func isKnown(_ name: String) -> Bool { extractors[name] != nil }

    /// The value of metric `name` in `result`; nil for an unknown name or a metric without a value.
    package static func value(of name: String, in result: RunResult) -> Double? {
        extractors[name]?(result)
    }

    /// The known name closest to `name` (by edit distance), if reasonably close.
    static func suggestion(for name: String) -> String? {
        let target = Array(name)
        var best: (name: String, distance: Int)?
        for candidate in names {
            let distance = editDistance(target, Array(candidate))
            if distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, name.count / 4) else { return nil }
        return best.name
    }

    private static func value(_ histogram: LatencyHistogram, _ statistic: (LatencyHistogram) -> Double) -> Double? {
        histogram.count > 0 ? statistic(histogram) : nil
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension RunResult {
    /// A result with nothing in it (the shape of the metrics).
    static let empty = RunResult(
        scenario: "", seed: 0, users: 0, days: 0, load: "", shards: [], tasks: 0, timing: false, usersPerBatch: 0,
        durationSeconds: 0, metrics: RunMetrics()
    )
}
