import HealthCore
import PaymentsCore
import ProcessMetrics
import Simulation
import Synchronization

/// `simharness run`: streams a scenario's batches from the simulator through the analyzers, in
/// memory, on a task group. Partition `p` of `tasks` owns the batches `b` with `b % tasks == p`
/// (runs of `usersPerBatch` consecutive users) and their analyzer state; a child task generates
/// them and another analyzes them, joined by a bounded channel (backpressure). Cancelling the
/// calling task, or an `abort_on_fail` threshold, stops every task within a batch; the result
/// then covers what was done.
public enum ScenarioRunner {
    /// Runs `plan` as `options` say, paced by `clock`; the result covers what was done, also when cancelled.
    public static func run(_ plan: RunPlan, options: RunOptions, clock: some HarnessClock = SystemClock()) async throws -> RunResult {
        guard options.tasks >= 1 else { throw RunConfigurationError(message: "tasks must be at least 1") }
        guard options.shardCount >= 1, (0..<options.shardCount).contains(options.shard) else {
            throw RunConfigurationError(message: "shard must be k/n with 0 <= k < n")
        }
        if options.outputDirectory != nil, plan.load != .fixed {
            throw RunConfigurationError(message: "output files need the fixed load model (this scenario's is \(plan.load.name))")
        }
        let scenario = plan.scenario
        let seed = options.seed ?? scenario.seed
        let selection = UserSelection(users: 0..<scenario.users, shard: options.shard, shardCount: options.shardCount)
        let usersPerBatch = plan.batchUsers ?? estimateUsersPerBatch(Simulator(scenario: scenario, seed: seed), selection)
        let parts = selection.ranges(size: usersPerBatch * options.shardCount)
        let sink = try options.outputDirectory.map { try SpecOutputSink(directory: $0, window: 4 * options.tasks) }
        let settings = WorkerSettings(
            minimumFastSeconds: options.minimumFastSeconds, policy: RetryPolicy(maxAttempts: options.maxAttempts),
            timing: options.timing, writesOutput: sink != nil, jitterSeed: seed
        )
        let control = RunControl(partitions: options.tasks)
        let pipeline = Pipeline(
            scenario: scenario, seed: seed, load: plan.load, parts: parts, settings: settings, tasks: options.tasks,
            capacity: plan.channelCapacity, clock: clock, control: control, sink: sink, onBatch: options.onBatch
        )

        let usageBefore = ResourceUsage.current()
        let allocationsBefore = AllocationStatistics.current()
        ResidentMemory.resetPeak()
        let started = clock.now()
        let monitor = Monitor(
            plan: plan, options: options, clock: clock, control: control, start: started,
            usersPerPass: selection.count, describe: { metrics, seconds in
                RunResult(
                    scenario: scenario.name, seed: seed, users: scenario.users, days: scenario.days, load: plan.load.summary,
                    shards: ["\(options.shard)/\(options.shardCount)"], tasks: options.tasks, timing: options.timing,
                    usersPerBatch: usersPerBatch, durationSeconds: seconds, metrics: metrics
                )
            }
        )
        let (metrics, samples) = await pipeline.run(start: started, monitor: monitor)
        let ended = clock.now()
        if let failure = control.failure {
            sink?.discard()
            throw RunFailure(message: failure)
        }
        let usageAfter = ResourceUsage.current()
        let allocations = AllocationStatistics.current().delta(since: allocationsBefore)

        var process = ProcessFigures()
        process.cpuUserSeconds = (usageAfter.userCPU - usageBefore.userCPU).seconds
        process.cpuSystemSeconds = (usageAfter.systemCPU - usageBefore.systemCPU).seconds
        process.peakRSSBytes = ResidentMemory.current()?.peakBytes ?? usageAfter.maxResidentBytes
        process.allocations = allocations.allocations
        process.allocatedBytes = allocations.allocatedBytes
        process.rssSamples = samples
        process.rssSlopeMBPerMinute = RSSSample.slopeMBPerMinute(samples)

        let cancelled = Task.isCancelled
        let stopReason = control.stopReason
        var result = RunResult(
            scenario: scenario.name, seed: seed, users: scenario.users, days: scenario.days, load: plan.load.summary,
            shards: ["\(options.shard)/\(options.shardCount)"], tasks: options.tasks, timing: options.timing,
            usersPerBatch: usersPerBatch, status: cancelled ? .cancelled : stopReason == nil ? .completed : .aborted,
            stopReason: stopReason, durationSeconds: (ended - started).seconds, metrics: metrics, process: process,
            machines: [MachineDescription.current()]
        )
        result.evaluate(plan.thresholds)
        if let sink {
            if result.status == .completed {
                try sink.finish(totals: metrics.analysisTotals)
            } else {
                sink.discard()
            }
        }
        return result
    }

    /// Users per batch for about `RunPlan.eventsPerBatch` events, from the first users' rows
    /// (deterministic: it depends on the scenario and seed only).
    static func estimateUsersPerBatch(_ simulator: Simulator, _ selection: UserSelection) -> Int {
        var probe = SimulationBatch()
        var sampled = 0
        for index in selection.indices.prefix(8) {
            simulator.generate(user: index, into: &probe)
            sampled += 1
        }
        guard sampled > 0 else { return 1 }
        let perUser = max(1, probe.eventCount / sampled)
        return min(4096, max(1, RunPlan.eventsPerBatch / perUser))
    }
}

/// A batch on its way from a generating task to an analyzing task and back; one task holds it
/// at a time (the channels hand it over), so it is reused without copying its arrays. Each
/// partition has a fixed pool of them, so allocations do not depend on timing.
final class WorkItem: @unchecked Sendable {
    var batch = SimulationBatch()
    /// The batch's place in the whole run: pass × batches per pass + batch index.
    var sequence = 0
    var generationNanos: UInt64?
}

/// What the tasks of a run share: the stop request and the partitions' latest figures.
final class RunControl: Sendable {
    private let stopped = Atomic(false)
    private let state: Mutex<(reason: String?, failure: String?, snapshots: [RunMetrics?])>

    init(partitions: Int) {
        state = Mutex((nil, nil, [RunMetrics?](repeating: nil, count: partitions)))
    }

    /// Why the run could not go on (an internal error), if it could not.
    var failure: String? { state.withLock { $0.failure } }

    /// Stops the run because of an error.
    func fail(_ message: String) {
        state.withLock { s in
            if s.failure == nil { s.failure = message }
        }
        stopped.store(true, ordering: .relaxed)
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    var stopReason: String? { state.withLock { $0.reason } }

    /// Asks every task to stop after its current batch.
    func stop(because reason: String) {
        state.withLock { s in
            if s.reason == nil { s.reason = reason }
        }
        stopped.store(true, ordering: .relaxed)
    }

    func publish(_ metrics: RunMetrics, partition: Int) {
        state.withLock { $0.snapshots[partition] = metrics }
    }

    /// The partitions' latest figures, merged.
    func snapshot() -> RunMetrics {
        let parts = state.withLock { $0.snapshots }
        var merged = RunMetrics()
        for part in parts.compactMap({ $0 }) { merged.merge(part) }
        return merged
    }
}

/// The child tasks of one run.
struct Pipeline: Sendable {
    /// Batches between two publications of a partition's figures to the monitor.
    static let publishEvery = 16

    let scenario: Scenario
    let seed: UInt64
    let load: LoadModel
    let parts: [UserSelection]
    let settings: WorkerSettings
    let tasks: Int
    let capacity: Int
    let clock: any HarnessClock
    let control: RunControl
    let sink: SpecOutputSink?
    let onBatch: (@Sendable (Int) -> Void)?

    private enum Finished: Sendable {
        case producer
        case consumer(partition: Int, RunMetrics)
        case monitor([RSSSample])
    }

    /// Runs every task to its end; returns the merged figures and the memory samples.
    func run(start: Duration, monitor: Monitor) async -> (RunMetrics, [RSSSample]) {
        let pacer = load.schedule.map { Pacer(schedule: $0, clock: clock, start: start) }
        let monitored = monitor.isNeeded
        return await withTaskGroup(of: Finished.self) { group in
            for partition in 0..<tasks {
                // Generated batches go one way, emptied ones come back: one being generated, one
                // being analyzed, and `capacity` waiting in between.
                let pool = capacity + 2
                let full = BatchChannel<WorkItem>(capacity: capacity)
                let empty = BatchChannel<WorkItem>(capacity: pool, holding: (0..<pool).map { _ in WorkItem() })
                group.addTask { await produce(partition: partition, from: empty, into: full, start: start, pacer: pacer) }
                group.addTask { await consume(partition: partition, from: full, returningTo: empty, publishing: monitored) }
            }
            if monitored { group.addTask { .monitor(await monitor.run()) } }
            var workers = 2 * tasks
            var parts = [RunMetrics?](repeating: nil, count: tasks)
            var samples: [RSSSample] = []
            for await finished in group {
                switch finished {
                case .producer: workers -= 1
                case .consumer(let partition, let metrics):
                    parts[partition] = metrics
                    workers -= 1
                case .monitor(let taken): samples = taken
                }
                if workers == 0 { group.cancelAll() }
            }
            var merged = RunMetrics()
            for part in parts.compactMap({ $0 }) { merged.merge(part) }
            return (merged, samples)
        }
    }

    private func produce(
        partition: Int, from empty: BatchChannel<WorkItem>, into full: BatchChannel<WorkItem>, start: Duration, pacer: Pacer?
    ) async -> Finished {
        defer { full.close() }
        guard !parts.isEmpty else { return .producer }
        var simulator: (pass: Int, value: Simulator)?
        var sequence = partition
        while !Task.isCancelled, !control.isStopped {
            let pass = sequence / parts.count
            if pass > 0, !load.repeats { break }
            if let limit = load.timeLimit, clock.now() - start >= limit { break }
            if simulator?.pass != pass { simulator = (pass, Simulator(scenario: scenario, seed: seed &+ UInt64(pass))) }
            guard let item = await empty.receive() else { break }
            let began = settings.timing ? Stopwatch.now() : 0
            simulator!.value.fill(&item.batch, with: parts[sequence % parts.count])
            item.generationNanos = settings.timing ? Stopwatch.now() &- began : nil
            item.sequence = sequence
            if let pacer {
                guard (try? await pacer.admit(events: item.batch.eventCount)) == true else { break }
            }
            guard await full.send(item) else { break }
            sequence += tasks
        }
        return .producer
    }

    private func consume(
        partition: Int, from full: BatchChannel<WorkItem>, returningTo empty: BatchChannel<WorkItem>, publishing: Bool
    ) async -> Finished {
        var worker = PartitionWorker(settings: settings)
        var sinceLastPublish = 0
        while let item = await full.receive() {
            worker.recordGeneration(of: item.batch, nanos: item.generationNanos)
            var output: BatchOutput? = sink == nil ? nil : BatchOutput()
            worker.run(item.batch, output: &output)
            let events = item.batch.eventCount
            let sequence = item.sequence
            _ = await empty.send(item)
            if let output, let sink {
                do { try await sink.submit(sequence, output) } catch is CancellationError {
                    break
                } catch {
                    control.fail("cannot write the output files: \(error)")
                    break
                }
            }
            onBatch?(events)
            sinceLastPublish += 1
            if publishing, sinceLastPublish == Self.publishEvery {
                control.publish(worker.metrics, partition: partition)
                sinceLastPublish = 0
            }
        }
        if publishing { control.publish(worker.metrics, partition: partition) }
        return .consumer(partition: partition, worker.metrics)
    }
}
