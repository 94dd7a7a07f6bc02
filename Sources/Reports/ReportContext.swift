import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults

/// What a report shows: one run, optionally compared with a reference (a baseline file or another
/// run) and followed over earlier runs. The renderers read this and nothing else.
@_spi(Tooling) public struct ReportContext: Sendable {
    /// The run reported on.
    package var result: RunResult
    /// What the run is compared with, if anything.
    package var reference: Reference?
    /// Earlier runs, oldest first, for trend lines.
    package var history: [RunResult]
    /// What the run is called beside another one (`spike · pr-123`).
    package var label = "this run"

    /// A comparison with a baseline or with another run.
    package struct Reference: Sendable {
        /// What the reference is, e.g. `baseline Baselines/default.json` or `run main.json`.
        package var label: String
        /// Each metric of the reference, compared with the run.
        package var report: BaselineReport
        /// The other run, when the reference is a run (drawn beside this one in the charts).
        package var run: RunResult?
        /// The counts of both runs, when the reference is a run: compared as figures, whether or
        /// not the runs did the same work.
        package var counts: [CountComparison] = []
    }

    /// A count of this run beside the other run's.
    package struct CountComparison: Sendable, Equatable {
        /// The metric (`total.events`).
        package var metric: String
        /// This run's value.
        package var value: Double
        /// The other run's.
        package var reference: Double

        /// `+12.5 %`, `0.0 %`, or `—` from 0.
        package var changeText: String {
            MetricComparison(metric: metric, direction: .exact, baseline: reference, measured: value, tolerance: .exact).changeText
        }
    }

    /// The counts `report --compare` sets side by side (those both runs have; `payments.rejected`
    /// names both the rejected rows and the payments in that final state, the same count).
    package static let countMetrics = [
        "users", "total.events", "meals.events", "steps.events", "payments.events", "dropped_events",
        "meals.rejected", "steps.rejected", "payments.rejected",
    ] + PaymentState.allCases.filter { $0 != .rejected }.map { "payments.\($0.rawValue)" } + ["invariant_violations"]

    /// A report of `result` alone.
    @_spi(Tooling) public init(result: RunResult, history: [RunResult] = []) {
        self.result = result
        self.history = history
    }

    /// Compares with another run: each metric a baseline records, with the baseline's default
    /// tolerances; counts and the output digest only when both runs did the same work (same
    /// scenario, seed and size, both with the fixed load model).
    package mutating func compare(with other: RunResult, label: String) throws(ReportError) {
        let sameWork = other.scenario == result.scenario && other.seed == result.seed && other.users == result.users
            && other.days == result.days && other.ranFixedLoad && result.ranFixedLoad
        let calibration = Calibration(score: 1, cpuScore: 1)
        let machine = result.machines.first ?? MachineDescription.current()
        do {
            let before = try BaselineMeasurement(results: [other], deterministic: sameWork, calibration: calibration, machine: machine)
            let now = try BaselineMeasurement(results: [result], deterministic: sameWork, calibration: calibration, machine: machine)
            // Every metric judged: two runs compared figure for figure, as `baseline check --gate all` would.
            reference = Reference(label: label, report: BaselineReport(baseline: before, current: now, gate: .all), run: other)
            reference?.counts = Self.countMetrics.compactMap { metric in
                guard let value = MetricCatalog.value(of: metric, in: result), let theirs = MetricCatalog.value(of: metric, in: other) else { return nil }
                return CountComparison(metric: metric, value: value, reference: theirs)
            }
        } catch {
            throw ReportError(message: error.message)
        }
    }

    /// Compares with a recorded baseline, figure for figure (times are not scaled to this
    /// machine: `baseline check` does that, by running the scenario again).
    package mutating func compare(with baseline: BaselineMeasurement, label: String) throws(ReportError) {
        guard baseline.scenario == result.scenario else {
            throw ReportError(message: "the baseline is of scenario '\(baseline.scenario)', the run of '\(result.scenario)'")
        }
        do {
            let now = try BaselineMeasurement(
                results: [result], deterministic: baseline.outputDigest != nil, calibration: baseline.calibration,
                machine: result.machines.first ?? baseline.machine
            )
            reference = Reference(label: label, report: BaselineReport(baseline: baseline, current: now, gate: .all), run: nil)
        } catch {
            throw ReportError(message: error.message)
        }
    }

    /// `SPEC boundaries exercised: N of M` and the entries not reached, when the run was checked.
    package static func boundariesLine(_ result: RunResult) -> String? { result.check?.boundaries.line }

    /// Whether every threshold held, no invariant broke and nothing regressed against the reference.
    package var passed: Bool {
        result.passed && result.metrics.invariantViolations == 0 && result.status != .aborted && reference?.report.passed != false
    }

    /// Warnings that do not fail the run: a paced load that missed its schedule unjudged.
    package var warnings: [String] { result.scheduleWarning.map { [$0.text] } ?? [] }

    /// The metrics a short report leads with, in this order (those the run has).
    package static let keyMetrics = [
        "total.events_per_s", "meals.events_per_s", "steps.events_per_s", "payments.events_per_s",
        "total.p99_batch_latency_ms", "total.p99_response_latency_ms", "total.p99_event_latency_ns", "payments.p99_latency_ms",
        "dropped_events",
        "duration_s", "cpu_user_s", "peak_rss_mb", "allocations_per_event",
        "meals.rejected", "steps.rejected", "payments.rejected", "invariant_violations",
    ]

    /// The comparison of `metric` with the reference, if it was compared.
    package func comparison(of metric: String) -> MetricComparison? {
        reference?.report.comparisons.first { $0.metric == metric }
    }
}

/// Why a report cannot be made of its inputs.
package struct ReportError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong.
    package var message: String
    /// The message.
    package var description: String { message }
}

/// Escapes text for XML and HTML content and attribute values.
func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(character)
        }
    }
    return out
}

extension MetricComparison {
    /// The relative change from the reference, nil without a value or from 0.
    var change: Double? {
        guard let measured, baseline != 0 else { return nil }
        return (measured - baseline) / abs(baseline)
    }

    /// The change as a signed percentage with one decimal, `—` without one.
    var changeText: String {
        guard let change else { return "—" }
        let value = (change * 1000).rounded() / 10
        return value == 0 ? "0.0 %" : (value > 0 ? "+" : "") + "\(value) %"
    }

    /// 🔴 for a regression, 🟢 for an improvement beyond the tolerance, nothing otherwise (Markdown).
    var mark: String {
        switch verdict {
        case .regressed: "🔴"
        case .improved: "🟢"
        case .held, .notCompared: ""
        }
    }

    /// The verdict in words after a dot drawn by CSS, for HTML: no glyph that needs an emoji font.
    var markHTML: String {
        switch verdict {
        case .regressed: #"<span class="mark regressed">regressed</span>"#
        case .improved: #"<span class="mark improved">improved</span>"#
        case .held, .notCompared: ""
        }
    }
}

/// The report formats, each with the file name `run --report-dir` gives it.
package enum ReportFormat: String, CaseIterable, Sendable {
    case html, markdown, junit, openmetrics, hdrlog

    /// The file name in a report directory.
    package var fileName: String {
        switch self {
        case .html: "report.html"
        case .markdown: "summary.md"
        case .junit: "junit.xml"
        case .openmetrics: "metrics.txt"
        case .hdrlog: "latency.hlog"
        }
    }

    /// The text of the report of `context` in this format.
    package func render(_ context: ReportContext) -> String {
        switch self {
        case .html: HTMLReport.render(context)
        case .markdown: MarkdownReport.render(context)
        case .junit: JUnitReport.render(context)
        case .openmetrics: OpenMetricsReport.render(context)
        case .hdrlog: HdrIntervalLog.render(context.result)
        }
    }
}
