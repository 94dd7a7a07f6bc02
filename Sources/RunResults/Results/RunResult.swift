@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import Scenarios

/// How a run ended.
@_spi(Tooling) public enum RunStatus: String, Sendable, Codable {
    /// The load model ran to its end.
    case completed
    /// A threshold marked `abort_on_fail` failed while the run was going.
    case aborted
    /// The run was cancelled (Ctrl-C); its figures cover what was done.
    case cancelled
}

/// Events per second of each stream, over the run's wall-clock duration. Shards merged from
/// several machines add their rates.
@_spi(Tooling) public struct EventRates: Sendable, Equatable {
    /// Meal rows per second.
    @_spi(Tooling) public var meals = 0.0
    /// Step samples per second.
    @_spi(Tooling) public var steps = 0.0
    /// Payments per second.
    @_spi(Tooling) public var payments = 0.0
    /// All three streams per second.
    @_spi(Tooling) public var total = 0.0

    /// All rates 0.
    @_spi(Tooling) public init() {}

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
@_spi(Tooling) public struct RSSSample: Sendable, Equatable {
    /// Seconds since the run started.
    @_spi(Tooling) public var seconds: Double
    /// Resident bytes then.
    @_spi(Tooling) public var bytes: Int
    /// CPU seconds (user and system, all threads) the run had used by then; nil in version 1 results.
    @_spi(Tooling) public var cpuSeconds: Double?

    /// A sample of `bytes` resident and `cpuSeconds` used at `seconds`.
    @_spi(Tooling) public init(seconds: Double, bytes: Int, cpuSeconds: Double? = nil) {
        self.seconds = seconds
        self.bytes = bytes
        self.cpuSeconds = cpuSeconds
    }

    /// The least-squares slope of `samples` in MB (10⁶ bytes) per minute, ignoring the first
    /// `warmUp` share of the samples; nil with fewer than 3 samples left.
    @_spi(Tooling) public static func slopeMBPerMinute(_ samples: [RSSSample], warmUp: Double = 0.2) -> Double? {
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
@_spi(Tooling) public struct ProcessFigures: Sendable, Equatable {
    /// CPU time in user mode, all threads.
    @_spi(Tooling) public var cpuUserSeconds = 0.0
    /// CPU time in the kernel, all threads.
    @_spi(Tooling) public var cpuSystemSeconds = 0.0
    /// The highest resident set size during the run.
    @_spi(Tooling) public var peakRSSBytes = 0
    /// Allocation calls during the run, when the allocator backend counts them.
    @_spi(Tooling) public var allocations: Int?
    /// Bytes requested from the allocator during the run, when the backend counts them.
    @_spi(Tooling) public var allocatedBytes: Int?
    /// The allocation-statistics backend (`AllocationBackend`).
    @_spi(Tooling) public var allocator = AllocationBackend.current.rawValue
    /// Resident memory sampled while the run went (empty when not sampled).
    @_spi(Tooling) public var rssSamples: [RSSSample] = []
    /// The growth of resident memory over the run, from `rssSamples`.
    @_spi(Tooling) public var rssSlopeMBPerMinute: Double?

    /// Figures of a process that did nothing.
    @_spi(Tooling) public init() {}
}

/// The outcome of one threshold.
@_spi(Tooling) public struct ThresholdOutcome: Sendable, Equatable {
    /// The rule checked.
    @_spi(Tooling) public var threshold: Threshold
    /// The metric's value, nil when the run has none (e.g. allocations with the libc backend).
    @_spi(Tooling) public var value: Double?
    /// Whether the rule held.
    @_spi(Tooling) public var passed: Bool

    /// Checks `threshold` against `value`.
    @_spi(Tooling) public init(threshold: Threshold, value: Double?) {
        self.threshold = threshold
        self.value = value
        passed = threshold.holds(for: value)
    }
}

/// Everything a run measured: the document `--json` writes and `merge` combines.
@_spi(Tooling) public struct RunResult: Sendable, Equatable {
    /// The scenario's name.
    @_spi(Tooling) public var scenario: String
    /// The root seed the run used.
    @_spi(Tooling) public var seed: UInt64
    /// Users in the scenario (all shards).
    @_spi(Tooling) public var users: Int
    /// Days of simulated data per user.
    @_spi(Tooling) public var days: Int
    /// The load model's summary (`LoadModel.summary`).
    @_spi(Tooling) public var load: String
    /// The shards this result covers, as `k/n`.
    @_spi(Tooling) public var shards: [String]
    /// Partitions of each machine's run.
    @_spi(Tooling) public var tasks: Int
    /// Whether batches were timed (latency histograms).
    @_spi(Tooling) public var timing: Bool
    /// Consecutive users per batch.
    @_spi(Tooling) public var usersPerBatch: Int
    /// How the run ended.
    @_spi(Tooling) public var status: RunStatus
    /// Why an aborted run stopped.
    @_spi(Tooling) public var stopReason: String?
    /// Wall-clock seconds of the run (the longest shard's, when merged).
    @_spi(Tooling) public var durationSeconds: Double
    /// Counts, histograms and the output digest.
    @_spi(Tooling) public var metrics: RunMetrics
    /// Events per second of each stream.
    @_spi(Tooling) public var eventsPerSecond: EventRates
    /// CPU, memory and allocations of the process (summed over shards).
    @_spi(Tooling) public var process: ProcessFigures
    /// The machines the shards ran on.
    @_spi(Tooling) public var machines: [MachineDescription]
    /// Each threshold with its value and verdict.
    @_spi(Tooling) public var thresholds: [ThresholdOutcome]
    /// The run interval by interval (empty in version 1 results).
    @_spi(Tooling) public var series: IntervalSeries
    /// The differential check against the reference, when one ran.
    @_spi(Tooling) public var check: CheckReport?
    /// How the batches of a replayed run (`--replay`) were generated before it; nil when the run
    /// generated its batches as it went.
    @_spi(Tooling) public var replay: ReplayFigures?

    /// A result of all its parts.
    @_spi(Tooling) public init(
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
    @_spi(Tooling) public var passed: Bool { thresholds.allSatisfy(\.passed) }

    /// Evaluates `thresholds` against this result and stores the outcomes.
    @_spi(Tooling) public mutating func evaluate(_ thresholds: [Threshold]) {
        self.thresholds = thresholds.map { ThresholdOutcome(threshold: $0, value: MetricCatalog.value(of: $0.metric, in: self)) }
    }

    /// The `output_digest` as 16 hex digits.
    @_spi(Tooling) public var digestText: String {
        let hex = String(metrics.digest, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Why results cannot be merged.
@_spi(Tooling) public struct MergeError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What does not match, naming the files.
    @_spi(Tooling) public var message: String
    /// The message.
    @_spi(Tooling) public var description: String { message }
}

extension RunResult {
    /// Combines the results of shards of one scenario run on different machines: counts add,
    /// histograms merge, rates add (the machines ran side by side), the duration is the longest,
    /// peak memory the highest; the thresholds are evaluated again on the sum.
    @_spi(Tooling) public static func merged(_ results: [RunResult]) throws(MergeError) -> RunResult {
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
    @_spi(Tooling) public var ranFixedLoad: Bool { load == LoadModel.fixed.summary }
}
