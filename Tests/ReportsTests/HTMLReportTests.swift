@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) @testable import Reports
@_spi(Tooling) import RunResults
import Testing

@Suite("HTML report")
struct HTMLReportTests {
    static let charts = [
        "throughput", "batch-latency", "memory", "cpu", "rejections", "payment-states", "payment-latency",
        "throughput-over-time", "latency-over-time", "schedule-over-time", "dropped-over-time", "cpu-over-time",
    ]

    @Test func everyChartIsDrawnWithLinesOrBars() throws {
        // Given / When a paced run's report
        let result = try RunResultBuilder().with { $0.targetPerInterval = 700; $0.responseMicros = [300, 9_000] }.build()
        let sut = HTMLReport.render(ReportContext(result: result))

        // Then each chart is an SVG holding at least one series path or bar
        for chart in Self.charts {
            let start = try #require(sut.range(of: #"data-chart="\#(chart)""#), "\(chart)")
            let svg = sut[start.upperBound...].prefix { _ in true }
            let end = try #require(svg.range(of: "</svg>"))
            let body = svg[..<end.lowerBound]
            #expect(body.contains(#"class="series""#) || body.contains(#"class="bar""#), "\(chart)")
        }
    }

    @Test(arguments: ["http:", "https:", "<script", "url(", "@import", "<link", " src="])
    func nothingIsLoadedFromAnywhere(reference: String) throws {
        // Given a report with a comparison and a history
        let builder = RunResultBuilder()
        var context = ReportContext(result: try builder.build(), history: [try builder.build(), try builder.build()])
        try context.compare(with: try builder.build(), label: "main.json")

        // When / Then
        #expect(!HTMLReport.render(context).contains(reference))
    }

    @Test func anUnpacedRunHasNoScheduleChartAndAVersion1ResultNoChartOverTime() throws {
        // Given an unpaced run, and a result without a series (version 1)
        let unpaced = HTMLReport.render(ReportContext(result: try RunResultBuilder().build()))
        let version1 = HTMLReport.render(ReportContext(result: try RunResultBuilder().with { $0.intervals = 0 }.build()))

        // Then
        #expect(unpaced.contains(#"data-chart="throughput-over-time""#))
        #expect(!unpaced.contains(#"data-chart="schedule-over-time""#))
        #expect(!version1.contains(#"data-chart="throughput-over-time""#))
    }

    @Test func thePacedTargetIsDrawnDashedBesideTheThroughput() throws {
        // Given a paced run targeting 700 events an interval
        let result = try RunResultBuilder().with { $0.targetPerInterval = 700 }.build()

        // When / Then
        #expect(HTMLReport.render(ReportContext(result: result)).contains(#"stroke-dasharray="6 4"><title>target</title>"#))
    }

    @Test func theVerdictComesFirstAndNamesWhatFailed() throws {
        // Given a failed threshold
        let result = try RunResultBuilder().with { $0.thresholds = ["total.events_per_s > 1000"] }.build()

        // When
        let sut = HTMLReport.render(ReportContext(result: result))

        // Then the verdict is the page's first content, and lists the failure
        let main = try #require(sut.range(of: "<main>"))
        #expect(sut[main.upperBound...].hasPrefix(#"<header class="verdict fail"><h1>Failed</h1>"#))
        #expect(sut.contains("<li>threshold total.events_per_s &gt; 1000 failed (measured 620)</li>"))
    }

    @Test func theReferenceRunIsDrawnDashedBesideThisOne() throws {
        // Given a comparison with another run
        let builder = RunResultBuilder()
        var sut = ReportContext(result: try builder.build())
        try sut.compare(with: try builder.with { $0.durationSeconds = 9 }.build(), label: "main.json")

        // When
        let html = HTMLReport.render(sut)

        // Then
        #expect(html.contains(#"stroke-dasharray="6 4"><title>meals (main.json)</title>"#))
        #expect(html.contains("<th>main.json</th><th>change</th>"))
    }

    @Test func aHistoryAddsATrendLinePerKeyMetric() throws {
        // Given three earlier runs
        let builder = RunResultBuilder()
        let history = try [12.0, 11, 10].map { seconds in try builder.with { $0.durationSeconds = seconds }.build() }

        // When
        let sut = HTMLReport.render(ReportContext(result: try builder.build(), history: history))

        // Then
        #expect(sut.contains("History (4 runs, oldest first)"))
        for metric in ["total.events_per_s", "total.p99_batch_latency_ms", "cpu_user_s", "peak_rss_mb"] {
            #expect(sut.contains(#"data-chart="history-\#(metric)""#))
        }
    }

    @Test func anHourLongSoakStaysSmall() throws {
        // Given a soak of an hour: 3,600 intervals, an RSS sample a second and wide latency histograms
        let result = try RunResultBuilder().with { builder in
            builder.durationSeconds = 3_600
            builder.intervals = 3_600
            builder.targetPerInterval = 700
            builder.responseMicros = [300, 9_000]
            builder.rssMegabytes = (0..<3_600).map { 30 + Double($0 % 97) / 10 }
            builder.batchMicros = (1...5_000).map { UInt64($0 * 37) }
        }.build()

        // When
        let sut = HTMLReport.render(ReportContext(result: result))

        // Then the page stays under 2 MB
        #expect(sut.utf8.count < 2_000_000)
    }

    @Test func textFromTheResultIsEscaped() throws {
        // Given
        let result = try RunResultBuilder().with { $0.scenario = "<img onerror=x>" }.build()

        // When / Then
        let sut = HTMLReport.render(ReportContext(result: result))
        #expect(!sut.contains("<img"))
        #expect(sut.contains("&lt;img onerror=x&gt;"))
    }
}

@Suite("Report context")
struct ReportContextTests {
    @Test(arguments: [(UInt64(8), "fixed"), (UInt64(7), "duration 3s")])
    func runsOfDifferentOrUnfixedWorkCompareRatesButNotCounts(otherSeed: UInt64, load: String) throws {
        // Given two runs of different seeds, or of a load whose work depends on the time
        let builder = RunResultBuilder().with { $0.load = load }
        var sut = ReportContext(result: try builder.build())

        // When
        try sut.compare(with: try builder.with { $0.seed = otherSeed }.build(), label: "other.json")

        // Then
        let compared = Set(try #require(sut.reference).report.comparisons.map(\.metric))
        #expect(compared.contains("total.events_per_s"))
        #expect(!compared.contains("meals.events"))
        #expect(sut.reference?.report.sameOutputs == nil)
    }

    @Test func aBaselineOfAnotherScenarioIsRefused() throws {
        // Given a baseline of scenario "other"
        let result = try RunResultBuilder().build()
        let baseline = try BaselineMeasurement(
            results: [try RunResultBuilder().with { $0.scenario = "other" }.build()], deterministic: true,
            calibration: .init(score: 1, cpuScore: 1), machine: .current()
        )
        var sut = ReportContext(result: result)

        // When / Then
        #expect(throws: ReportError(message: "the baseline is of scenario 'other', the run of 'checkout'")) {
            try sut.compare(with: baseline, label: "baseline b.json")
        }
    }

    @Test func aBaselineOfTheSameWorkComparesTheOutputDigest() throws {
        // Given a baseline recorded from the same work with another digest
        var other = try RunResultBuilder().build()
        other.metrics.digest = 1
        let baseline = try BaselineMeasurement(results: [other], deterministic: true, calibration: .init(score: 1, cpuScore: 1), machine: .current())
        var sut = ReportContext(result: try RunResultBuilder().build())

        // When
        try sut.compare(with: baseline, label: "baseline b.json")

        // Then
        #expect(sut.reference?.report.sameOutputs == false)
        #expect(!sut.passed)
    }
}
