@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults

/// JUnit XML, the format Jenkins, GitLab and GitHub show natively: each threshold, each metric of
/// the reference and each invariant check as a test case; a failing one carries the expected and
/// measured values.
package enum JUnitReport {
    /// The XML document of `context`.
    package static func render(_ context: ReportContext) -> String {
        let result = context.result
        var suites: [Suite] = []
        suites.append(Suite(name: "thresholds", cases: result.thresholds.map { outcome in
            let measured = outcome.value.map(Summary.compact) ?? "no value"
            return Case(
                name: outcome.threshold.text,
                failure: outcome.passed ? nil : "\(outcome.threshold.metric) measured \(measured), expected \(outcome.threshold.text)"
            )
        }))
        if let reference = context.reference {
            var cases = reference.report.comparisons.map { comparison in
                Case(name: comparison.metric, failure: comparison.verdict == .regressed ? comparison.message(Summary.compact) : nil,
                     skipped: comparison.verdict == .notCompared)
            }
            if let same = reference.report.sameOutputs {
                cases.append(Case(name: "output_digest", failure: same ? nil : "the output digest \(result.digestText) differs from the reference's"))
            }
            suites.append(Suite(name: "compared with \(reference.label)", cases: cases))
        }
        if let check = result.check { suites.append(checkSuite(check)) }
        if let warning = result.scheduleWarning {
            suites.append(Suite(name: "schedule", cases: [Case(name: "the paced load kept its schedule", skippedMessage: "WARNING: " + warning.text)]))
        }
        if let line = ReportContext.boundariesLine(result) {
            // Informational: a boundary the workload never reached is a blind spot, not a failure.
            suites.append(Suite(name: "SPEC boundaries", cases: [Case(name: line)]))
        }
        suites.append(Suite(name: "invariants", cases: [
            Case(name: "SPEC invariants hold",
                 failure: result.metrics.invariantViolations == 0 ? nil
                    : "\(result.metrics.invariantViolations) violations: " + result.metrics.invariantMessages.joined(separator: "; ")),
            Case(name: "the run completed",
                 failure: result.status == .aborted ? "aborted: \(result.stopReason ?? "a threshold failed")" : nil),
        ]))

        let time = String(format: "%.3f", result.durationSeconds)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="simharness \#(escaped(result.scenario))" tests="\#(suites.map(\.cases.count).reduce(0, +))" "#
            + #"failures="\#(suites.map(\.failures).reduce(0, +))" errors="0" time="\#(time)">"# + "\n"
        for (index, suite) in suites.enumerated() {
            xml += #"  <testsuite name="\#(escaped(suite.name))" id="\#(index)" tests="\#(suite.cases.count)" failures="\#(suite.failures)" "#
                + #"errors="0" skipped="\#(suite.cases.filter(\.skipped).count)" time="\#(time)">"# + "\n"
            for testCase in suite.cases {
                let opening = #"    <testcase classname="simharness.\#(escaped(result.scenario)).\#(escaped(suite.name))" name="\#(escaped(testCase.name))" time="0""#
                if let failure = testCase.failure {
                    xml += opening + ">\n"
                    xml += #"      <failure message="\#(escaped(failure))" type="regression">\#(escaped(failure))</failure>"# + "\n"
                    xml += "    </testcase>\n"
                } else if let message = testCase.skippedMessage {
                    xml += opening + ">\n      <skipped message=\"\(escaped(message))\"/>\n    </testcase>\n"
                } else {
                    xml += opening + "/>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// The differential check: a failing case per mismatch listed (with the user's UTC offset and
    /// protocol), one for those not listed, or one passing case when nothing differs.
    private static func checkSuite(_ check: CheckReport) -> Suite {
        let name = "check against the \(check.against)"
        guard check.mismatches > 0 else { return Suite(name: name, cases: [Case(name: "no mismatch on \(check.users) users" + (check.boundaryUsers > 0 ? " and \(check.boundaryUsers) boundary users" : ""))]) }
        var cases = check.listed.map { m in
            Case(name: "\(m.user) \(m.row) \(m.field)",
                 failure: "\(m.field) of \(m.user) \(m.row): implementation \(m.value), reference \(m.reference)" + (m.profileText.map { " (\($0))" } ?? ""))
        }
        if check.mismatches > check.listed.count {
            let byField = check.byField.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            cases.append(Case(name: "mismatches not listed", failure: "\(check.mismatches - check.listed.count) more mismatches; by field: \(byField)"))
        }
        return Suite(name: name, cases: cases)
    }

    private struct Case {
        var name: String
        var failure: String?
        /// Why the case was skipped (a metric without a value, a warning), nil when it ran.
        var skippedMessage: String?

        init(name: String, failure: String? = nil, skipped: Bool = false) {
            self.name = name
            self.failure = failure
            skippedMessage = skipped ? "no value in this run" : nil
        }

        init(name: String, skippedMessage: String) {
            self.name = name
            self.skippedMessage = skippedMessage
        }

        var skipped: Bool { skippedMessage != nil }
    }

    private struct Suite {
        var name: String
        var cases: [Case]
        var failures: Int { cases.filter { $0.failure != nil }.count }
    }
}
