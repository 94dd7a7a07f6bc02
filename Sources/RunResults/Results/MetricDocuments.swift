import Foundation

// The run result's metric documents (`ResultJSON`): a histogram as its recorded counts, a stream's
// figures, the users' counts. Property names are the JSON keys.
struct HistogramDocument: Codable {
    var count: UInt64
    var min: UInt64
    var p50: UInt64
    var p90: UInt64
    var p99: UInt64
    var p999: UInt64
    var max: UInt64
    var mean: Double
    /// `[value, count]` of each non-empty bucket.
    var counts: [[UInt64]]

    init(_ histogram: LatencyHistogram) {
        count = histogram.count
        min = histogram.min
        p50 = histogram.percentile(50)
        p90 = histogram.percentile(90)
        p99 = histogram.percentile(99)
        p999 = histogram.percentile(99.9)
        max = histogram.max
        mean = histogram.count == 0 ? 0 : histogram.mean
        counts = histogram.recordedCounts
    }

    func histogram() throws -> LatencyHistogram {
        do { return try LatencyHistogram(recordedCounts: counts, minimum: count > 0 ? min : nil, maximum: count > 0 ? max : nil) } catch {
            throw ResultDecodingError(message: error.description)
        }
    }
}

struct StreamDocument: Codable {
    var events: Int
    var events_per_s: Double?
    var accepted: Int?
    var rejected: [String: Int]?
    var batches: Int
    var busy_s: Double
    var batch_latency_us: HistogramDocument
    var event_latency_ns: HistogramDocument
    var states: [String: Int]?
    var simulated_latency_ms: HistogramDocument?
    var dropped_events: Int?
    var response_latency_us: HistogramDocument?
    var behind_schedule_max_s: Double?

    init(_ stream: StreamMetrics, rate: Double?, withRejections: Bool) {
        events = stream.events
        events_per_s = rate
        accepted = withRejections ? stream.accepted : nil
        rejected = withRejections ? Dictionary(uniqueKeysWithValues: zip(stream.rejected.reasons, stream.rejected.counts)) : nil
        batches = stream.batches
        busy_s = Double(stream.busyNanos) / 1e9
        batch_latency_us = HistogramDocument(stream.batchLatency)
        event_latency_ns = HistogramDocument(stream.eventLatency)
        dropped_events = rate == nil ? nil : stream.dropped
    }

    func apply(to stream: inout StreamMetrics, name: String) throws {
        stream.events = events
        stream.batches = batches
        guard let nanos = Int64(exactly: (busy_s * 1e9).rounded()) else {
            throw ResultDecodingError(message: "streams.\(name).busy_s is out of range: \(busy_s)")
        }
        stream.busyNanos = nanos
        stream.batchLatency = try batch_latency_us.histogram()
        stream.eventLatency = try event_latency_ns.histogram()
        stream.dropped = dropped_events ?? 0
        for (reason, count) in rejected ?? [:] where !stream.rejected.set(reason, to: count) {
            throw ResultDecodingError(message: "unknown rejection reason '\(reason)' in streams.\(name)")
        }
    }
}

struct UsersDocument: Codable {
    var generated: Int
    var read: Int
    var accepted: Int
    var rejected: [String: Int]
}
