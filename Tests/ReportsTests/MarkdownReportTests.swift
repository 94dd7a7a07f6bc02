import Testing
@_spi(Tooling) import RunResults
@_spi(Tooling) @testable import Reports

@Suite("Markdown summary")
struct MarkdownReportTests {
    @Test func aPassingRunLeadsWithItsVerdictAndKeyMetrics() throws {
        // Given a run whose thresholds hold
        let result = try RunResultBuilder().build()

        // When
        let sut = MarkdownReport.render(ReportContext(result: result))

        // Then
        #expect(sut.hasPrefix("### SimHarness · checkout: 🟢 passed\n"))
        #expect(sut.contains("| `total.events_per_s` | 620 |"))
        #expect(sut.contains("| `invariant_violations == 0` | 0 | 🟢 |"))
        #expect(!sut.contains("🔴"))
    }

    @Test func aFailedThresholdOrABrokenInvariantFailsTheVerdict() throws {
        // Given a run with a failed threshold and a broken invariant
        let result = try RunResultBuilder().with { $0.thresholds = ["total.events_per_s > 1000"]; $0.violations = ["ledger differs"] }.build()

        // When
        let sut = MarkdownReport.render(ReportContext(result: result))

        // Then
        #expect(sut.hasPrefix("### SimHarness · checkout: 🔴 failed\n"))
        #expect(sut.contains("| `total.events_per_s > 1000` | 620 | 🔴 |"))
        #expect(sut.contains("🔴 1 SPEC invariant violations, e.g. ledger differs"))
    }

    @Test func againstAFasterRunTheThroughputDropIsMarkedAndTheVerdictFails() throws {
        // Given this run, and an earlier one of the same work that was twice as fast
        let builder = RunResultBuilder()
        var sut = ReportContext(result: try builder.build())
        try sut.compare(with: try builder.with { $0.durationSeconds = 5 }.build(), label: "main.json")

        // When
        let text = MarkdownReport.render(sut)

        // Then the change is −50 % and marked 🔴, beyond the 20 % throughput tolerance
        #expect(text.contains("| metric | this run | main.json | change | |"))
        #expect(text.contains("| `total.events_per_s` | 620 | 1240 | -50.0 % | 🔴 |"))
        #expect(text.hasPrefix("### SimHarness · checkout: 🔴 failed"))
    }

    @Test func aChangeWithinTheToleranceIsNotMarked() throws {
        // Given an earlier run 5 % faster
        let builder = RunResultBuilder()
        var sut = ReportContext(result: try builder.build())
        try sut.compare(with: try builder.with { $0.durationSeconds = 9.5 }.build(), label: "main.json")

        // When
        let text = MarkdownReport.render(sut)

        // Then
        #expect(text.contains("| `total.events_per_s` | 620 | 653 | -5.0 % |  |"))
        #expect(text.hasPrefix("### SimHarness · checkout: 🟢 passed"))
    }

    @Test func pipesInNamesDoNotBreakTheTable() throws {
        // Given a comparison labelled with a pipe
        let builder = RunResultBuilder()
        var sut = ReportContext(result: try builder.build())
        try sut.compare(with: try builder.build(), label: "a|b.json")

        // When / Then
        #expect(MarkdownReport.render(sut).contains("| metric | this run | a\\|b.json | change | |"))
    }
}
