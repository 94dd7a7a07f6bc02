import Foundation
import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import Scenarios

/// How a metric of a baseline is compared.
@_spi(Tooling) public enum BaselineKind: String, Sendable, Codable, CaseIterable {
    /// Wall-clock time, lower is better, scaled by the machines' calibration ratio.
    case time
    /// CPU time, lower is better, scaled by the machines' CPU calibration ratio.
    case cpuTime = "cpu_time"
    /// Events per second, higher is better, scaled by the calibration ratio.
    case throughput
    /// Memory, lower is better, not scaled.
    case memory
    /// Allocation calls: nearly deterministic, more is a regression, fewer an improvement.
    case allocations
    /// A deterministic count (events, rejections, states, simulated latencies): must not change.
    case exact
}

/// Which metrics of a baseline can fail `baseline check`.
package enum BaselineGate: String, Sendable, CaseIterable {
    /// What holds on any runner (the default): counts, allocations, memory, and CPU time scaled by the
    /// CPU calibration measured beside the runs. Wall-clock times and rates are compared and shown but
    /// do not fail: a busier or slower runner moves them by more than any calibration can undo.
    case portable
    /// Every metric, wall-clock times and rates included: for a dedicated, quiet runner.
    case all

    /// Whether a regression of a metric of `kind` fails the check.
    package func gates(_ kind: BaselineKind) -> Bool {
        self == .all || kind.isPortable
    }
}

extension BaselineKind {
    /// Whether a metric of this kind holds from one runner to another: a count, or CPU time divided by
    /// the speed of the same runner's CPU. Wall-clock times and rates depend on the scheduler and on the
    /// other load (docs/performance.md, "Which metrics hold across runners").
    @_spi(Tooling) public var isPortable: Bool {
        switch self {
        case .cpuTime, .memory, .allocations, .exact: true
        case .time, .throughput: false
        }
    }

    /// Which way metrics of this kind get better.
    @_spi(Tooling) public var direction: MetricDirection {
        switch self {
        case .time, .cpuTime, .memory, .allocations: .lowerIsBetter
        case .throughput: .higherIsBetter
        case .exact: .exact
        }
    }

    /// The default tolerance of `metric`: loose on times (shared, loaded machines), tight on
    /// memory, none on what is deterministic.
    @_spi(Tooling) public func defaultTolerance(for metric: String) -> MetricTolerance {
        switch self {
        case .time where metric.contains("p99") || metric.contains("max"): MetricTolerance(relative: 0.5, absolute: 0.05)
        case .time: MetricTolerance(relative: 0.25, absolute: 0.01)
        case .cpuTime: MetricTolerance(relative: 0.25, absolute: 0.05)
        case .throughput: MetricTolerance(relative: 0.2)
        case .memory: MetricTolerance(relative: 0.1, absolute: 2)
        // The pipeline's allocations are fixed; the Swift runtime's (threads, metadata) vary by a
        // few dozen from run to run.
        case .allocations: MetricTolerance(relative: 0.001, absolute: 64)
        case .exact: .exact
        }
    }

    /// `baseline` as expected on a machine `slowdown` (`cpuSlowdown` for CPU time) times slower.
    func expected(_ baseline: Double, slowdown: Double, cpuSlowdown: Double) -> Double {
        switch self {
        case .time: baseline * slowdown
        case .cpuTime: baseline * cpuSlowdown
        case .throughput: baseline / slowdown
        case .memory, .allocations, .exact: baseline
        }
    }
}

/// The figures a baseline keeps: medians of several runs, the machine and its calibration.
@_spi(Tooling) public struct BaselineMeasurement: Sendable, Equatable {
    /// The scenario's name.
    @_spi(Tooling) public var scenario: String
    /// The seed the runs used.
    @_spi(Tooling) public var seed: UInt64
    /// Users of the runs.
    @_spi(Tooling) public var users: Int
    /// Days of the runs.
    @_spi(Tooling) public var days: Int
    /// The load model's summary.
    @_spi(Tooling) public var load: String
    /// Partitions of the runs.
    @_spi(Tooling) public var tasks: Int
    /// Runs the medians were taken of.
    @_spi(Tooling) public var repetitions: Int
    /// The machine they ran on.
    @_spi(Tooling) public var machine: MachineDescription
    /// Its calibration scores when they ran.
    @_spi(Tooling) public var calibration: Calibration
    /// Metric name → kind and value (medians for measured figures).
    @_spi(Tooling) public var metrics: [String: (kind: BaselineKind, value: Double)]
    /// The runs' output digest (fixed load model only).
    @_spi(Tooling) public var outputDigest: String?

    /// Equal figures, metric by metric.
    @_spi(Tooling) public static func == (a: BaselineMeasurement, b: BaselineMeasurement) -> Bool {
        a.scenario == b.scenario && a.seed == b.seed && a.users == b.users && a.days == b.days && a.load == b.load
            && a.tasks == b.tasks && a.repetitions == b.repetitions && a.machine == b.machine && a.calibration == b.calibration
            && a.outputDigest == b.outputDigest && a.metrics.count == b.metrics.count
            && a.metrics.allSatisfy { name, entry in b.metrics[name].map { $0.kind == entry.kind && $0.value == entry.value } ?? false }
    }

    /// The metrics a baseline records and their kinds. Deterministic ones only for the fixed
    /// load model, whose runs always process the same events.
    @_spi(Tooling) public static func kinds(deterministic: Bool) -> [(String, BaselineKind)] {
        var kinds: [(String, BaselineKind)] = [("duration_s", .time), ("cpu_user_s", .cpuTime), ("cpu_system_s", .cpuTime), ("peak_rss_mb", .memory)]
        for stream in ["meals", "steps", "payments", "total", "generation"] {
            for p in ["p50", "p99"] {
                kinds.append(("\(stream).\(p)_batch_latency_ms", .time))
                kinds.append(("\(stream).\(p)_event_latency_ns", .time))
            }
            if stream != "generation" { kinds.append(("\(stream).events_per_s", .throughput)) }
        }
        // Paced loads only: the other models have no response times, so these are left out.
        kinds += [("total.p50_response_latency_ms", .time), ("total.p99_response_latency_ms", .time)]
        guard deterministic else { return kinds }
        kinds.append(("allocations", .allocations))
        kinds.append(("users", .exact))
        kinds.append(("invariant_violations", .exact))
        for stream in ["meals", "steps", "payments"] {
            kinds.append(("\(stream).events", .exact))
            for reason in MetricCatalog.rejectionReasons(of: stream) { kinds.append(("\(stream).rejected.\(reason)", .exact)) }
        }
        for state in PaymentState.allCases { kinds.append(("payments.\(state.rawValue)", .exact)) }
        for p in ["p50", "p90", "p99", "p999", "max"] { kinds.append(("payments.\(p)_latency_ms", .exact)) }
        return kinds
    }

    /// Medians over `results` (runs of one configuration), with `calibration` and `machine`.
    @_spi(Tooling) public init(results: [RunResult], deterministic: Bool, calibration: Calibration, machine: MachineDescription) throws(BaselineError) {
        guard let first = results.first else { throw BaselineError(message: "no run to make a baseline from") }
        scenario = first.scenario
        seed = first.seed
        users = first.users
        days = first.days
        load = first.load
        tasks = first.tasks
        repetitions = results.count
        self.machine = machine
        self.calibration = calibration
        metrics = [:]
        for (name, kind) in Self.kinds(deterministic: deterministic) {
            let values = results.compactMap { MetricCatalog.value(of: name, in: $0) }
            guard values.count == results.count, let middle = median(values) else { continue }
            if kind == .exact, Set(values).count > 1 {
                throw BaselineError(message: "\(name) differs between repetitions (\(values.map(\.compactText).joined(separator: ", "))): not deterministic")
            }
            metrics[name] = (kind, middle)
        }
        outputDigest = deterministic ? first.digestText : nil
        if deterministic, let other = results.first(where: { $0.digestText != first.digestText }) {
            throw BaselineError(message: "the output digest differs between repetitions (\(first.digestText), \(other.digestText))")
        }
    }

    /// A measurement of all its parts (as read from a file).
    @_spi(Tooling) public init(
        scenario: String, seed: UInt64, users: Int, days: Int, load: String, tasks: Int, repetitions: Int, machine: MachineDescription,
        calibration: Calibration, metrics: [String: (kind: BaselineKind, value: Double)], outputDigest: String?
    ) {
        self.scenario = scenario
        self.seed = seed
        self.users = users
        self.days = days
        self.load = load
        self.tasks = tasks
        self.repetitions = repetitions
        self.machine = machine
        self.calibration = calibration
        self.metrics = metrics
        self.outputDigest = outputDigest
    }
}

/// A baseline that cannot be made, read or used.
@_spi(Tooling) public struct BaselineError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong.
    @_spi(Tooling) public var message: String
    /// The message.
    @_spi(Tooling) public var description: String { message }

    /// An error saying `message`.
    package init(message: String) { self.message = message }
}

extension MetricComparison {
    /// `metric` of kind `kind` against its baseline, on a machine `slowdown` (`cpuSlowdown` for CPU
    /// time) times slower than the baseline's (`Calibration.slowdown(comparedWith:)`).
    @_spi(Tooling) public init(
        metric: String, kind: BaselineKind, baseline: Double, measured: Double?, tolerance: MetricTolerance, slowdown: Double, cpuSlowdown: Double
    ) {
        self.init(
            metric: metric, direction: kind.direction, baseline: baseline,
            expected: kind.expected(baseline, slowdown: slowdown, cpuSlowdown: cpuSlowdown), measured: measured, tolerance: tolerance
        )
    }

    /// e.g. `total.events_per_s regressed: baseline 12.3M (10.2M on this machine), measured 8.1M, limit 8.2M`.
    @_spi(Tooling) public var message: String { message(Summary.compact) }
}

/// The outcome of `baseline check`.
package struct BaselineReport: Sendable, Equatable {
    /// Every metric of the baseline, compared.
    package var comparisons: [MetricComparison]
    /// How many times slower this machine is than the baseline's (wall clock, CPU).
    package var slowdown: Double
    /// How many times slower this machine's CPU is than the baseline's.
    package var cpuSlowdown: Double
    /// Whether the outputs are the same as when the baseline was recorded (nil: not compared).
    package var sameOutputs: Bool?
    /// Which metrics can fail the check.
    package var gate: BaselineGate
    /// The kind of each compared metric.
    private var kinds: [String: BaselineKind]

    /// Compares `current` with `baseline`. A metric's tolerance is its kind's default, replaced by the `baseline`
    /// gate's entry in `table` (by metric name or by a prefix ending in `*`) when it has one; `relativeTolerances`
    /// then override the relative part the same way (the absolute part stays); `gate` says which metrics can fail it.
    package init(
        baseline: BaselineMeasurement, current: BaselineMeasurement, table: ToleranceTable? = nil, relativeTolerances: [String: Double] = [:],
        gate: BaselineGate = .portable
    ) {
        self.gate = gate
        kinds = baseline.metrics.mapValues(\.kind)
        let slowdown = current.calibration.slowdown(comparedWith: baseline.calibration)
        let cpuSlowdown = current.calibration.cpuSlowdown(comparedWith: baseline.calibration)
        self.slowdown = slowdown
        self.cpuSlowdown = cpuSlowdown
        comparisons = baseline.metrics.keys.sorted().map { name in
            let (kind, value) = baseline.metrics[name]!
            return MetricComparison(
                metric: name, kind: kind, baseline: value, measured: current.metrics[name]?.value,
                tolerance: Self.tolerance(for: name, kind: kind, table: table, overrides: relativeTolerances), slowdown: slowdown,
                cpuSlowdown: cpuSlowdown
            )
        }
        sameOutputs = baseline.outputDigest.flatMap { expected in current.outputDigest.map { $0 == expected } }
    }

    /// No regression of a gated metric, and the same outputs.
    package var passed: Bool { sameOutputs != false && regressions.isEmpty }

    /// Whether a regression of `comparison` fails the check.
    package func gates(_ comparison: MetricComparison) -> Bool {
        kinds[comparison.metric].map(gate.gates) ?? true
    }

    /// The gated metrics that regressed.
    package var regressions: [MetricComparison] { comparisons.filter { $0.verdict == .regressed && gates($0) } }
    /// The metrics worse than their limit that the gate does not judge (wall-clock times under `portable`).
    package var ungatedRegressions: [MetricComparison] { comparisons.filter { $0.verdict == .regressed && !gates($0) } }
    /// The metrics that improved.
    package var improvements: [MetricComparison] { comparisons.filter { $0.verdict == .improved } }

    static func tolerance(for metric: String, kind: BaselineKind, table: ToleranceTable? = nil, overrides: [String: Double]) -> MetricTolerance {
        var tolerance = table?.tolerance("baseline", metric) ?? kind.defaultTolerance(for: metric)
        let prefixes = overrides.keys.filter { $0.hasSuffix("*") && metric.hasPrefix($0.dropLast()) }
        if let relative = overrides[metric] ?? prefixes.max(by: { $0.count < $1.count }).flatMap({ overrides[$0] }) {
            tolerance.relative = relative
        }
        return tolerance
    }
}

/// The baseline file (`baseline record`), versioned JSON.
@_spi(Tooling) public enum BaselineJSON {
    /// The `schema` field of a baseline file.
    @_spi(Tooling) public static let schema = "simharness-baseline"
    /// The `version` field; readers refuse any other.
    @_spi(Tooling) public static let version = 1

    /// The JSON document of `measurement`.
    @_spi(Tooling) public static func encode(_ measurement: BaselineMeasurement) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(BaselineDocument(measurement))
    }

    /// Reads a baseline file; throws `BaselineError` naming what is wrong.
    @_spi(Tooling) public static func decode(_ data: Data) throws(BaselineError) -> BaselineMeasurement {
        let document: BaselineDocument
        do { document = try JSONDecoder().decode(BaselineDocument.self, from: data) } catch {
            throw BaselineError(message: "not a valid baseline file: \(error)")
        }
        guard document.schema == schema else { throw BaselineError(message: "not a simharness baseline (schema '\(document.schema)')") }
        guard document.version == version else {
            throw BaselineError(message: "baseline version \(document.version) is not supported (this tool reads version \(version))")
        }
        return try document.measurement()
    }

    private struct Entry: Codable {
        var kind: BaselineKind
        var value: Double
    }

    private struct CalibrationDocument: Codable {
        var score: Double
        var cpu_score: Double
    }

    private struct BaselineDocument: Codable {
        var schema = BaselineJSON.schema
        var version = BaselineJSON.version
        var scenario: String
        var seed: UInt64
        var users: Int
        var days: Int
        var load: String
        var tasks: Int
        var repetitions: Int
        var machine: MachineDocument
        var calibration: CalibrationDocument
        var metrics: [String: Entry]
        var output_digest: String?

        init(_ m: BaselineMeasurement) {
            scenario = m.scenario
            seed = m.seed
            users = m.users
            days = m.days
            load = m.load
            tasks = m.tasks
            repetitions = m.repetitions
            machine = MachineDocument(m.machine)
            calibration = CalibrationDocument(score: m.calibration.score, cpu_score: m.calibration.cpuScore)
            metrics = m.metrics.mapValues { Entry(kind: $0.kind, value: $0.value) }
            output_digest = m.outputDigest
        }

        func measurement() throws(BaselineError) -> BaselineMeasurement {
            guard calibration.score > 0, calibration.cpu_score > 0 else { throw BaselineError(message: "the baseline's calibration scores must be positive") }
            let machine: MachineDescription
            do { machine = try self.machine.machine() } catch { throw BaselineError(message: "\(error)") }
            return BaselineMeasurement(
                scenario: scenario, seed: seed, users: users, days: days, load: load, tasks: tasks, repetitions: repetitions, machine: machine,
                calibration: Calibration(score: calibration.score, cpuScore: calibration.cpu_score),
                metrics: metrics.mapValues { ($0.kind, $0.value) }, outputDigest: output_digest
            )
        }
    }
}
