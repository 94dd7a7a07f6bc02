import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults

/// One self-contained HTML page (inline CSS and SVG; no script, font or image from anywhere):
/// the verdict first, then charts of the run, beside the reference run when there is one, and
/// trend lines over the history.
@_spi(Tooling) public enum HTMLReport {
    /// The HTML document of `context`.
    @_spi(Tooling) public static func render(_ context: ReportContext) -> String {
        let result = context.result
        var body = verdict(context)
        body += #"<section class="charts">"#
        for chart in charts(context) { body += "<figure>\(chart)</figure>" }
        body += "</section>"
        if context.history.count > 1 { body += history(context) }
        if let check = result.check { body += CheckSection.html(check) }
        body += details(result)
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>SimHarness report: \(escaped(result.scenario))</title>
            <style>\(style)</style></head>
            <body><main>\(body)</main></body></html>

            """
    }

    // MARK: - Verdict and tables

    private static func verdict(_ context: ReportContext) -> String {
        let result = context.result
        let passed = context.passed
        let warned = passed && !context.warnings.isEmpty
        let (verdictClass, heading) = !passed ? ("fail", "Failed") : warned ? ("warn", "Passed with a warning") : ("pass", "Passed")
        var html = #"<header class="verdict \#(verdictClass)"><h1>\#(heading)</h1>"#
        html += "<p>Scenario <b>\(escaped(result.scenario))</b>, seed \(result.seed), \(result.users) users × \(result.days) days, load \(escaped(result.load)), "
        html += "\(result.shards.joined(separator: ", ")) · \(Summary.compact(result.durationSeconds)) s · \(result.status.rawValue) · output digest <code>\(result.digestText)</code></p>"
        var problems: [String] = []
        problems += result.thresholds.filter { !$0.passed }.map { "threshold \($0.threshold.text) failed (measured \($0.value.map(Summary.compact) ?? "nothing"))" }
        if result.metrics.invariantViolations > 0 { problems.append("\(result.metrics.invariantViolations) SPEC invariant violations") }
        if let reference = context.reference {
            problems += reference.report.regressions.map { $0.message(Summary.compact) }
            if reference.report.sameOutputs == false { problems.append("the output digest differs from \(reference.label)'s") }
        }
        problems += context.warnings.map { "warning: " + $0 }
        if !problems.isEmpty { html += "<ul>" + problems.map { "<li>\(escaped($0))</li>" }.joined() + "</ul>" }
        html += "</header>"
        if let line = ReportContext.boundariesLine(result) { html += "<p class=\"boundaries\">\(escaped(line))</p>" }
        if !result.thresholds.isEmpty {
            html += "<h2>Thresholds</h2><table><thead><tr><th>threshold</th><th>measured</th><th>verdict</th></tr></thead><tbody>"
            for outcome in result.thresholds {
                html += "<tr><td><code>\(escaped(outcome.threshold.text))</code></td><td class=\"number\">\(outcome.value.map(Summary.compact) ?? "—")</td>"
                html += "<td class=\"\(outcome.passed ? "pass" : "fail")\">\(outcome.passed ? "passed" : "failed")</td></tr>"
            }
            html += "</tbody></table>"
        }
        html += "<h2>Key metrics</h2><table><thead><tr><th>metric</th><th>\(escaped(context.label))</th>"
        if let reference = context.reference { html += "<th>\(escaped(reference.label))</th><th>change</th><th></th>" }
        html += "</tr></thead><tbody>"
        for metric in ReportContext.keyMetrics {
            guard let value = MetricCatalog.value(of: metric, in: result) else { continue }
            html += "<tr><td><code>\(metric)</code></td><td class=\"number\">\(Summary.compact(value))</td>"
            if context.reference != nil {
                let comparison = context.comparison(of: metric)
                html += "<td class=\"number\">\(comparison.map { Summary.compact($0.baseline) } ?? "—")</td>"
                html += "<td class=\"number\">\(comparison?.changeText ?? "—")</td><td>\(comparison?.markHTML ?? "")</td>"
            }
            html += "</tr>"
        }
        html += "</tbody></table>"
        if let reference = context.reference, !reference.counts.isEmpty {
            html += "<h2>Counts</h2><table><thead><tr><th>count</th><th>\(escaped(context.label))</th><th>\(escaped(reference.label))</th><th>change</th></tr></thead><tbody>"
            for count in reference.counts {
                html += "<tr><td><code>\(count.metric)</code></td><td class=\"number\">\(Summary.compact(count.value))</td>"
                html += "<td class=\"number\">\(Summary.compact(count.reference))</td><td class=\"number\">\(count.changeText)</td></tr>"
            }
            html += "</tbody></table>"
        }
        return html
    }

    private static func details(_ result: RunResult) -> String {
        var html = "<h2>Run</h2><table><tbody>"
        let rows: [(String, String)] = [
            ("tasks", "\(result.tasks)"), ("users per batch", "\(result.usersPerBatch)"),
            ("CPU user / system", "\(Summary.compact(result.process.cpuUserSeconds)) s / \(Summary.compact(result.process.cpuSystemSeconds)) s"),
            ("peak resident memory", "\(Summary.compact(Double(result.process.peakRSSBytes) / 1e6)) MB"),
            ("allocations", result.process.allocations.map { Summary.compact(Double($0)) } ?? "not counted (\(result.process.allocator))"),
        ] + result.machines.map { ("machine", $0.summary) }
        for (name, value) in rows { html += "<tr><th>\(escaped(name))</th><td>\(escaped(value))</td></tr>" }
        return html + "</tbody></table>"
    }

    // MARK: - Charts

    private static func charts(_ context: ReportContext) -> [String] {
        let result = context.result
        let other = context.reference?.run
        let runs = [(context.label, result)] + (other.map { [("\(context.reference!.label)", $0)] } ?? [])
        var charts: [String] = []
        let streams = ["meals", "steps", "payments", "total"]
        charts.append(SVGChart.bars(
            id: "throughput", title: "Throughput per stream", valueTitle: "events per second", labels: streams,
            seriesNames: runs.map(\.0), values: streams.map { stream in runs.map { MetricCatalog.value(of: "\(stream).events_per_s", in: $0.1) ?? 0 } },
            format: SVGChart.compactNumber
        ))
        let latencySeries = runs.enumerated().flatMap { index, run in
            [("meals", run.1.metrics.meals), ("steps", run.1.metrics.steps), ("payments", run.1.metrics.payments)].enumerated()
                .filter { $0.element.1.batchLatency.count > 0 }
                .map { stream, entry in
                    SVGChart.Series(
                        name: index == 0 ? entry.0 : "\(entry.0) (\(run.0))", points: percentilePoints(entry.1.batchLatency, scale: 1e-3),
                        dashed: index > 0, color: stream
                    )
                }
        }
        if !latencySeries.isEmpty {
            charts.append(SVGChart.lines(
                id: "batch-latency", title: "Batch latency distribution", xAxis: .percentile, yTitle: "milliseconds per batch",
                series: latencySeries, yFormat: SVGChart.compactNumber
            ))
        }
        charts += overTime(result, other: other, labels: (context.label, context.reference?.label ?? ""))
        let samples = result.process.rssSamples
        if samples.count > 1 {
            let memory = runs.enumerated().filter { $0.element.1.process.rssSamples.count > 1 }.map { index, run in
                SVGChart.Series(
                    name: other == nil ? "RSS" : "RSS (\(run.0))", points: run.1.process.rssSamples.map { ($0.seconds, Double($0.bytes) / 1e6) },
                    dashed: index > 0, color: index
                )
            }
            charts.append(SVGChart.lines(
                id: "memory", title: "Resident memory over time", xAxis: .linear(title: "seconds since the start"), yTitle: "MB",
                series: memory, yFormat: SVGChart.compactNumber
            ))
        }
        charts.append(SVGChart.bars(
            id: "cpu", title: "CPU time", valueTitle: "seconds", labels: ["user", "system"], seriesNames: runs.map(\.0),
            values: [runs.map(\.1.process.cpuUserSeconds), runs.map(\.1.process.cpuSystemSeconds)], format: SVGChart.compactNumber
        ))
        let rejected = [("meals", result.metrics.meals), ("steps", result.metrics.steps), ("payments", result.metrics.payments)]
            .flatMap { stream, metrics in metrics.rejected.nonZero.map { ("\(stream): \($0.reason)", Double($0.count)) } }
        if !rejected.isEmpty {
            charts.append(SVGChart.bars(
                id: "rejections", title: "Rejected rows by reason", valueTitle: "rows", labels: rejected.map(\.0),
                seriesNames: ["rows"], values: rejected.map { [$0.1] }, format: SVGChart.compactNumber
            ))
        }
        let states = PaymentState.allCases.filter { state in runs.contains { $0.1.metrics.count(of: state) > 0 } }
        if !states.isEmpty {
            charts.append(SVGChart.bars(
                id: "payment-states", title: "Payments by final state", valueTitle: "payments", labels: states.map(\.rawValue),
                seriesNames: runs.map(\.0), values: states.map { state in runs.map { Double($0.1.metrics.count(of: state)) } },
                format: SVGChart.compactNumber
            ))
        }
        let paymentSeries = runs.enumerated().filter { $0.element.1.metrics.paymentLatency.count > 0 }.map { index, run in
            SVGChart.Series(name: run.0, points: percentilePoints(run.1.metrics.paymentLatency, scale: 1), dashed: index > 0, color: index)
        }
        if !paymentSeries.isEmpty {
            charts.append(SVGChart.lines(
                id: "payment-latency", title: "Simulated payment latency (retries and backoff included)", xAxis: .percentile,
                yTitle: "milliseconds", series: paymentSeries, yFormat: SVGChart.compactNumber
            ))
        }
        return charts
    }

    /// The charts of the time series: throughput per stream against the target, service and
    /// response time, how far behind schedule, what was dropped, and CPU use; the other run's
    /// lines dashed beside this one's. `labels`: this run's and the other run's names.
    private static func overTime(_ result: RunResult, other: RunResult?, labels: (this: String, other: String)) -> [String] {
        let series = result.series
        guard !series.intervals.isEmpty else { return [] }
        let compared = other.flatMap { $0.series.intervals.isEmpty ? nil : $0 }
        let runs = [(labels.this, result)] + (compared.map { [(labels.other, $0)] } ?? [])
        func at(_ interval: IntervalFigures, _ run: RunResult) -> Double { (Double(interval.index) + 0.5) * run.series.intervalSeconds }
        /// `name`, or `name (label)` for the other run.
        func named(_ name: String, _ index: Int) -> String { index == 0 ? name : "\(name) (\(runs[index].0))" }
        var charts: [String] = []
        // Rates of an interval the run covered less than half of (its last) say more about the
        // batches than about the rate: they are left out.
        func covered(_ run: RunResult) -> [(interval: IntervalFigures, seconds: Double)] {
            run.series.intervals.map { ($0, run.series.span(ofInterval: $0.index, runSeconds: run.durationSeconds)) }
                .filter { $0.seconds >= run.series.intervalSeconds / 2 }
        }
        let rated = covered(result)
        var throughput = IntervalFigures.streams.enumerated().map { stream, name in
            SVGChart.Series(name: name, points: rated.map { (at($0.interval, result), Double($0.interval.events[stream]) / $0.seconds) }, color: stream)
        }
        if series.intervals.contains(where: { $0.targetEvents != nil }) {
            throughput.append(SVGChart.Series(
                name: "target", points: rated.compactMap { i in i.interval.targetEvents.map { (at(i.interval, result), $0 / i.seconds) } },
                dashed: true, color: 5
            ))
        }
        if let compared {
            throughput.append(SVGChart.Series(
                name: named("total", 1), points: covered(compared).map { (at($0.interval, compared), Double($0.interval.events[3]) / $0.seconds) },
                dashed: true, color: 3
            ))
        }
        charts.append(SVGChart.lines(
            id: "throughput-over-time", title: "Throughput over time", xAxis: .linear(title: "seconds since the start"),
            yTitle: "events per second", series: throughput, yFormat: SVGChart.compactNumber
        ))
        var latency: [SVGChart.Series] = []
        for (index, run) in runs.enumerated() {
            let intervals = run.1.series.intervals
            latency += [(50.0, "p50"), (99.0, "p99")].enumerated().map { color, percentile in
                SVGChart.Series(
                    name: named("service \(percentile.1)", index),
                    points: intervals.map { (at($0, run.1), Double($0.serviceLatency[3].percentile(percentile.0)) / 1e3) },
                    dashed: index > 0, color: color + 2 * index
                )
            }
            guard intervals.contains(where: { $0.responseLatency.count > 0 }) else { continue }
            latency += [(50.0, "p50"), (99.0, "p99")].enumerated().map { color, percentile in
                SVGChart.Series(
                    name: named("response \(percentile.1)", index),
                    points: intervals.map { (at($0, run.1), Double($0.responseLatency.percentile(percentile.0)) / 1e3) },
                    dashed: true, color: color + 2 * index
                )
            }
        }
        charts.append(SVGChart.lines(
            id: "latency-over-time", title: "Batch latency over time (all streams)", xAxis: .linear(title: "seconds since the start"),
            yTitle: "milliseconds per batch", series: latency, yFormat: SVGChart.compactNumber
        ))
        if series.intervals.contains(where: { $0.targetEvents != nil }) {
            let paced = runs.enumerated().filter { $0.element.1.series.intervals.contains { $0.targetEvents != nil } }
            charts.append(SVGChart.lines(
                id: "schedule-over-time", title: "Paced load: behind schedule", xAxis: .linear(title: "seconds since the start"),
                yTitle: "seconds behind schedule", series: paced.map { index, run in
                    SVGChart.Series(
                        name: named("behind schedule", index), points: run.1.series.intervals.map { (at($0, run.1), $0.behindScheduleSeconds) },
                        dashed: index > 0, color: index
                    )
                }, yFormat: SVGChart.compactNumber
            ))
            charts.append(SVGChart.lines(
                id: "dropped-over-time", title: "Paced load: events dropped", xAxis: .linear(title: "seconds since the start"),
                yTitle: "events dropped per interval", series: paced.map { index, run in
                    SVGChart.Series(
                        name: named("dropped", index), points: run.1.series.intervals.map { (at($0, run.1), Double($0.dropped[3])) },
                        dashed: index > 0, color: index
                    )
                }, yFormat: SVGChart.compactNumber
            ))
        }
        let samples = result.process.rssSamples.filter { $0.cpuSeconds != nil }
        if samples.count > 1 {
            let cores = zip(samples, samples.dropFirst()).map { a, b in
                ((a.seconds + b.seconds) / 2, (b.cpuSeconds! - a.cpuSeconds!) / Swift.max(1e-9, b.seconds - a.seconds))
            }
            charts.append(SVGChart.lines(
                id: "cpu-over-time", title: "CPU use over time", xAxis: .linear(title: "seconds since the start"), yTitle: "cores busy",
                series: [SVGChart.Series(name: "CPU (user + system)", points: cores)], yFormat: SVGChart.compactNumber
            ))
        }
        return charts
    }

    private static func history(_ context: ReportContext) -> String {
        let runs = context.history + [context.result]
        var html = "<h2>History (\(runs.count) runs, oldest first)</h2><section class=\"charts\">"
        let metrics = [
            ("total.events_per_s", "events per second"), ("total.p99_batch_latency_ms", "p99 batch latency, ms"),
            ("cpu_user_s", "CPU user seconds"), ("peak_rss_mb", "peak RSS, MB"),
        ]
        for (metric, title) in metrics {
            let points = runs.enumerated().compactMap { index, run in MetricCatalog.value(of: metric, in: run).map { (Double(index + 1), $0) } }
            guard !points.isEmpty else { continue }
            html += "<figure>" + SVGChart.lines(
                id: "history-\(metric)", title: "\(metric) across runs", xAxis: .linear(title: "run"), yTitle: title,
                series: [SVGChart.Series(name: metric, points: points)], yFormat: SVGChart.compactNumber
            ) + "</figure>"
        }
        return html + "</section>"
    }

    /// Points of a percentile plot, values multiplied by `scale`.
    private static func percentilePoints(_ histogram: LatencyHistogram, scale: Double) -> [(x: Double, y: Double)] {
        [0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99].map { ($0, Double(histogram.percentile($0)) * scale) }
    }

    private static let style = """
        body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
        main{max-width:1240px;margin:0 auto;padding:16px}
        h1{margin:0 0 4px;font-size:28px}h2{font-size:20px;margin:28px 0 8px}
        .verdict{border-radius:8px;padding:14px 18px}.verdict.pass{background:#dafbe1;border:2px solid #1a7f37}
        .verdict.fail{background:#ffebe9;border:2px solid #d1242f}.verdict.warn{background:#fff8c5;border:2px solid #9a6700}
        p.fail{color:#d1242f;font-weight:600}
        .mark::before{content:"";display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px;background:currentColor}
        .mark.regressed{color:#d1242f;font-weight:600}.mark.improved{color:#1a7f37;font-weight:600}
        table{border-collapse:collapse;width:100%;max-width:100%;display:block;overflow-x:auto}
        th,td{text-align:left;padding:4px 10px;border-bottom:1px solid #d0d7de}td.number{text-align:right;font-variant-numeric:tabular-nums}
        td.pass{color:#1a7f37;font-weight:600}td.fail{color:#d1242f;font-weight:600}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,560px),1fr));gap:16px;margin-top:20px}
        figure{margin:0;border:1px solid #d0d7de;border-radius:8px;padding:8px}
        svg.chart{width:100%;height:auto;display:block}
        .chart-title{font-size:19px;font-weight:600}.tick,.value,.legend,.label{font-size:16px;fill:#424a53}
        .axis-title{font-size:16px;fill:#1f2328}.grid{stroke:#eaeef2}.axis{stroke:#424a53}
        """
}
