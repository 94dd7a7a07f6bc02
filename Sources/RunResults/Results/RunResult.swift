import ProcessMetrics
import Scenarios

/// How a run ended.
public enum RunStatus: String, Sendable, Codable {
    /// The load model ran to its end.
    case completed
    /// A threshold marked `abort_on_fail` failed while the run was going.
    case aborted
    /// The run was cancelled (Ctrl-C); its figures cover what was done.
    case cancelled
}

/// Events per second of each stream, over the run's wall-clock duration. Shards merged from
/// several machines add their rates.
public struct EventRates: Sendable, Equatable {
    /// Meal rows per second.
    public var meals = 0.0
    /// Step samples per second.
    public var steps = 0.0
    /// Payments per second.
    public var payments = 0.0
    /// All three streams per second.
    public var total = 0.0

    /// All rates 0.
    public init() {}

    init(_ metrics: RunMetrics, seconds: Double) {
        let span = max(seconds, 1e-9)
        meals = Double(metrics.meals.events) / span
        steps = Double(metrics.steps.events) / span
        payments = Double(metrics.payments.events) / span
        total = Double(metrics.events) / span
    }

    package mutating func add(_ other: EventRates) {
        meals += other.meals
        steps += other.steps
        payments += other.payments
        total += other.total
    }
}

/// Resident memory, and the CPU time used so far, at one moment of a run.
public struct RSSSample: Sendable, Equatable {
    /// Seconds since the run started.
    public var seconds: Double
    /// Resident bytes then.
    public var bytes: Int
    /// CPU seconds (user and system, all threads) the run had used by then; nil in version 1 results.
    public var cpuSeconds: Double?

    /// A sample of `bytes` resident and `cpuSeconds` used at `seconds`.
    public init(seconds: Double, bytes: Int, cpuSeconds: Double? = nil) {
        self.seconds = seconds
        self.bytes = bytes
        self.cpuSeconds = cpuSeconds
    }

    /// The least-squares slope of `samples` in MB (10⁶ bytes) per minute, ignoring the first
    /// `warmUp` share of the samples; nil with fewer than 3 samples left.
    public static func slopeMBPerMinute(_ samples: [RSSSample], warmUp: Double = 0.2) -> Double? {
        let kept = samples.dropFirst(Int(Double(samples.count) * warmUp))
        guard kept.count >= 3 else { return nil }
        let n = Double(kept.count)
        let meanX = kept.reduce(0) { $0 + $1.seconds } / n
        let meanY = kept.reduce(0) { $0 + Double($1.bytes) } / n
        var covariance = 0.0
        var variance = 0.0
        for sample in kept {
            covariance += (sample.seconds - meanX) * (Double(sample.bytes) - meanY)
            variance += (sample.seconds - meanX) * (sample.seconds - meanX)
        }
        guard variance > 0 else { return nil }
        return covariance / variance * 60 / 1e6
    }
}

/// What the process used during a run.
public struct ProcessFigures: Sendable, Equatable {
    /// CPU time in user mode, all threads.
    public var cpuUserSeconds = 0.0
    /// CPU time in the kernel, all threads.
    public var cpuSystemSeconds = 0.0
    /// The highest resident set size during the run.
    public var peakRSSBytes = 0
    /// Allocation calls during the run, when the allocator backend counts them.
    public var allocations: Int?
    /// Bytes requested from the allocator during the run, when the backend counts them.
    public var allocatedBytes: Int?
    /// The allocation-statistics backend (`AllocationBackend`).
    public var allocator = AllocationBackend.current.rawValue
    /// Resident memory sampled while the run went (empty when not sampled).
    public var rssSamples: [RSSSample] = []
    /// The growth of resident memory over the run, from `rssSamples`.
    public var rssSlopeMBPerMinute: Double?

    /// Figures of a process that did nothing.
    public init() {}
}

/// The outcome of one threshold.
public struct ThresholdOutcome: Sendable, Equatable {
    /// The rule checked.
    public var threshold: Threshold
    /// The metric's value, nil when the run has none (e.g. allocations with the libc backend).
    public var value: Double?
    /// Whether the rule held.
    public var passed: Bool

    /// Checks `threshold` against `value`.
    public init(threshold: Threshold, value: Double?) {
        self.threshold = threshold
        self.value = value
        passed = threshold.holds(for: value)
    }
}

/// Everything a run measured: the document `--json` writes and `merge` combines.
public struct RunResult: Sendable, Equatable {
    /// The scenario's name.
    public var scenario: String
    /// The root seed the run used.
    public var seed: UInt64
    /// Users in the scenario (all shards).
    public var users: Int
    /// Days of simulated data per user.
    public var days: Int
    /// The load model's summary (`LoadModel.summary`).
    public var load: String
    /// The shards this result covers, as `k/n`.
    public var shards: [String]
    /// Partitions of each machine's run.
    public var tasks: Int
    /// Whether batches were timed (latency histograms).
    public var timing: Bool
    /// Consecutive users per batch.
    public var usersPerBatch: Int
    /// How the run ended.
    public var status: RunStatus
    /// Why an aborted run stopped.
    public var stopReason: String?
    /// Wall-clock seconds of the run (the longest shard's, when merged).
    public var durationSeconds: Double
    /// Counts, histograms and the output digest.
    public var metrics: RunMetrics
    /// Events per second of each stream.
    public var eventsPerSecond: EventRates
    /// CPU, memory and allocations of the process (summed over shards).
    public var process: ProcessFigures
    /// The machines the shards ran on.
    public var machines: [MachineDescription]
    /// Each threshold with its value and verdict.
    public var thresholds: [ThresholdOutcome]
    /// The run interval by interval (empty in version 1 results).
    public var series: IntervalSeries
    /// The differential check against the reference, when one ran.
    public var check: CheckReport?
    /// How the batches of a replayed run (`--replay`) were generated before it; nil when the run
    /// generated its batches as it went.
    public var replay: ReplayFigures?

    /// A result of all its parts.
    public init(
        scenario: String, seed: UInt64, users: Int, days: Int, load: String, shards: [String], tasks: Int, timing: Bool,
        usersPerBatch: Int, status: RunStatus = .completed, stopReason: String? = nil, durationSeconds: Double,
        metrics: RunMetrics, process: ProcessFigures = ProcessFigures(), machines: [MachineDescription] = [],
        thresholds: [ThresholdOutcome] = [], series: IntervalSeries = IntervalSeries(intervalSeconds: 1)
    ) {
        self.scenario = scenario
        self.seed = seed
        self.users = users
        self.days = days
        self.load = load
        self.shards = shards
        self.tasks = tasks
        self.timing = timing
        self.usersPerBatch = usersPerBatch
        self.status = status
        self.stopReason = stopReason
        self.durationSeconds = durationSeconds
        self.metrics = metrics
        eventsPerSecond = EventRates(metrics, seconds: durationSeconds)
        self.process = process
        self.machines = machines
        self.thresholds = thresholds
        self.series = series
    }

    /// Whether every threshold held.
    public var passed: Bool { thresholds.allSatisfy(\.passed) }

    /// Evaluates `thresholds` against this result and stores the outcomes.
    public mutating func evaluate(_ thresholds: [Threshold]) {
        self.thresholds = thresholds.map { ThresholdOutcome(threshold: $0, value: MetricCatalog.value(of: $0.metric, in: self)) }
    }

    /// The `output_digest` as 16 hex digits.
    public var digestText: String {
        let hex = String(metrics.digest, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Why results cannot be merged.
public struct MergeError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What does not match, naming the files.
    public var message: String
    /// The message.
    public var description: String { message }
}

extension RunResult {
    /// Combines the results of shards of one scenario run on different machines: counts add,
    /// histograms merge, rates add (the machines ran side by side), the duration is the longest,
    /// peak memory the highest; the thresholds are evaluated again on the sum.
    public static func merged(_ results: [RunResult]) throws(MergeError) -> RunResult {
        guard var merged = results.first else { throw MergeError(message: "nothing to merge") }
        for other in results.dropFirst() {
            guard other.scenario == merged.scenario, other.seed == merged.seed, other.users == merged.users,
                  other.days == merged.days, other.load == merged.load
            else {
                throw MergeError(message: "cannot merge a result of \(other.describedRun) with one of \(merged.describedRun)")
            }
            if let repeated = other.shards.first(where: merged.shards.contains) {
                throw MergeError(message: "shard \(repeated) appears in more than one result")
            }
            guard other.series.intervalSeconds == merged.series.intervalSeconds || other.series.intervals.isEmpty || merged.series.intervals.isEmpty else {
                throw MergeError(message: "cannot merge series of \(other.series.intervalSeconds) s intervals with series of \(merged.series.intervalSeconds) s intervals")
            }
            merged.shards += other.shards
            merged.tasks += other.tasks
            merged.timing = merged.timing && other.timing
            merged.usersPerBatch = max(merged.usersPerBatch, other.usersPerBatch)
            if other.status != .completed, merged.status == .completed {
                merged.status = other.status
                merged.stopReason = other.stopReason
            }
            merged.durationSeconds = max(merged.durationSeconds, other.durationSeconds)
            merged.metrics.merge(other.metrics)
            if merged.series.intervals.isEmpty { merged.series.intervalSeconds = other.series.intervalSeconds }
            merged.series.merge(other.series)
            merged.eventsPerSecond.add(other.eventsPerSecond)
            merged.process.cpuUserSeconds += other.process.cpuUserSeconds
            merged.process.cpuSystemSeconds += other.process.cpuSystemSeconds
            merged.process.peakRSSBytes = max(merged.process.peakRSSBytes, other.process.peakRSSBytes)
            merged.process.allocations = Self.sum(merged.process.allocations, other.process.allocations)
            merged.process.allocatedBytes = Self.sum(merged.process.allocatedBytes, other.process.allocatedBytes)
            if other.process.allocator != merged.process.allocator { merged.process.allocator = "mixed" }
            merged.process.rssSamples = []
            merged.process.rssSlopeMBPerMinute = [merged.process.rssSlopeMBPerMinute, other.process.rssSlopeMBPerMinute]
                .compactMap { $0 }.max()
            merged.machines += other.machines
            if let theirs = other.replay {
                merged.replay = ReplayFigures(events: (merged.replay?.events ?? 0) + theirs.events, seconds: max(merged.replay?.seconds ?? 0, theirs.seconds))
            }
            if var check = merged.check, let theirs = other.check {
                check.merge(theirs)
                merged.check = check
            } else {
                merged.check = merged.check ?? other.check
            }
        }
        merged.evaluate(results.first!.thresholds.map(\.threshold))
        return merged
    }

    private static func sum(_ a: Int?, _ b: Int?) -> Int? {
        guard let a, let b else { return nil }
        return a + b
    }

    private var describedRun: String { "scenario '\(scenario)' (seed \(seed), \(users) users, \(days) days, \(load))" }
}

extension RunResult {
    /// Whether the run used the fixed load model (every user once, as fast as possible): the only
    /// load whose counts and output digest two runs of the same scenario, seed and size share.
    public var ranFixedLoad: Bool { load == LoadModel.fixed.summary }
}
