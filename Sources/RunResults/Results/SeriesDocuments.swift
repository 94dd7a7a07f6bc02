import Foundation

// The run result's time series (`ResultJSON`, version 2): intervals of coarse histograms per
// stream. Property names are the JSON keys.
struct SeriesDocument: Codable {
    var interval_s: Double
    var intervals: [IntervalDocument]

    init(_ series: IntervalSeries, runSeconds: Double) {
        interval_s = series.intervalSeconds
        intervals = series.intervals.map {
            IntervalDocument($0, width: series.intervalSeconds, span: series.span(ofInterval: $0.index, runSeconds: runSeconds))
        }
    }

    func series() throws -> IntervalSeries {
        guard interval_s > 0, interval_s.isFinite else { throw ResultDecodingError(message: "series.interval_s must be positive, not \(interval_s)") }
        let decoded = try intervals.map { try $0.figures() }
        guard zip(decoded, decoded.dropFirst()).allSatisfy({ $0.index < $1.index }), decoded.first.map({ $0.index >= 0 }) ?? true else {
            throw ResultDecodingError(message: "series.intervals must be in increasing index order from 0")
        }
        return IntervalSeries(intervalSeconds: interval_s, intervals: decoded)
    }
}

struct IntervalDocument: Codable {
    var index: Int
    var start_s: Double
    var batches: Int
    var target_events: Double?
    var behind_schedule_s: Double
    var streams: [String: IntervalStreamDocument]

    /// `span`: the seconds of the interval the run covered (the rates' denominator).
    init(_ figures: IntervalFigures, width: Double, span: Double) {
        index = figures.index
        start_s = Double(figures.index) * width
        batches = figures.batches
        target_events = figures.targetEvents
        behind_schedule_s = figures.behindScheduleSeconds
        var streams: [String: IntervalStreamDocument] = [:]
        for (i, name) in IntervalFigures.streams.enumerated() {
            streams[name] = IntervalStreamDocument(
                events: figures.events[i], events_per_s: Double(figures.events[i]) / span, rejected: figures.rejected[i],
                dropped: figures.dropped[i], batch_latency_us: CoarseHistogramDocument(figures.serviceLatency[i]),
                response_latency_us: name == "total" ? CoarseHistogramDocument(figures.responseLatency) : nil
            )
        }
        self.streams = streams
    }

    func figures() throws -> IntervalFigures {
        var figures = IntervalFigures(index: index)
        figures.batches = batches
        figures.targetEvents = target_events
        figures.behindScheduleSeconds = behind_schedule_s
        for (i, name) in IntervalFigures.streams.enumerated() {
            guard let stream = streams[name] else { throw ResultDecodingError(message: "series interval \(index): streams.\(name) is missing") }
            figures.events[i] = stream.events
            figures.rejected[i] = stream.rejected
            figures.dropped[i] = stream.dropped
            figures.serviceLatency[i] = try stream.batch_latency_us.counts(in: "series interval \(index) \(name)")
        }
        figures.responseLatency = try streams["total"]!.response_latency_us?.counts(in: "series interval \(index) total") ?? SparseCounts()
        return figures
    }
}

struct IntervalStreamDocument: Codable {
    var events: Int
    var events_per_s: Double
    var rejected: Int
    var dropped: Int
    var batch_latency_us: CoarseHistogramDocument
    var response_latency_us: CoarseHistogramDocument?
}

/// An interval's histogram: its percentiles for people, its buckets for merging.
struct CoarseHistogramDocument: Codable {
    var count: UInt64
    var p50: UInt64
    var p90: UInt64
    var p99: UInt64
    var max: UInt64
    /// `[value, count]` of each non-empty bucket.
    var counts: [[UInt64]]

    init(_ sparse: SparseCounts) {
        count = sparse.count
        p50 = sparse.percentile(50)
        p90 = sparse.percentile(90)
        p99 = sparse.percentile(99)
        max = sparse.max
        counts = sparse.buckets.map { [$0.value, $0.count] }
    }

    func counts(in place: String) throws -> SparseCounts {
        try SparseCounts(buckets: counts.map { pair in
            guard pair.count == 2, pair[1] > 0 else { throw ResultDecodingError(message: "\(place): histogram counts must be [value, count] pairs with count > 0") }
            return (pair[0], pair[1])
        })
    }
}
