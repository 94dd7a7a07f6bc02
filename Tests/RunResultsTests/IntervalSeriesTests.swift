@_spi(Tooling) @testable import RunResults
import Testing

@Suite("Interval series and their histograms")
struct IntervalSeriesTests {
    @Test func sparseCountsGiveTheBucketAtEachPercentileAndMergeByAdding() {
        // Given 90 values in the 10 bucket and 10 in the 100 bucket, merged from two parts
        var sut = SparseCounts(buckets: [(10, 50), (100, 10)])
        sut.merge(SparseCounts(buckets: [(10, 40)]))

        // Then
        #expect(sut.count == 100)
        #expect(sut.percentile(50) == 10)
        #expect(sut.percentile(90) == 10)
        #expect(sut.percentile(91) == 100)
        #expect(sut.max == 100)
        #expect(SparseCounts().percentile(99) == 0)
    }

    @Test func aRecorderPutsEachBatchInTheIntervalItEndedIn() {
        // Given batches ending at 0.2 s, 0.9 s and 2.5 s, in 1 s intervals
        var sut = IntervalRecorder(intervalSeconds: 1)
        for (end, events) in [(0.2, 10), (0.9, 20), (2.5, 40)] {
            var batch = BatchFigures(endSeconds: end, events: SIMD4(events, 0, 0, events), rejected: SIMD4(1, 0, 0, 1), serviceNanos: SIMD4(5_000, 0, 0, 5_000))
            batch.responseNanos = 2_000_000
            sut.record(batch)
        }

        // When
        let series = sut.finish()

        // Then intervals 0 and 2 hold them; the one between is absent
        #expect(series.intervals.map(\.index) == [0, 2])
        #expect(series.intervals.map { $0.events[0] } == [30, 40])
        #expect(series.intervals.map { $0.rejected[3] } == [2, 1])
        #expect(series.intervals.map(\.batches) == [2, 1])
        #expect(series.intervals[0].serviceLatency[3].percentile(50) == 5)
        #expect(series.intervals[0].responseLatency.count == 2)
    }

    @Test func seriesMergeIntervalByInterval() {
        // Given two partitions' series overlapping in interval 1
        var a = IntervalSeries(intervalSeconds: 1, intervals: [IntervalFigures(index: 0), IntervalFigures(index: 1)])
        a.intervals[1].events = [1, 2, 3, 6]
        var b = IntervalSeries(intervalSeconds: 1, intervals: [IntervalFigures(index: 1), IntervalFigures(index: 3)])
        b.intervals[0].events = [1, 1, 1, 3]
        b.intervals[0].behindScheduleSeconds = 0.5

        // When
        a.merge(b)

        // Then
        #expect(a.intervals.map(\.index) == [0, 1, 3])
        #expect(a.intervals[1].events == [2, 3, 4, 9])
        #expect(a.intervals[1].behindScheduleSeconds == 0.5)
    }
}
