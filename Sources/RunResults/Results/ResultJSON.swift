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


struct ProcessDocument: Codable {
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

struct ThresholdDocument: Codable {
    var check: String
    var abort_on_fail: Bool
    var value: Double?
    var passed: Bool
}

struct ScenarioDocument: Codable {
    var name: String
    var seed: UInt64
    var users: Int
    var days: Int
    var load: String
}

struct RunDocument: Codable {
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
