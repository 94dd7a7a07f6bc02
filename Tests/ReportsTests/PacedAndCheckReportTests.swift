@_spi(Tooling) import RunResults
import Testing
@_spi(Tooling) @testable import Reports

/// What the reports show of a paced run that missed its schedule, of a differential check's
/// mismatches, and of two runs compared.
@Suite("Reports: schedule warnings, mismatches, comparisons")
struct PacedAndCheckReportTests {
    /// The spike of issue 35: 9.6 s behind, 1.46 M dropped, no threshold on either.
    static let lagging = RunResultBuilder().with {
        $0.load = "ramping"
        $0.targetPerInterval = 700
        $0.responseMicros = [300, 9_000]
        $0.dropped = 1_460_000
        $0.behindSeconds = 9.6
    }

    static let checked = RunResultBuilder().with {
        var check = CheckReport(sample: 1)
        check.users = 60
        check.mismatches = 3
        check.byField = ["fasting_daily.compliant": 2, "payments_ledger.refunded_minor": 1]
        check.listed = [
            Mismatch(user: "u0000007", row: "day 2025-01-06", field: "fasting_daily.compliant", value: "0", reference: "1",
                     utcOffsetMinutes: 345, fastingProtocol: "16:8"),
            Mismatch(user: "u0000009", row: "ledger EUR", field: "payments_ledger.refunded_minor", value: "500", reference: "250",
                     utcOffsetMinutes: -300, fastingProtocol: "none"),
        ]
        $0.check = check
        $0.thresholds = ["invariant_violations == 0", "mismatches == 0"]
    }

    @Test func aLaggingRunReadsAsAWarningInEveryReport() throws {
        // Given a paced run that fell behind and dropped events, with no threshold on either
        let sut = ReportContext(result: try Self.lagging.build())

        // When it is rendered
        let html = HTMLReport.render(sut), markdown = MarkdownReport.render(sut), junit = JUnitReport.render(sut)

        // Then each report names the seconds behind and the events dropped as a warning, not a plain pass
        #expect(sut.passed)
        #expect(html.contains(#"<header class="verdict warn"><h1>Passed with a warning</h1>"#))
        #expect(html.contains("warning: the paced load fell 9.600 s behind its schedule and dropped 1,460,000 events"))
        #expect(markdown.hasPrefix("### SimHarness · checkout: 🟡 passed with a warning\n"))
        #expect(markdown.contains("**Warning:** the paced load fell 9.600 s behind its schedule and dropped 1,460,000 events"))
        #expect(junit.contains(#"<testsuite name="schedule" id="#))
        #expect(junit.contains(#"<skipped message="WARNING: the paced load fell 9.600 s behind its schedule and dropped 1,460,000 events"#))
    }

    @Test func aRunOnScheduleHasNoWarning() throws {
        // Given the same paced run without lag or drops
        let sut = ReportContext(result: try Self.lagging.with { $0.dropped = 0; $0.behindSeconds = 0 }.build())

        // Then nothing warns
        #expect(HTMLReport.render(sut).contains(#"<header class="verdict pass"><h1>Passed</h1>"#))
        #expect(!MarkdownReport.render(sut).contains("Warning"))
        #expect(!JUnitReport.render(sut).contains(#"name="schedule""#))
    }

    @Test func secondsBehindAndEventsDroppedHaveChartsOfTheirOwn() throws {
        // Given / When the lagging run's report
        let html = HTMLReport.render(ReportContext(result: try Self.lagging.build()))

        // Then the lag is drawn in seconds and the drops in events, each on its own axis
        let schedule = try chart("schedule-over-time", in: html), dropped = try chart("dropped-over-time", in: html)
        #expect(schedule.contains("seconds behind schedule") && !schedule.contains("dropped"))
        #expect(dropped.contains("events dropped per interval") && !dropped.contains("seconds behind"))
    }

    @Test func theHTMLNeedsNoEmojiFont() throws {
        // Given a comparison with a regression and an improvement, a failure and a warning
        let result = try Self.lagging.with { $0.thresholds = ["total.events_per_s > 1000"] }.build()
        var sut = ReportContext(result: result)
        try sut.compare(with: try Self.lagging.with { $0.events = (2_000, 10_000, 400); $0.cpuUserSeconds = 1 }.build(), label: "main")

        // When / Then no character of the page lies beyond the Basic Multilingual Plane (the emoji) or among its symbols
        let html = HTMLReport.render(sut)
        #expect(html.contains(#"<span class="mark regressed">regressed</span>"#))
        #expect(html.unicodeScalars.allSatisfy { $0.value < 0x2600 }, "\(html.unicodeScalars.filter { $0.value >= 0x2600 })")
    }

    @Test func theFirstMismatchesAreInEveryReportWithTheUsersOffsetAndProtocol() throws {
        // Given a run whose check found 3 mismatches, 2 of them listed
        let sut = ReportContext(result: try Self.checked.build())

        // When it is rendered
        let html = HTMLReport.render(sut), markdown = MarkdownReport.render(sut), junit = JUnitReport.render(sut)

        // Then each names the user, offset, protocol, row, field and both values
        #expect(html.contains("3 mismatches on 60 users; the first 2:"))
        #expect(html.contains("<tr><td><code>u0000007</code></td><td class=\"number\">+345</td><td>16:8</td><td>day 2025-01-06</td>"
            + "<td><code>fasting_daily.compliant</code></td><td class=\"number\">0</td><td class=\"number\">1</td></tr>"))
        #expect(html.contains("<td class=\"number\">-300</td><td>none</td><td>ledger EUR</td>"))
        #expect(markdown.contains("| `u0000007` | +345 | 16:8 | day 2025-01-06 | `fasting_daily.compliant` | 0 | 1 |"))
        #expect(markdown.contains("🔴 Checked against the reference on 60 users: 3 mismatches; the first 2:"))
        #expect(junit.contains(#"<testsuite name="check against the reference" id="1" tests="3" failures="3""#))
        #expect(junit.contains("fasting_daily.compliant of u0000007 day 2025-01-06: implementation 0, reference 1 (UTC offset +345 min, protocol 16:8)"))
        #expect(junit.contains("1 more mismatches; by field: fasting_daily.compliant 2, payments_ledger.refunded_minor 1"))
    }

    @Test func aMismatchOnABoundaryUserIsLabelledAndTheBoundaryUsersAreCounted() throws {
        // Given a check of 300 users and 60 boundary users whose one mismatch is on a boundary user, and a clean one
        var clean = CheckReport(sample: 1)
        clean.users = 300
        clean.boundaryUsers = 60
        var check = clean
        check.mismatches = 1
        check.byField = ["fasting_daily.compliant": 1]
        check.listed = [Mismatch(user: "u0000300", row: "day 2025-01-06", field: "fasting_daily.compliant", value: "0", reference: "1",
                                 utcOffsetMinutes: -720, fastingProtocol: "16:8", boundaryUser: true)]
        let result = try RunResultBuilder().with { $0.check = check; $0.thresholds = ["mismatches == 0"] }.build()
        let passed = ReportContext(result: try RunResultBuilder().with { $0.check = clean }.build())

        // When they are rendered
        let sut = ReportContext(result: result)
        let html = HTMLReport.render(sut), markdown = MarkdownReport.render(sut), junit = JUnitReport.render(sut)

        // Then every report says the user is a boundary user and counts the boundary users apart
        #expect(html.contains("1 mismatches on 300 users and 60 boundary users; the first 1:"))
        #expect(html.contains("<tr><td><code>u0000300</code> (boundary user)</td><td class=\"number\">-720</td>"))
        #expect(markdown.contains("🔴 Checked against the reference on 300 users and 60 boundary users: 1 mismatches; the first 1:"))
        #expect(markdown.contains("| `u0000300` (boundary user) | -720 | 16:8 | day 2025-01-06 |"))
        #expect(junit.contains("fasting_daily.compliant of u0000300 day 2025-01-06: implementation 0, reference 1 (boundary user, UTC offset -720 min, protocol 16:8)"))
        #expect(JUnitReport.render(passed).contains(#"name="no mismatch on 300 users and 60 boundary users""#))
    }

    @Test func aCheckWithoutMismatchSaysSoAndARunWithoutCheckShowsNone() throws {
        // Given a clean check, and no check
        var clean = CheckReport(sample: 1)
        clean.users = 60
        let passed = ReportContext(result: try RunResultBuilder().with { $0.check = clean }.build())
        let unchecked = ReportContext(result: try RunResultBuilder().build())

        // Then
        #expect(HTMLReport.render(passed).contains("<h2>Check against the reference</h2><p>No mismatch on 60 users.</p>"))
        #expect(JUnitReport.render(passed).contains(#"name="no mismatch on 60 users" time="0"/>"#))
        #expect(!HTMLReport.render(unchecked).contains("Check against"))
        #expect(!MarkdownReport.render(unchecked).contains("Checked against"))
    }

    @Test func aComparisonNamesBothRunsSetsTheirCountsSideBySideAndDrawsTheOthersLines() throws {
        // Given two paced runs of different sizes, each named
        var sut = ReportContext(result: try Self.lagging.build())
        sut.label = "spike · pr-1"
        try sut.compare(with: try Self.lagging.with { $0.events = (2_000, 10_000, 400); $0.dropped = 0 }.build(), label: "spike · main")

        // When it is rendered
        let html = HTMLReport.render(sut), markdown = MarkdownReport.render(sut)

        // Then the counts are compared whatever work the runs did, and every chart over time holds the other run's lines
        #expect(markdown.contains("| metric | spike · pr-1 | spike · main | change | |"))
        #expect(markdown.contains("| `total.events` | 6200 | 12.4k | -50.0 % |"))
        #expect(markdown.contains("| `dropped_events` | 1.46M | 0 | — |"))
        #expect(html.contains("<th>count</th><th>spike · pr-1</th><th>spike · main</th><th>change</th>"))
        for (id, line) in [("latency-over-time", "service p99 (spike · main)"), ("memory", "RSS (spike · main)"),
                           ("schedule-over-time", "behind schedule (spike · main)"), ("dropped-over-time", "dropped (spike · main)")] {
            #expect(try chart(id, in: html).contains("<title>\(line)</title>"), "\(id)")
        }
    }

    /// The SVG of chart `id` in `html`.
    private func chart(_ id: String, in html: String) throws -> Substring {
        let start = try #require(html.range(of: #"data-chart="\#(id)""#), "\(id)")
        let end = try #require(html[start.upperBound...].range(of: "</svg>"))
        return html[start.upperBound..<end.lowerBound]
    }
}
