@_spi(Tooling) @testable import RunResults
import PaymentsCore

/// Builds run results with chosen figures, for the renderers.
struct RunResultBuilder {
    var scenario = "checkout"
    var seed: UInt64 = 7
    var load = "fixed"
    var durationSeconds = 10.0
    var events = (meals: 1_000, steps: 5_000, payments: 200)
    /// Batch latencies of every stream, in microseconds.
    var batchMicros: [UInt64] = [100, 100, 100, 5_000]
    var paymentMillis: [UInt64] = [40, 80, 1_200]
    var rejected: [(stream: String, reason: String, count: Int)] = [("meals", "malformed", 3), ("payments", "over_limit", 2)]
    var states: [(PaymentState, Int)] = [(.captured, 150), (.declined, 20)]
    var thresholds = ["invariant_violations == 0", "total.events_per_s > 10"]
    var rssMegabytes: [Double] = [30, 34, 35]
    var violations: [String] = []
    var cpuUserSeconds = 12.0
    /// Intervals of the series, each with a tenth of the events; a paced load's target when set.
    var intervals = 3
    var targetPerInterval: Double?
    var responseMicros: [UInt64] = []
    /// A paced load's events dropped (spread over the intervals) and the most it fell behind.
    var dropped = 0
    var behindSeconds = 0.0
    /// The differential check, if one ran.
    var check: CheckReport?

    func with(_ change: (inout RunResultBuilder) -> Void) -> RunResultBuilder {
        var copy = self
        change(&copy)
        return copy
    }

    func build() throws -> RunResult {
        var metrics = RunMetrics()
        metrics.users = 100
        metrics.meals.events = events.meals
        metrics.steps.events = events.steps
        metrics.payments.events = events.payments
        metrics.total.events = events.meals + events.steps + events.payments
        for micros in batchMicros {
            metrics.meals.recordBatch(events: 10, nanos: micros * 1_000)
            metrics.steps.recordBatch(events: 50, nanos: micros * 2_000)
            metrics.payments.recordBatch(events: 2, nanos: micros * 500)
            metrics.total.recordBatch(events: 62, nanos: micros * 3_500)
        }
        for millis in paymentMillis { metrics.paymentLatency.record(millis) }
        for (stream, reason, count) in rejected {
            switch stream {
            case "meals": _ = metrics.meals.rejected.set(reason, to: count)
            case "steps": _ = metrics.steps.rejected.set(reason, to: count)
            default: _ = metrics.payments.rejected.set(reason, to: count)
            }
        }
        for (state, count) in states { metrics.paymentStates[PaymentState.allCases.firstIndex(of: state)!] = count }
        metrics.addViolations(violations)
        metrics.digest = 0xABCDEF
        var process = ProcessFigures()
        process.cpuUserSeconds = cpuUserSeconds
        process.cpuSystemSeconds = 0.5
        process.peakRSSBytes = Int((rssMegabytes.max() ?? 0) * 1e6)
        process.allocations = 1_000
        process.rssSamples = rssMegabytes.enumerated().map {
            RSSSample(seconds: Double($0.offset), bytes: Int($0.element * 1e6), cpuSeconds: Double($0.offset) * 1.5)
        }
        for micros in responseMicros { metrics.responseLatency.record(micros) }
        metrics.total.dropped = dropped
        metrics.behindScheduleSeconds = behindSeconds
        var series = IntervalSeries(intervalSeconds: 1)
        for index in 0..<intervals {
            var interval = IntervalFigures(index: index)
            interval.events = [events.meals / 10, events.steps / 10, events.payments / 10, (events.meals + events.steps + events.payments) / 10]
            interval.batches = batchMicros.count
            interval.serviceLatency = [SparseCounts](repeating: SparseCounts(buckets: batchMicros.map { ($0, 1) }), count: 4)
            interval.responseLatency = SparseCounts(buckets: responseMicros.map { ($0, 1) })
            interval.targetEvents = targetPerInterval
            interval.dropped[3] = dropped / max(1, intervals)
            interval.behindScheduleSeconds = behindSeconds * Double(index + 1) / Double(intervals)
            series.intervals.append(interval)
        }
        var result = RunResult(
            scenario: scenario, seed: seed, users: 100, days: 7, load: load, shards: ["0/1"], tasks: 2, timing: true,
            usersPerBatch: 10, durationSeconds: durationSeconds, metrics: metrics, process: process, series: series
        )
        result.check = check
        result.evaluate(try thresholds.map { try ThresholdParser.parse($0) })
        return result
    }
}
