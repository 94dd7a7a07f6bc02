import Harness

/// JUnit XML, the format Jenkins, GitLab and GitHub show natively: each threshold, each metric of
/// the reference and each invariant check as a test case; a failing one carries the expected and
/// measured values.
public enum JUnitReport {
    /// The XML document of `context`.
    public static func render(_ context: ReportContext) -> String {
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
                } else if testCase.skipped {
                    xml += opening + ">\n      <skipped message=\"no value in this run\"/>\n    </testcase>\n"
                } else {
                    xml += opening + "/>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private struct Case {
        var name: String
        var failure: String?
        var skipped = false
    }

    private struct Suite {
        var name: String
        var cases: [Case]
        var failures: Int { cases.filter { $0.failure != nil }.count }
    }
}
