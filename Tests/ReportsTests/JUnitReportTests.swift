import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@_spi(Tooling) import RunResults
@_spi(Tooling) @testable import Reports

@Suite("JUnit XML")
struct JUnitReportTests {
    private func parse(_ xml: String) throws -> XMLElement {
        try #require(try XMLDocument(xmlString: xml).rootElement())
    }

    private func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attribute(forName: name)?.stringValue
    }

    @Test func eachThresholdIsATestCaseAndAFailedOneCarriesExpectedAndMeasured() throws {
        // Given a run with one threshold held and one failed
        let result = try RunResultBuilder().with { $0.thresholds = ["invariant_violations == 0", "total.events_per_s > 1000"] }.build()

        // When
        let sut = try parse(JUnitReport.render(ReportContext(result: result)))

        // Then 2 threshold cases and 2 invariant cases, 1 failure, naming both values
        #expect(attribute("tests", of: sut) == "4")
        #expect(attribute("failures", of: sut) == "1")
        let failures = try sut.nodes(forXPath: "//testcase/failure").compactMap { $0 as? XMLElement }
        #expect(failures.count == 1)
        #expect(failures.first.flatMap { attribute("message", of: $0) } == "total.events_per_s measured 620, expected total.events_per_s > 1000")
        let failedCase = try #require(failures.first?.parent as? XMLElement)
        #expect(attribute("name", of: failedCase) == "total.events_per_s > 1000")
        #expect(attribute("classname", of: failedCase) == "simharness.checkout.thresholds")
    }

    @Test func aComparedMetricThatRegressedFailsAndOneWithoutValueIsSkipped() throws {
        // Given a run twice as slow as the reference, without allocation counts
        let builder = RunResultBuilder()
        var current = try builder.build()
        current.process.allocations = nil
        var sut = ReportContext(result: current)
        try sut.compare(with: try builder.with { $0.durationSeconds = 5 }.build(), label: "main.json")

        // When
        let root = try parse(JUnitReport.render(sut))

        // Then
        let suite = try #require(try root.nodes(forXPath: "testsuite[@name='compared with main.json']").first as? XMLElement)
        let failed = try suite.nodes(forXPath: "testcase[failure]").compactMap { ($0 as? XMLElement).flatMap { attribute("name", of: $0) } }
        #expect(failed.contains("total.events_per_s"))
        #expect(failed.contains("duration_s"))
        let skipped = try suite.nodes(forXPath: "testcase[skipped]").compactMap { ($0 as? XMLElement).flatMap { attribute("name", of: $0) } }
        #expect(skipped == ["allocations"])
        #expect(attribute("skipped", of: suite) == "1")
    }

    @Test func markupInNamesIsEscaped() throws {
        // Given a scenario whose name holds XML's special characters
        let result = try RunResultBuilder().with { $0.scenario = #"a<b & "c">"# }.build()

        // When
        let sut = try parse(JUnitReport.render(ReportContext(result: result)))

        // Then the document parses and keeps the name
        #expect(attribute("name", of: sut) == #"simharness a<b & "c">"#)
    }

    @Test func anAbortedRunFailsItsCompletionCase() throws {
        // Given
        var result = try RunResultBuilder().build()
        result.status = .aborted
        result.stopReason = "peak_rss_mb < 1 failed"

        // When
        let sut = try parse(JUnitReport.render(ReportContext(result: result)))

        // Then
        let messages = try sut.nodes(forXPath: "//failure/@message").compactMap(\.stringValue)
        #expect(messages == ["aborted: peak_rss_mb < 1 failed"])
    }
}
