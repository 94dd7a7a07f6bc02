@_spi(Tooling) @testable import RunResults
import Testing

@Suite("Latency histograms")
struct HistogramTests {
    private func histogram(_ values: ClosedRange<UInt64>) -> LatencyHistogram {
        var histogram = LatencyHistogram()
        for value in values { histogram.record(value) }
        return histogram
    }

    @Test("merging two histograms gives the histogram of all their values")
    func merge() {
        // Given 1...100 in one histogram and 101...200 in another (exact below 256)
        var sut = histogram(1...100)
        // When the second is merged into the first
        sut.merge(histogram(101...200))
        // Then it holds the 200 values: median 100, p99 198, max 200
        #expect(sut.count == 200)
        #expect(sut.percentile(50) == 100)
        #expect(sut.percentile(99) == 198)
        #expect(sut.max == 200)
        #expect(sut == histogram(1...200))
    }

    @Test("a value recorded with a count weighs that many times")
    func weightedRecord() {
        var sut = LatencyHistogram()
        sut.record(10, count: 99)
        sut.record(1000)
        #expect(sut.count == 100)
        #expect(sut.percentile(99) == 10)
        #expect(sut.percentile(99.9) == 1000)
    }

    @Test("recorded counts rebuild an equal histogram, large values included")
    func roundTrip() throws {
        // Given values spread over seven orders of magnitude
        var original = LatencyHistogram()
        for exponent in 0..<10 { original.record(UInt64(7 * pow10(exponent)), count: UInt64(exponent + 1)) }
        // When it is rebuilt from its recorded counts and extremes
        let sut = try LatencyHistogram(recordedCounts: original.recordedCounts, minimum: original.min, maximum: original.max)
        // Then it is the same histogram, with the same exact extremes
        #expect(sut == original)
        #expect(sut.min == 7)
        #expect(sut.max == 7_000_000_000)
        #expect(sut.percentile(99.9) == original.percentile(99.9))
    }

    @Test("counts that are not [value, count] pairs with a positive count are refused", arguments: [[[UInt64(5)]], [[5, 0]], [[1, 2, 3]]])
    func invalidCounts(counts: [[UInt64]]) {
        let error = #expect(throws: HistogramDecodingError.self) { try LatencyHistogram(recordedCounts: counts) }
        #expect(error?.pair == counts[0])
    }

    @Test("counts whose values add up past 64 bits are refused, not trapped on (FuzzResultJSON's find)", arguments: [
        [[UInt64(1) << 40, UInt64(1) << 40]], [[1_000, UInt64.max / 2], [2_000, UInt64.max / 2]], [[UInt64.max / 2 + 1, 1]],
    ])
    func overflowingCountsAreRefused(counts: [[UInt64]]) {
        let error = #expect(throws: HistogramDecodingError.self) { try LatencyHistogram(recordedCounts: counts) }
        #expect(error?.description.contains("past what a histogram holds") == true)
    }

    @Test("a maximum outside the last bucket is refused")
    func misplacedMaximum() {
        let error = #expect(throws: HistogramDecodingError.self) { try LatencyHistogram(recordedCounts: [[10, 2]], maximum: 500) }
        #expect(error?.pair == [500, 10])
    }

    @Test("an empty histogram reports zeros")
    func empty() {
        let sut = LatencyHistogram()
        #expect(sut.count == 0)
        #expect(sut.percentile(99) == 0)
        #expect(sut.max == 0)
    }

    private func pow10(_ n: Int) -> Int { (0..<n).reduce(1) { value, _ in value * 10 } }
}
