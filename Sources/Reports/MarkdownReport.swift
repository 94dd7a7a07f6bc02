@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults

/// A compact Markdown summary for a pull-request comment or `$GITHUB_STEP_SUMMARY`: the verdict,
/// the key metrics with their change against the reference (🔴 a regression, 🟢 an improvement
/// beyond the tolerance), the thresholds, and every metric that moved beyond its tolerance.
package enum MarkdownReport {
    /// The Markdown text of `context`.
    package static func render(_ context: ReportContext) -> String {
        let result = context.result
        var lines: [String] = []
        let verdict = !context.passed ? "🔴 failed" : context.warnings.isEmpty ? "🟢 passed" : "🟡 passed with a warning"
        lines.append("### SimHarness · \(result.scenario): \(verdict)")
        lines.append("")
        lines.append(
            "Seed \(result.seed) · \(result.users) users × \(result.days) days · load \(result.load) · "
                + "\(result.shards.count > 1 ? "\(result.shards.count) shards" : "1 machine") · \(Summary.compact(result.durationSeconds)) s · "
                + "\(result.status.rawValue) · output digest `\(result.digestText)`"
        )
        lines.append("")
        for warning in context.warnings {
            lines.append("**Warning:** \(cell(warning))")
            lines.append("")
        }
        if let line = ReportContext.boundariesLine(result) {
            lines.append(cell(line))
            lines.append("")
        }
        let reference = context.reference
        lines.append(reference.map { "| metric | \(cell(context.label)) | \(cell($0.label)) | change | |" } ?? "| metric | this run |")
        lines.append(reference == nil ? "| --- | ---: |" : "| --- | ---: | ---: | ---: | :---: |")
        for metric in ReportContext.keyMetrics {
            guard let value = MetricCatalog.value(of: metric, in: result) else { continue }
            var row = "| `\(metric)` | \(Summary.compact(value)) |"
            if reference != nil {
                let comparison = context.comparison(of: metric)
                row += " \(comparison.map { Summary.compact($0.baseline) } ?? "—") | \(comparison?.changeText ?? "—") | \(comparison?.mark ?? "") |"
            }
            lines.append(row)
        }
        if !result.thresholds.isEmpty {
            lines.append("")
            lines.append("| threshold | measured | |")
            lines.append("| --- | ---: | :---: |")
            for outcome in result.thresholds {
                lines.append("| `\(cell(outcome.threshold.text))` | \(outcome.value.map(Summary.compact) ?? "no value") | \(outcome.passed ? "🟢" : "🔴") |")
            }
        }
        if let reference, !reference.counts.isEmpty {
            lines.append("")
            lines.append("| count | \(cell(context.label)) | \(cell(reference.label)) | change |")
            lines.append("| --- | ---: | ---: | ---: |")
            for count in reference.counts {
                lines.append("| `\(count.metric)` | \(Summary.compact(count.value)) | \(Summary.compact(count.reference)) | \(count.changeText) |")
            }
        }
        if let check = result.check { lines += CheckSection.markdown(check) }
        if let reference {
            let moved = reference.report.comparisons.filter { $0.verdict == .regressed || $0.verdict == .improved }
                .filter { !ReportContext.keyMetrics.contains($0.metric) }
            if !moved.isEmpty {
                lines.append("")
                lines.append("Beyond tolerance against \(cell(reference.label)):")
                lines.append("")
                for comparison in moved { lines.append("- \(comparison.mark) \(comparison.message(Summary.compact))") }
            }
            if reference.report.sameOutputs == false { lines.append("- 🔴 the output digest differs from the reference's: the outputs changed") }
        }
        if result.metrics.invariantViolations > 0 {
            lines.append("")
            lines.append("🔴 \(result.metrics.invariantViolations) SPEC invariant violations, e.g. \(cell(result.metrics.invariantMessages.first ?? ""))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe inside a table cell.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
