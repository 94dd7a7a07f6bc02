import Histogram

/// A coarse latency histogram (one significant digit: values within 10 %) kept as its non-empty
/// buckets, `(value, count)` in value order, the value being the highest its bucket holds: small
/// enough to keep one per interval, and exact to merge (equal buckets have equal values).
@_spi(Tooling) public struct SparseCounts: Sendable, Equatable {
    /// The non-empty buckets in value order.
    @_spi(Tooling) public private(set) var buckets: [(value: UInt64, count: UInt64)] = []

    /// No values.
    @_spi(Tooling) public init() {}

    /// The buckets `buckets` (in any order; equal values add).
    @_spi(Tooling) public init(buckets: [(value: UInt64, count: UInt64)]) {
        self.init()
        if zip(buckets, buckets.dropFirst()).allSatisfy({ $0.value < $1.value }) {
            self.buckets = buckets.filter { $0.count > 0 }  // already in order, as read from a file
        } else {
            merge(buckets)
        }
    }

    /// The non-empty buckets of `histogram`.
    init(_ histogram: Histogram<UInt64>) {
        buckets = histogram.totalCount == 0 ? [] : histogram.recordedValues().map { ($0.value, $0.count) }
    }

    @_spi(Tooling) public static func == (a: SparseCounts, b: SparseCounts) -> Bool {
        a.buckets.elementsEqual(b.buckets, by: ==)
    }

    /// Values recorded.
    @_spi(Tooling) public var count: UInt64 { buckets.reduce(0) { $0 + $1.count } }

    /// The highest bucket's value, 0 when empty.
    @_spi(Tooling) public var max: UInt64 { buckets.last?.value ?? 0 }

    /// The value at `percentile` (0...100) as HdrHistogram computes it: the first bucket whose
    /// cumulative count reaches `percentile / 100 · count`, rounded to the nearest; 0 when empty.
    @_spi(Tooling) public func percentile(_ percentile: Double) -> UInt64 {
        let total = count
        guard total > 0 else { return 0 }
        let target = Swift.max(1, UInt64(percentile / 100 * Double(total) + 0.5))
        var seen: UInt64 = 0
        for bucket in buckets {
            seen += bucket.count
            if seen >= target { return bucket.value }
        }
        return max
    }

    /// Adds the counts of `other`.
    @_spi(Tooling) public mutating func merge(_ other: SparseCounts) { merge(other.buckets) }

    private mutating func merge(_ added: [(value: UInt64, count: UInt64)]) {
        guard !added.isEmpty else { return }
        var merged: [UInt64: UInt64] = Dictionary(buckets, uniquingKeysWith: +)
        for bucket in added { merged[bucket.value, default: 0] += bucket.count }
        buckets = merged.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

/// What the batches that ended within one interval of a run went through (`--interval`, 1 s by
/// default); an interval covers `[index·Δ, (index+1)·Δ)` seconds from the start.
@_spi(Tooling) public struct IntervalFigures: Sendable, Equatable {
    /// The streams of the per-stream arrays, in their order.
    @_spi(Tooling) public static let streams = ["meals", "steps", "payments", "total"]

    /// The interval's number from the start of the run.
    @_spi(Tooling) public var index: Int
    /// Events analyzed, per stream.
    @_spi(Tooling) public var events = [0, 0, 0, 0]
    /// Rows rejected, per stream.
    @_spi(Tooling) public var rejected = [0, 0, 0, 0]
    /// Events the schedule made due in the interval that were never analyzed, per stream (paced loads).
    @_spi(Tooling) public var dropped = [0, 0, 0, 0]
    /// Batches analyzed.
    @_spi(Tooling) public var batches = 0
    /// Processing time per batch in microseconds, per stream ("service time").
    @_spi(Tooling) public var serviceLatency = [SparseCounts](repeating: SparseCounts(), count: 4)
    /// Time from when each batch was due to when its analysis ended, in microseconds ("response
    /// time": the queueing behind a stall included); paced loads only.
    @_spi(Tooling) public var responseLatency = SparseCounts()
    /// Events the schedule made due in the interval (paced loads; the run's share with `--shard`).
    @_spi(Tooling) public var targetEvents: Double?
    /// The most any batch of the interval started after it was due, in seconds.
    @_spi(Tooling) public var behindScheduleSeconds = 0.0

    /// An interval with nothing in it yet.
    @_spi(Tooling) public init(index: Int) { self.index = index }

    /// Adds `other` (the same interval of another partition or shard).
    package mutating func merge(_ other: IntervalFigures) {
        for i in 0..<4 {
            events[i] += other.events[i]
            rejected[i] += other.rejected[i]
            dropped[i] += other.dropped[i]
            serviceLatency[i].merge(other.serviceLatency[i])
        }
        batches += other.batches
        responseLatency.merge(other.responseLatency)
        if let target = other.targetEvents { targetEvents = (targetEvents ?? 0) + target }
        behindScheduleSeconds = Swift.max(behindScheduleSeconds, other.behindScheduleSeconds)
    }
}

/// A run's figures interval by interval: what the charts over time and the HdrHistogram interval
/// log are drawn from.
@_spi(Tooling) public struct IntervalSeries: Sendable, Equatable {
    /// The length of an interval in seconds.
    @_spi(Tooling) public var intervalSeconds: Double
    /// The intervals with figures, in index order.
    @_spi(Tooling) public var intervals: [IntervalFigures]

    /// A series of `intervals` of `intervalSeconds` each.
    @_spi(Tooling) public init(intervalSeconds: Double, intervals: [IntervalFigures] = []) {
        self.intervalSeconds = intervalSeconds
        self.intervals = intervals
    }

    /// Adds `other`'s intervals to those of the same index.
    @_spi(Tooling) public mutating func merge(_ other: IntervalSeries) {
        var byIndex = Dictionary(uniqueKeysWithValues: intervals.map { ($0.index, $0) })
        for interval in other.intervals { byIndex[interval.index, default: IntervalFigures(index: interval.index)].merge(interval) }
        intervals = byIndex.values.sorted { $0.index < $1.index }
    }

    /// The seconds of the interval of `index` that a run of `runSeconds` covered: the whole interval
    /// but for the last one, cut short by the end of the run.
    @_spi(Tooling) public func span(ofInterval index: Int, runSeconds: Double) -> Double {
        let start = Double(index) * intervalSeconds
        let covered = min(start + intervalSeconds, runSeconds) - start
        return covered > 1e-9 ? covered : intervalSeconds
    }

    /// The interval of `index`, made when missing.
    package subscript(index: Int) -> IntervalFigures {
        get { intervals.first { $0.index == index } ?? IntervalFigures(index: index) }
        set {
            if let position = intervals.firstIndex(where: { $0.index == index }) {
                intervals[position] = newValue
            } else {
                intervals.append(newValue)
                intervals.sort { $0.index < $1.index }
            }
        }
    }
}

/// One batch's figures, as its partition's task hands them to the recorder.
package struct BatchFigures {
    /// Seconds from the start of the run to the end of the batch's analysis.
    package var endSeconds: Double
    /// Events per stream (meals, steps, payments, total).
    package var events: SIMD4<Int>
    /// Rejected rows per stream.
    package var rejected: SIMD4<Int>
    /// Processing nanoseconds per stream, when timed.
    package var serviceNanos: SIMD4<UInt64>?
    /// Nanoseconds from when the batch was due to the end of its analysis (paced loads).
    package var responseNanos: UInt64?
    /// Seconds the batch's analysis started after it was due (paced loads).
    package var behindSeconds: Double?

    package init(endSeconds: Double, events: SIMD4<Int>, rejected: SIMD4<Int>, serviceNanos: SIMD4<UInt64>?) {
        self.endSeconds = endSeconds
        self.events = events
        self.rejected = rejected
        self.serviceNanos = serviceNanos
    }
}

/// Builds one partition's series as its batches end; owned by the partition's task, so
/// nothing is shared. Its histograms are reused from interval to interval.
package struct IntervalRecorder {
    package let intervalSeconds: Double
    private(set) var series: IntervalSeries
    private var current: IntervalFigures?
    private var service = [Histogram<UInt64>](repeating: IntervalRecorder.coarseHistogram(), count: 4)
    private var response = IntervalRecorder.coarseHistogram()

    package init(intervalSeconds: Double) {
        self.intervalSeconds = intervalSeconds
        series = IntervalSeries(intervalSeconds: intervalSeconds)
    }

    /// The histograms of an interval: microseconds up to 2³² within 10 %.
    package static func coarseHistogram() -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 1 << 32, numberOfSignificantValueDigits: .one)
        histogram.autoResize = true
        return histogram
    }

    /// Adds a batch to the interval it ended in.
    package mutating func record(_ batch: BatchFigures) {
        let index = Swift.max(0, Int(batch.endSeconds / intervalSeconds))
        if current?.index != index {
            close()
            current = series.intervals.last?.index == index ? series.intervals.removeLast() : IntervalFigures(index: index)
        }
        current!.batches += 1
        for i in 0..<4 {
            current!.events[i] += batch.events[i]
            current!.rejected[i] += batch.rejected[i]
            if let nanos = batch.serviceNanos { service[i].record((nanos[i] + 999) / 1000) }
        }
        if let nanos = batch.responseNanos { response.record((nanos + 999) / 1000) }
        if let behind = batch.behindSeconds { current!.behindScheduleSeconds = Swift.max(current!.behindScheduleSeconds, behind) }
    }

    /// The series with the last interval closed.
    package mutating func finish() -> IntervalSeries {
        close()
        return series
    }

    private mutating func close() {
        guard var interval = current else { return }
        for i in 0..<4 {
            interval.serviceLatency[i].merge(SparseCounts(service[i]))
            service[i].reset()
        }
        interval.responseLatency.merge(SparseCounts(response))
        response.reset()
        series[interval.index] = interval
        current = nil
    }
}
