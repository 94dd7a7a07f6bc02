import Foundation
import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import Scenarios

/// ANSI styling that is either on or off (off when stdout is not a terminal or `NO_COLOR` is set).
package struct TextStyle: Sendable {
    /// Whether escape sequences are written.
    package var enabled: Bool

    /// Styling on or off.
    package init(enabled: Bool) { self.enabled = enabled }

    /// Whether a terminal should get colours: `isTerminal` and no `NO_COLOR` in the environment.
    package static func automatic(isTerminal: Bool, environment: [String: String]) -> TextStyle {
        TextStyle(enabled: isTerminal && environment["NO_COLOR"] == nil)
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// The summary of a run for people: a table per stream, payments, rejections, the process
/// figures and the thresholds.
package enum Summary {
    /// The summary text of `result`, styled by `style`.
    package static func render(_ result: RunResult, style: TextStyle) -> String {
        let m = result.metrics
        var lines: [String] = []
        lines.append(style.bold("simharness run: \(result.scenario)") + " (seed \(result.seed), \(result.users) users × \(result.days) days, "
            + "\(result.load); shard \(result.shards.joined(separator: "+")), \(result.tasks) task\(result.tasks == 1 ? "" : "s"))")
        let status = result.status == .completed ? style.green(result.status.rawValue) : style.yellow(result.status.rawValue)
        lines.append("\(status) in \(fixed(result.durationSeconds, 2)) s" + (result.stopReason.map { ": \($0)" } ?? ""))
        lines.append("")

        var table: [[String]] = [[
            "stream", "events", "events/s", "rejected", "batch mean", "p50", "p95", "p99", "p99.9", "max", "event mean", "p50", "p95", "p99", "max",
        ]]
        let rows: [(String, StreamMetrics, Double?)] = [
            ("meals", m.meals, result.eventsPerSecond.meals), ("steps", m.steps, result.eventsPerSecond.steps),
            ("payments", m.payments, result.eventsPerSecond.payments), ("total", m.total, result.eventsPerSecond.total),
            ("generation", m.generation, nil),
        ]
        for (name, stream, rate) in rows {
            let rejected = name == "total" ? m.meals.rejected.total + m.steps.rejected.total + m.payments.rejected.total : stream.rejected.total
            let timed = stream.batchLatency.count > 0
            func batch(_ p: Double?) -> String { timed ? milliseconds(p.map { stream.batchLatency.percentile($0) } ?? stream.batchLatency.max) : "-" }
            func event(_ p: Double?) -> String { timed ? "\(p.map { stream.eventLatency.percentile($0) } ?? stream.eventLatency.max) ns" : "-" }
            let batchMean = timed ? fixed(stream.batchLatency.mean / 1000, 3) : "-"
            let eventMean = timed ? "\(fixed(stream.eventLatency.mean, 0)) ns" : "-"
            table.append([
                name, count(stream.events), rate.map(compact) ?? "-", name == "generation" ? "-" : count(rejected),
                batchMean, batch(50), batch(95), batch(99), batch(99.9), batch(nil), eventMean, event(50), event(95), event(99), event(nil),
            ])
        }
        lines += aligned(table, style: style)
        lines.append(style.dim("batch latencies in ms; event latency = batch time / events in it"))
        if let replay = result.replay {
            lines.append("replay: one pass of batches (\(count(replay.events)) events) generated in \(fixed(replay.seconds, 2)) s before the run, "
                + "then replayed: the figures above are the algorithms' alone")
        }
        let response = m.responseLatency
        if response.count > 0 {
            func ms(_ p: Double?) -> String { milliseconds((p.map { response.percentile($0) } ?? response.max)) }
            lines.append("paced: response time (from due to done, ms): mean \(fixed(response.mean / 1000, 3)), p50 \(ms(50)), p95 \(ms(95)), "
                + "p99 \(ms(99)), p99.9 \(ms(99.9)), max \(ms(nil)); "
                + "at most \(fixed(m.behindScheduleSeconds, 3)) s behind schedule; dropped events \(count(m.total.dropped)) "
                + "(meals \(count(m.meals.dropped)), steps \(count(m.steps.dropped)), payments \(count(m.payments.dropped)))")
        }
        lines.append("")

        lines.append("payments: " + zip(PaymentState.allCases, m.paymentStates).map { "\($0.0.rawValue) \(count($0.1))" }.joined(separator: ", "))
        let latency = m.paymentLatency
        if latency.count > 0 {
            lines.append("simulated payment latency (ms): mean \(fixed(latency.mean, 1)), p50 \(latency.percentile(50)), p90 \(latency.percentile(90)), "
                + "p95 \(latency.percentile(95)), "
                + "p99 \(latency.percentile(99)), p99.9 \(latency.percentile(99.9)), max \(latency.max)")
        }
        let rejections = [("users", m.userRejections), ("meals", m.meals.rejected), ("steps", m.steps.rejected), ("payments", m.payments.rejected)]
            .flatMap { file, counts in counts.nonZero.map { "\(file).\($0.reason) \(count($0.count))" } }
        lines.append("rejected rows: " + (rejections.isEmpty ? "none" : rejections.joined(separator: ", ")))

        let p = result.process
        var process = "process: cpu user \(fixed(p.cpuUserSeconds, 2)) s, system \(fixed(p.cpuSystemSeconds, 2)) s, peak RSS \(fixed(Double(p.peakRSSBytes) / 1e6, 1)) MB"
        if let allocations = p.allocations {
            process += ", \(count(allocations)) allocations (\(fixed(Double(allocations) / Double(max(1, m.events)), 4))/event, \(p.allocator))"
        } else {
            process += ", allocations not counted (\(p.allocator))"
        }
        if let slope = p.rssSlopeMBPerMinute { process += ", RSS slope \(fixed(slope, 2)) MB/min" }
        lines.append(process)
        let violations = "invariant violations: \(m.invariantViolations)"
        lines.append(m.invariantViolations == 0 ? violations : style.red(violations))
        for message in m.invariantMessages { lines.append("  " + message) }
        lines.append("output digest: \(result.digestText)")
        if let check = result.check { lines += Self.render(check, style: style) }

        if !result.thresholds.isEmpty {
            lines.append("")
            lines.append(style.bold("thresholds"))
            let width = result.thresholds.map(\.threshold.text.count).max() ?? 0
            for outcome in result.thresholds {
                let verdict = outcome.passed ? style.green("pass") : style.red("FAIL")
                let text = outcome.threshold.text.padding(toLength: width, withPad: " ", startingAt: 0)
                let abort = outcome.threshold.abortOnFail ? style.dim(" (abort on fail)") : ""
                lines.append("  \(verdict)  \(text)  \(outcome.value.map(compact) ?? "no value")\(abort)")
            }
        }
        if let warning = result.scheduleWarning {
            lines.append("")
            lines.append(style.yellow("WARNING: " + warning.text))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The differential check: what was compared, the verdict, the first mismatches, the count per field.
    static func render(_ check: CheckReport, style: TextStyle) -> [String] {
        let what = check.implementations.isEmpty ? "the reference" : check.implementations.joined(separator: ", ")
        let share = check.sample < 1 ? " (\(fixed(check.sample * 100, 2)) % sample)" : ""
        let verdict = "checked \(what) against the \(check.against) on \(count(check.users)) users\(share)\(check.boundaryUsers > 0 ? " and \(check.boundaryUsers) boundary users" : "") in \(fixed(check.seconds, 2)) s: "
            + "\(count(check.mismatches)) mismatches"
        var lines = [check.mismatches == 0 ? verdict : style.red(verdict)]
        // The boundaries are the analyzers' (a load run of a user's service reaches none of them).
        if check.boundaries.exercised > 0 || check.boundaryUsers > 0 { lines.append("  " + check.boundaries.line) }
        for mismatch in check.listed { lines.append("  " + mismatch.text) }
        if check.mismatches > check.listed.count { lines.append("  … \(count(check.mismatches - check.listed.count)) more") }
        if !check.byField.isEmpty {
            lines.append("  by field: " + check.byField.sorted { $0.key < $1.key }.map { "\($0.key) \(count($0.value))" }.joined(separator: ", "))
        }
        return lines
    }

    /// The outcome of `baseline check` for people: the metrics that moved, and the tally.
    package static func render(
        _ report: BaselineReport, scenario: String, baseline: BaselineMeasurement, current: BaselineMeasurement, style: TextStyle
    ) -> String {
        var lines = ["checked \(scenario) against its baseline: this machine is \(fixed(report.slowdown, 2))× as slow as the baseline's "
            + "(\(current.machine.summary); baseline: \(baseline.machine.summary))"]
        for comparison in report.comparisons where comparison.verdict != .held {
            let line = "  " + comparison.message
            switch comparison.verdict {
            case .regressed where !report.gates(comparison):
                lines.append(style.yellow(line + " (wall clock: shown, not gated; --gate all judges it)"))
            case .regressed: lines.append(style.red(line))
            case .improved: lines.append(style.green(line))
            case .held, .notCompared: lines.append(line)
            }
        }
        if report.sameOutputs == false {
            lines.append(style.red("  the outputs changed: digest \(current.outputDigest ?? "?"), baseline \(baseline.outputDigest ?? "?")"))
        }
        let held = report.comparisons.filter { $0.verdict == .held }.count
        let verdict = report.passed ? style.green("no regression") : style.red("regressed")
        let ungated = report.ungatedRegressions.isEmpty ? "" : ", \(report.ungatedRegressions.count) slower but not gated"
        lines.append("\(verdict): \(held) held, \(report.improvements.count) improved, \(report.regressions.count) regressed\(ungated)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Columns padded to their widest cell, numbers right-aligned; the header row bold.
    static func aligned(_ rows: [[String]], style: TextStyle) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.enumerated().map { index, row in
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            let line = cells.joined(separator: "  ")
            return index == 0 ? style.bold(line) : line
        }
    }

    /// `12345678` as `12,345,678`.
    static func count(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }

    /// `12.3M`, `45.6k`, `789`, `0.25`.
    package static func compact(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1e9 { return fixed(value / 1e9, 2) + "G" }
        if magnitude >= 1e6 { return fixed(value / 1e6, 2) + "M" }
        if magnitude >= 1e4 { return fixed(value / 1e3, 1) + "k" }
        if magnitude >= 100 || value == value.rounded() { return fixed(value, 0) }
        return fixed(value, 3)
    }

    static func milliseconds(_ micros: UInt64) -> String { fixed(Double(micros) / 1000, 3) }

    /// `value` with exactly `places` decimals.
    static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(value) }
        let whole = Int64(scaled) / Int64(scale)
        let fraction = Int64(scaled) % Int64(scale)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard places > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: places - digits.count) + digits
    }
}
