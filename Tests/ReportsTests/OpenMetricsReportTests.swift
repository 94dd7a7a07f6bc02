import Testing
@_spi(Tooling) import RunResults
@_spi(Tooling) @testable import Reports

@Suite("OpenMetrics text")
struct OpenMetricsReportTests {
    /// The samples of `text`: name, labels and value of each line that is not a comment.
    private func samples(_ text: String) -> [(name: String, labels: String, value: Double)] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            guard let brace = line.firstIndex(of: "{"), let close = line.lastIndex(of: "}"),
                  let value = Double(line[line.index(after: close)...].trimmingCharacters(in: .whitespaces))
            else { return nil }
            return (String(line[..<brace]), String(line[line.index(after: brace)..<close]), value)
        }
    }

    @Test func theTextEndsInEOFAndEverySampleBelongsToADeclaredFamily() throws {
        // Given / When
        let sut = OpenMetricsReport.render(ReportContext(result: try RunResultBuilder().build()))

        // Then
        #expect(sut.hasSuffix("# EOF\n"))
        let families = sut.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        #expect(Set(families).count == families.count)
        for sample in samples(sut) {
            #expect(families.contains { family in
                sample.name == family || ["_total", "_info", "_bucket", "_count", "_sum"].contains { sample.name == family + $0 }
            }, "\(sample.name)")
        }
    }

    @Test func latenciesAreCumulativeHistogramsInSeconds() throws {
        // Given three meal batches of 100 µs and one of 5 ms
        let result = try RunResultBuilder().with { $0.batchMicros = [100, 100, 100, 5_000] }.build()

        // When
        let sut = samples(OpenMetricsReport.render(ReportContext(result: result)))
            .filter { $0.name.hasPrefix("simharness_batch_latency_seconds") && $0.labels.contains(#"stream="meals""#) }

        // Then the buckets count 3 up to 100 µs and 4 from 5 ms, and +Inf equals the count
        func bucket(_ le: String) -> Double? { sut.first { $0.name.hasSuffix("_bucket") && $0.labels.contains(#"le="\#(le)""#) }?.value }
        #expect(bucket("5e-05") == 0)
        #expect(bucket("0.0001") == 3)
        #expect(bucket("0.002") == 3)
        #expect(bucket("0.005") == 4)
        #expect(bucket("+Inf") == 4)
        #expect(sut.first { $0.name.hasSuffix("_count") }?.value == 4)
        let sum = try #require(sut.first { $0.name.hasSuffix("_sum") }?.value)
        #expect(abs(sum - 0.0053) < 0.0001)
        let buckets = sut.filter { $0.name.hasSuffix("_bucket") }.map(\.value)
        #expect(buckets == buckets.sorted())
    }

    @Test func countersCarryTheirLabelsAndLabelValuesAreEscaped() throws {
        // Given a scenario with a quote and a backslash in its name, and 3 malformed meal rows
        let result = try RunResultBuilder().with { $0.scenario = #"a"b\c"# }.build()

        // When
        let sut = OpenMetricsReport.render(ReportContext(result: result))

        // Then
        #expect(sut.contains(#"simharness_rejected_rows_total{reason="malformed",scenario="a\"b\\c",stream="meals"} 3"#))
        #expect(sut.contains(#"simharness_payments_total{scenario="a\"b\\c",state="captured"} 150"#))
        #expect(sut.contains(#"simharness_threshold_passed{scenario="a\"b\\c",threshold="total.events_per_s > 10"} 1"#))
    }
}
