import Foundation
import PaymentsCore
import ProcessMetrics

/// The versioned JSON document of a run (`run --json`, `merge`): every metric, every histogram
/// as its recorded counts, the process figures, the machines and the thresholds.
/// The schema is described in the README ("The JSON result"); `version` changes whenever a field changes meaning.
public enum ResultJSON {
    /// The `schema` field of a run result file.
    public static let schema = "simharness-run"
    /// The `version` field; readers refuse any other.
    public static let version = 1

    /// The JSON document of `result`.
    public static func encode(_ result: RunResult) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(RunDocument(result))
    }

    /// Reads a run result file; throws `ResultDecodingError` naming what is wrong.
    public static func decode(_ data: Data) throws -> RunResult {
        let document: RunDocument
        do {
            let header = try JSONDecoder().decode(Header.self, from: data)
            guard header.schema == schema else { throw ResultDecodingError(message: "not a simharness run result (schema '\(header.schema)')") }
            guard header.version == version else {
                throw ResultDecodingError(message: "result schema version \(header.version) is not supported (this tool reads version \(version))")
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
public struct ResultDecodingError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong with the file.
    public var message: String
    /// The message.
    public var description: String { message }
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

    init(_ stream: StreamMetrics, rate: Double?, withRejections: Bool) {
        events = stream.events
        events_per_s = rate
        accepted = withRejections ? stream.accepted : nil
        rejected = withRejections ? Dictionary(uniqueKeysWithValues: zip(stream.rejected.reasons, stream.rejected.counts)) : nil
        batches = stream.batches
        busy_s = Double(stream.busyNanos) / 1e9
        batch_latency_us = HistogramDocument(stream.batchLatency)
        event_latency_ns = HistogramDocument(stream.eventLatency)
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
    /// `[seconds, bytes]` pairs.
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
        streams = [
            "meals": StreamDocument(m.meals, rate: r.eventsPerSecond.meals, withRejections: true),
            "steps": StreamDocument(m.steps, rate: r.eventsPerSecond.steps, withRejections: true),
            "payments": payments,
            "total": StreamDocument(m.total, rate: r.eventsPerSecond.total, withRejections: false),
            "generation": StreamDocument(m.generation, rate: nil, withRejections: false),
        ]
        invariant_violations = m.invariantViolations
        invariant_messages = m.invariantMessages
        output_digest = r.digestText
        let p = r.process
        process = ProcessDocument(
            cpu_user_s: p.cpuUserSeconds, cpu_system_s: p.cpuSystemSeconds, peak_rss_bytes: p.peakRSSBytes, allocations: p.allocations,
            allocated_bytes: p.allocatedBytes, allocator: p.allocator, rss_slope_mb_per_min: p.rssSlopeMBPerMinute,
            rss_samples: p.rssSamples.map { [$0.seconds, Double($0.bytes)] }
        )
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
        figures.rssSamples = try process.rss_samples.map { pair in
            guard pair.count == 2 else { throw ResultDecodingError(message: "rss_samples must be [seconds, bytes] pairs") }
            guard let bytes = Int(exactly: pair[1].rounded(.towardZero)) else {
                throw ResultDecodingError(message: "rss_samples bytes out of range: \(pair[1])")
            }
            return RSSSample(seconds: pair[0], bytes: bytes)
        }
        var result = RunResult(
            scenario: scenario.name, seed: scenario.seed, users: scenario.users, days: scenario.days, load: scenario.load, shards: shards,
            tasks: tasks, timing: timing, usersPerBatch: users_per_batch, status: status, stopReason: stop_reason, durationSeconds: duration_s,
            metrics: metrics, process: figures, machines: try machines.map { try $0.machine() }
        )
        result.eventsPerSecond.meals = streams["meals"]!.events_per_s ?? 0
        result.eventsPerSecond.steps = streams["steps"]!.events_per_s ?? 0
        result.eventsPerSecond.payments = streams["payments"]!.events_per_s ?? 0
        result.eventsPerSecond.total = streams["total"]!.events_per_s ?? 0
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

/// The spellings of the payment states, in `PaymentState.allCases` order.
private enum PaymentStateNames {
    static let all = PaymentState.allCases.map(\.rawValue)
}
