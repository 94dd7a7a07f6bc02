import Foundation
import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import Scenarios

/// The versioned JSON document of a run (`run --json`, `merge`): every metric, every histogram
/// as its recorded counts, the process figures, the machines and the thresholds.
/// The schema is described in `docs/result-schema.md`; `version` changes whenever a field changes meaning.
@_spi(Tooling) public enum ResultJSON {
    /// The `schema` field of a run result file.
    @_spi(Tooling) public static let schema = "simharness-run"
    /// The `version` this tool writes: 2 added the time series (`series`), the response-time
    /// histogram, dropped events and CPU time in the memory samples.
    @_spi(Tooling) public static let version = 2
    /// The versions this tool reads (version 1 results have no series).
    @_spi(Tooling) public static let readableVersions = 1...2

    /// The JSON document of `result`.
    @_spi(Tooling) public static func encode(_ result: RunResult) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(RunDocument(result))
    }

    /// Reads a run result file; throws `ResultDecodingError` naming what is wrong.
    @_spi(Tooling) public static func decode(_ data: Data) throws -> RunResult {
        let document: RunDocument
        do {
            let header = try JSONDecoder().decode(Header.self, from: data)
            guard header.schema == schema else { throw ResultDecodingError(message: "not a simharness run result (schema '\(header.schema)')") }
            guard readableVersions.contains(header.version) else {
                throw ResultDecodingError(message: "result schema version \(header.version) is not supported (this tool reads versions 1 and 2)")
            }
            document = try JSONDecoder().decode(RunDocument.self, from: data)
        } catch let error as ResultDecodingError {
            throw error
        } catch {
            throw ResultDecodingError(message: "not a valid run result: \(error)")
        }
        return try document.result()
    }

    private struct Header: Decodable {
        var schema: String
        var version: Int
    }
}

/// A run result file that cannot be read.
package struct ResultDecodingError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong with the file.
    package var message: String
    /// The message.
    package var description: String { message }
}

// The document types below mirror the JSON: their property names are the JSON keys.

private struct HistogramDocument: Codable {
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

private struct StreamDocument: Codable {
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

private struct UsersDocument: Codable {
    var generated: Int
    var read: Int
    var accepted: Int
    var rejected: [String: Int]
}

struct MachineDocument: Codable {
    var processor: String
    var logical_cores: Int
    var memory_bytes: Int
    var operating_system: String
    var architecture: String
    var allocator: String

    init(_ machine: MachineDescription) {
        processor = machine.processor
        logical_cores = machine.logicalCores
        memory_bytes = machine.memoryBytes
        operating_system = machine.operatingSystem
        architecture = machine.architecture
        allocator = machine.allocator.rawValue
    }

    func machine() throws -> MachineDescription {
        guard let backend = AllocationBackend(rawValue: allocator) else {
            throw ResultDecodingError(message: "unknown allocator '\(allocator)'")
        }
        return MachineDescription(
            processor: processor, logicalCores: logical_cores, memoryBytes: memory_bytes, operatingSystem: operating_system,
            architecture: architecture, allocator: backend
        )
    }
}

private struct ProcessDocument: Codable {
    var cpu_user_s: Double
    var cpu_system_s: Double
    var peak_rss_bytes: Int
    var allocations: Int?
    var allocated_bytes: Int?
    var allocator: String
    var rss_slope_mb_per_min: Double?
    /// `[seconds, bytes, cpu_seconds]` (version 1: `[seconds, bytes]`).
    var rss_samples: [[Double]]
}

private struct ThresholdDocument: Codable {
    var check: String
    var abort_on_fail: Bool
    var value: Double?
    var passed: Bool
}

private struct ScenarioDocument: Codable {
    var name: String
    var seed: UInt64
    var users: Int
    var days: Int
    var load: String
}

private struct RunDocument: Codable {
    var schema = ResultJSON.schema
    var version = ResultJSON.version
    var scenario: ScenarioDocument
    var shards: [String]
    var tasks: Int
    var timing: Bool
    var users_per_batch: Int
    var status: RunStatus
    var stop_reason: String?
    var duration_s: Double
    var users: UsersDocument
    var streams: [String: StreamDocument]
    var invariant_violations: Int
    var invariant_messages: [String]
    var output_digest: String
    var process: ProcessDocument
    var machines: [MachineDocument]
    var thresholds: [ThresholdDocument]
    var series: SeriesDocument?
    var check: CheckDocument?
    var replay: ReplayDocument?

    init(_ r: RunResult) {
        let m = r.metrics
        scenario = ScenarioDocument(name: r.scenario, seed: r.seed, users: r.users, days: r.days, load: r.load)
        shards = r.shards
        tasks = r.tasks
        timing = r.timing
        users_per_batch = r.usersPerBatch
        status = r.status
        stop_reason = r.stopReason
        duration_s = r.durationSeconds
        users = UsersDocument(
            generated: m.users, read: m.userRows, accepted: m.userRows - m.userRejections.total,
            rejected: Dictionary(uniqueKeysWithValues: zip(m.userRejections.reasons, m.userRejections.counts))
        )
        var payments = StreamDocument(m.payments, rate: r.eventsPerSecond.payments, withRejections: true)
        payments.states = Dictionary(uniqueKeysWithValues: zip(PaymentStateNames.all, m.paymentStates))
        payments.simulated_latency_ms = HistogramDocument(m.paymentLatency)
        var total = StreamDocument(m.total, rate: r.eventsPerSecond.total, withRejections: false)
        total.response_latency_us = HistogramDocument(m.responseLatency)
        total.behind_schedule_max_s = m.behindScheduleSeconds
        streams = [
            "meals": StreamDocument(m.meals, rate: r.eventsPerSecond.meals, withRejections: true),
            "steps": StreamDocument(m.steps, rate: r.eventsPerSecond.steps, withRejections: true),
            "payments": payments,
            "total": total,
            "generation": StreamDocument(m.generation, rate: nil, withRejections: false),
        ]
        invariant_violations = m.invariantViolations
        invariant_messages = m.invariantMessages
        output_digest = r.digestText
        let p = r.process
        process = ProcessDocument(
            cpu_user_s: p.cpuUserSeconds, cpu_system_s: p.cpuSystemSeconds, peak_rss_bytes: p.peakRSSBytes, allocations: p.allocations,
            allocated_bytes: p.allocatedBytes, allocator: p.allocator, rss_slope_mb_per_min: p.rssSlopeMBPerMinute,
            rss_samples: p.rssSamples.map { [$0.seconds, Double($0.bytes)] + ($0.cpuSeconds.map { [$0] } ?? []) }
        )
        series = SeriesDocument(r.series, runSeconds: r.durationSeconds)
        check = r.check.map(CheckDocument.init)
        replay = r.replay.map { ReplayDocument(events: $0.events, generation_s: $0.seconds) }
        machines = r.machines.map(MachineDocument.init)
        thresholds = r.thresholds.map {
            ThresholdDocument(check: $0.threshold.text, abort_on_fail: $0.threshold.abortOnFail, value: $0.value, passed: $0.passed)
        }
    }

    func result() throws -> RunResult {
        var metrics = RunMetrics()
        metrics.users = users.generated
        metrics.userRows = users.read
        for (reason, count) in users.rejected where !metrics.userRejections.set(reason, to: count) {
            throw ResultDecodingError(message: "unknown rejection reason '\(reason)' in users")
        }
        for name in ["meals", "steps", "payments", "total", "generation"] where streams[name] == nil {
            throw ResultDecodingError(message: "streams.\(name) is missing")
        }
        try streams["meals"]!.apply(to: &metrics.meals, name: "meals")
        try streams["steps"]!.apply(to: &metrics.steps, name: "steps")
        try streams["payments"]!.apply(to: &metrics.payments, name: "payments")
        try streams["total"]!.apply(to: &metrics.total, name: "total")
        try streams["generation"]!.apply(to: &metrics.generation, name: "generation")
        for (state, count) in streams["payments"]!.states ?? [:] {
            guard let index = PaymentStateNames.all.firstIndex(of: state) else {
                throw ResultDecodingError(message: "unknown payment state '\(state)'")
            }
            metrics.paymentStates[index] = count
        }
        metrics.paymentLatency = try streams["payments"]!.simulated_latency_ms?.histogram() ?? LatencyHistogram()
        metrics.responseLatency = try streams["total"]!.response_latency_us?.histogram() ?? LatencyHistogram()
        metrics.behindScheduleSeconds = streams["total"]!.behind_schedule_max_s ?? 0
        metrics.invariantViolations = invariant_violations
        metrics.invariantMessages = invariant_messages
        guard let digest = UInt64(output_digest, radix: 16) else { throw ResultDecodingError(message: "output_digest is not hexadecimal") }
        metrics.digest = digest

        var figures = ProcessFigures()
        figures.cpuUserSeconds = process.cpu_user_s
        figures.cpuSystemSeconds = process.cpu_system_s
        figures.peakRSSBytes = process.peak_rss_bytes
        figures.allocations = process.allocations
        figures.allocatedBytes = process.allocated_bytes
        figures.allocator = process.allocator
        figures.rssSlopeMBPerMinute = process.rss_slope_mb_per_min
        figures.rssSamples = try process.rss_samples.map { sample in
            guard sample.count == 2 || sample.count == 3 else {
                throw ResultDecodingError(message: "rss_samples must be [seconds, bytes] or [seconds, bytes, cpu_seconds]")
            }
            guard let bytes = Int(exactly: sample[1].rounded(.towardZero)) else {
                throw ResultDecodingError(message: "rss_samples bytes out of range: \(sample[1])")
            }
            return RSSSample(seconds: sample[0], bytes: bytes, cpuSeconds: sample.count == 3 ? sample[2] : nil)
        }
        var result = RunResult(
            scenario: scenario.name, seed: scenario.seed, users: scenario.users, days: scenario.days, load: scenario.load, shards: shards,
            tasks: tasks, timing: timing, usersPerBatch: users_per_batch, status: status, stopReason: stop_reason, durationSeconds: duration_s,
            metrics: metrics, process: figures, machines: try machines.map { try $0.machine() },
            series: try series?.series() ?? IntervalSeries(intervalSeconds: 1)
        )
        result.eventsPerSecond.meals = streams["meals"]!.events_per_s ?? 0
        result.eventsPerSecond.steps = streams["steps"]!.events_per_s ?? 0
        result.eventsPerSecond.payments = streams["payments"]!.events_per_s ?? 0
        result.eventsPerSecond.total = streams["total"]!.events_per_s ?? 0
        result.check = try check?.report()
        if let replay {
            guard replay.events >= 0, replay.generation_s >= 0 else { throw ResultDecodingError(message: "replay figures must not be negative") }
            result.replay = ReplayFigures(events: replay.events, seconds: replay.generation_s)
        }
        result.thresholds = try thresholds.map { document in
            do throws(ThresholdSyntaxError) {
                let threshold = try ThresholdParser.parse(document.check, abortOnFail: document.abort_on_fail)
                var outcome = ThresholdOutcome(threshold: threshold, value: document.value)
                outcome.passed = document.passed
                return outcome
            } catch {
                throw ResultDecodingError(message: "threshold '\(document.check)': \(error.message)")
            }
        }
        return result
    }
}

/// `replay`: the batches of a `--replay` run, generated before it.
private struct ReplayDocument: Codable {
    var events: Int
    var generation_s: Double
}

/// `check`: the differential check against the reference.
private struct CheckDocument: Codable {
    var against: String
    var implementations: [String]
    var sample: Double
    var users: Int
    /// Absent when 0 (shards other than 0, results before the boundary population).
    var boundary_users: Int?
    var mismatches: Int
    var by_field: [String: Int]
    var listed: [Mismatch]
    var seconds: Double
    var boundaries: BoundariesDocument?

    init(_ report: CheckReport) {
        against = report.against
        implementations = report.implementations
        sample = report.sample
        users = report.users
        boundary_users = report.boundaryUsers > 0 ? report.boundaryUsers : nil
        mismatches = report.mismatches
        by_field = report.byField
        listed = report.listed
        seconds = report.seconds
        boundaries = BoundariesDocument(report.boundaries)
    }

    func report() throws -> CheckReport {
        guard sample > 0, sample <= 1 else { throw ResultDecodingError(message: "check.sample must be in (0, 1], not \(sample)") }
        guard users >= 0, boundary_users ?? 0 >= 0, mismatches >= 0, by_field.values.allSatisfy({ $0 >= 0 }) else {
            throw ResultDecodingError(message: "check counts must not be negative")
        }
        var report = CheckReport(sample: sample)
        report.against = against
        report.implementations = implementations
        report.users = users
        report.boundaryUsers = boundary_users ?? 0
        report.mismatches = mismatches
        report.byField = by_field
        report.listed = listed
        report.seconds = seconds
        if let boundaries { report.boundaries = try boundaries.coverage() }
        return report
    }
}

/// `check.boundaries`: the SPEC boundaries the checked users reached (absent in results before them).
private struct BoundariesDocument: Codable {
    var exercised: Int
    var measured: Int
    var unreached: [String]
    /// Each measured entry's `[inside, outside]` counts, by id.
    var sides: [String: [Int]]

    init(_ coverage: BoundaryCoverage) {
        exercised = coverage.exercised
        measured = coverage.measured
        unreached = coverage.unreached.map { "\($0.boundary.id) (\($0.missing))" }
        sides = Dictionary(uniqueKeysWithValues: SpecBoundary.measured.map {
            ($0.id, [coverage.inside[$0.key.rawValue], coverage.outside[$0.key.rawValue]])
        })
    }

    func coverage() throws -> BoundaryCoverage {
        var inside = [Int](repeating: 0, count: SpecBoundary.catalogue.count), outside = inside
        for entry in SpecBoundary.catalogue {
            guard let counts = sides[entry.id] else { continue }
            guard counts.count == 2, counts.allSatisfy({ $0 >= 0 }) else {
                throw ResultDecodingError(message: "check.boundaries.sides.\(entry.id) must be [inside, outside] counts >= 0")
            }
            inside[entry.key.rawValue] = counts[0]
            outside[entry.key.rawValue] = counts[1]
        }
        return BoundaryCoverage(inside: inside, outside: outside)!
    }
}

/// The spellings of the payment states, in `PaymentState.allCases` order.
private enum PaymentStateNames {
    static let all = PaymentState.allCases.map(\.rawValue)
}

/// The time series: each interval with figures, per stream.
private struct SeriesDocument: Codable {
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

private struct IntervalDocument: Codable {
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

private struct IntervalStreamDocument: Codable {
    var events: Int
    var events_per_s: Double
    var rejected: Int
    var dropped: Int
    var batch_latency_us: CoarseHistogramDocument
    var response_latency_us: CoarseHistogramDocument?
}

/// An interval's histogram: its percentiles for people, its buckets for merging.
private struct CoarseHistogramDocument: Codable {
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
