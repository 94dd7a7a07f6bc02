import Testing
@_spi(Tooling) import RunResults
@_spi(Tooling) @testable import Reports

@Suite("SPEC boundaries in the reports")
struct BoundaryLineTests {
    @Test("a checked run's HTML, Markdown and JUnit reports show the boundaries exercised and those not reached; an unchecked run's do not",
          arguments: [ReportFormat.html, .markdown, .junit])
    func boundaryLine(format: ReportFormat) throws {
        // Given a run checked on users that reached no boundary, and the same run unchecked
        var checked = try RunResultBuilder().build()
        checked.check = CheckReport(sample: 1)
        let unchecked = try RunResultBuilder().build()
        // When each is rendered
        let sut = format.render(ReportContext(result: checked))
        let plain = format.render(ReportContext(result: unchecked))
        // Then the checked one names the figure and the first unreached entry, the other neither
        #expect(sut.contains("SPEC boundaries exercised: 0 of \(CheckReport(sample: 1).boundaries.measured)"))
        #expect(sut.contains("not reached: users.offset_lowest (both sides)"))
        #expect(!plain.contains("SPEC boundaries"))
    }
}
