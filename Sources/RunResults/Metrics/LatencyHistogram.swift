import Histogram

/// An HDR histogram of integer latencies in one unit (2 significant digits: values within 1 %),
/// mergeable across tasks and shards and stored in JSON as its recorded counts.
///
/// It is sized up front for values up to 2³² (4.3 s in nanoseconds), so recording never allocates
/// below that and the allocation count of a run does not depend on its timings; larger values
/// still fit (the histogram grows).
@_spi(Tooling) public struct LatencyHistogram: Sendable, Equatable {
    private var histogram: Histogram<UInt64>

    /// An empty histogram.
    @_spi(Tooling) public init() {
        histogram = Histogram(lowestDiscernibleValue: 1, highestTrackableValue: 1 << 32, numberOfSignificantValueDigits: .two)
        histogram.autoResize = true
    }

    /// Rebuilds a histogram from the `recordedCounts` of another one and its exact `minimum` and
    /// `maximum`: the same buckets, counts and extremes.
    @_spi(Tooling) public init(recordedCounts: [[UInt64]], minimum: UInt64? = nil, maximum: UInt64? = nil) throws(HistogramDecodingError) {
        self.init()
        let last = recordedCounts.count - 1
        // The counts and the sum of count × value must fit 64 bits, or the mean and the percentiles of
        // the rebuilt histogram would overflow (a bucket's values are at most twice its value, plus one).
        var total: UInt64 = 0
        var weighted: UInt64 = 0
        for (index, pair) in recordedCounts.enumerated() {
            guard pair.count == 2, pair[1] > 0 else { throw HistogramDecodingError(pair: pair) }
            let (bound, boundOverflow) = pair[0].multipliedReportingOverflow(by: 2)
            let (product, productOverflow) = pair[1].multipliedReportingOverflow(by: bound | 1)
            let (newTotal, totalOverflow) = total.addingReportingOverflow(pair[1])
            let (newWeighted, weightedOverflow) = weighted.addingReportingOverflow(product)
            guard !boundOverflow, !productOverflow, !totalOverflow, !weightedOverflow else {
                throw HistogramDecodingError(pair: pair, reason: "counts × values past 2^64")
            }
            (total, weighted) = (newTotal, newWeighted)
            // The extremes are recorded as themselves, the other values of their bucket as the
            // extreme too (same bucket, same counts), so that no larger or smaller value appears.
            let low = index == 0 ? minimum : nil
            let high = index == last ? maximum : nil
            for extreme in [low, high].compactMap({ $0 }) where !histogram.valuesAreEquivalent(extreme, pair[0]) {
                throw HistogramDecodingError(pair: [extreme, pair[0]])
            }
            if let low, let high, pair[1] > 1 {
                histogram.record(low, count: 1)
                histogram.record(high, count: pair[1] - 1)
            } else {
                histogram.record(high ?? low ?? pair[0], count: pair[1])
            }
        }
    }

    /// Records `value` `count` times.
    @inline(__always) @_spi(Tooling) public mutating func record(_ value: UInt64, count: UInt64 = 1) {
        histogram.record(value, count: count)
    }

    /// Adds every count of `other`.
    @_spi(Tooling) public mutating func merge(_ other: LatencyHistogram) {
        histogram.add(other.histogram)
    }

    /// Values recorded.
    @_spi(Tooling) public var count: UInt64 { histogram.totalCount }

    /// The value at `percentile` (0...100), 0 when empty.
    @_spi(Tooling) public func percentile(_ percentile: Double) -> UInt64 {
        count == 0 ? 0 : histogram.valueAtPercentile(percentile)
    }

    /// Values recorded at or below `value` (within the histogram's resolution: a value in the same
    /// bucket counts as equal).
    @_spi(Tooling) public func count(atMost value: UInt64) -> UInt64 {
        count == 0 ? 0 : histogram.count(within: 0...value)
    }

    /// The highest value recorded, 0 when empty.
    @_spi(Tooling) public var max: UInt64 { count == 0 ? 0 : histogram.maxRecorded }

    /// The lowest value recorded, 0 when empty.
    @_spi(Tooling) public var min: UInt64 { count == 0 ? 0 : histogram.min }

    /// The mean of the recorded values.
    @_spi(Tooling) public var mean: Double { histogram.mean }

    /// `[value, count]` for each non-empty bucket in value order, the value being the highest one
    /// the bucket holds: recording these again rebuilds an equal histogram.
    @_spi(Tooling) public var recordedCounts: [[UInt64]] {
        histogram.recordedValues().map { [$0.value, $0.count] }
    }
}

/// A histogram's recorded counts in JSON were not `[value, count]` pairs with a positive count, or
/// its extremes were not in its first and last buckets.
@_spi(Tooling) public struct HistogramDecodingError: Error, CustomStringConvertible {
    /// The pair that could not be read.
    @_spi(Tooling) public var pair: [UInt64]
    /// Why, when it is not the shape of the pair or an extreme outside its bucket.
    @_spi(Tooling) public var reason: String?

    /// An error about `pair`.
    @_spi(Tooling) public init(pair: [UInt64], reason: String? = nil) {
        self.pair = pair
        self.reason = reason
    }

    /// What is wrong with the pair.
    @_spi(Tooling) public var description: String {
        if let reason { return "histogram counts past what a histogram holds (\(reason)) at \(pair)" }
        return "histogram counts must be [value, count] pairs with count > 0 and the minimum and maximum in the first and last buckets, not \(pair)"
    }
}
