import HealthCore
import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Simulation
import Synchronization
import UserAlgorithms

/// `simharness run`: streams a scenario's batches from the simulator through the analyzers, in
/// memory, on a task group. Partition `p` of `tasks` owns the batches `b` with `b % tasks == p`
/// (runs of `usersPerBatch` consecutive users) and their analyzer state; its child task generates
/// each batch and analyzes it at once, where it was just written. Cancelling the calling task, or
/// an `abort_on_fail` threshold, stops every task within a batch; the result then covers what was done.
package enum ScenarioRunner {
    /// Runs `plan` as `options` say, paced by `clock`; the result covers what was done, also when cancelled.
    package static func run(_ plan: RunPlan, options: RunOptions, clock: some HarnessClock = SystemClock()) async throws -> RunResult {
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
            algorithm: AlgorithmSettings(
                minimumFastSeconds: options.minimumFastSeconds, policy: RetryPolicy(maxAttempts: options.maxAttempts), jitterSeed: seed
            ),
            implementations: options.implementations, timing: options.timing, writesOutput: sink != nil
        )
        let control = RunControl(partitions: options.tasks)
        let replayStarted = clock.now()
        let replay = options.replay ? try await ReplayBatches.generate(scenario: scenario, seed: seed, parts: parts, tasks: options.tasks) : nil
        let replayFigures = replay.map { ReplayFigures(events: $0.events, seconds: (clock.now() - replayStarted).seconds) }
        // With --shard, each shard makes its share of the load's rate: together they make all of it.
        let schedule = plan.load.schedule.map { $0.scaled(by: 1 / Double(options.shardCount)) }
        let pipeline = Pipeline(
            scenario: scenario, seed: seed, load: plan.load, schedule: schedule, parts: parts, settings: settings, tasks: options.tasks,
            clock: clock, control: control, sink: sink, onBatch: options.onBatch,
            intervalSeconds: options.interval.seconds, replay: replay
        )

        let usageBefore = ResourceUsage.current()
        let allocationsBefore = AllocationStatistics.current()
        ResidentMemory.resetPeak()
        let started = clock.now()
        let monitor = Monitor(
            plan: plan, options: options, clock: clock, control: control, start: started,
            usersPerPass: selection.count, cpuAtStart: (usageBefore.userCPU + usageBefore.systemCPU).seconds, describe: { metrics, seconds in
                RunResult(
                    scenario: scenario.name, seed: seed, users: scenario.users, days: scenario.days, load: plan.load.summary,
                    shards: ["\(options.shard)/\(options.shardCount)"], tasks: options.tasks, timing: options.timing,
                    usersPerBatch: usersPerBatch, durationSeconds: seconds, metrics: metrics
                )
            }
        )
        var (metrics, series, samples, unsentTail) = await pipeline.run(start: started, monitor: monitor)
        let ended = clock.now()
        if let schedule {
            // A run that went to its end owes the whole schedule; a stopped one what was due by then.
            let stopped = Task.isCancelled || control.stopReason != nil
            let end = stopped ? min((ended - started).seconds, schedule.totalSeconds) : schedule.totalSeconds
            Self.countDropped(
                schedule: schedule, endSeconds: end, unsentTail: stopped ? 0 : unsentTail, metrics: &metrics, series: &series
            )
        }
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
            machines: [MachineDescription.current()], series: series
        )
        if let sample = options.checkSample, !cancelled, stopReason == nil {
            let checkStarted = clock.now()
            let check = DifferentialCheck(simulator: Simulator(scenario: scenario, seed: seed), settings: settings, sample: sample, listed: options.checkListed)
            result.check = try await check.run(selection, usersPerBatch: usersPerBatch, tasks: options.tasks)
            result.check?.seconds = (clock.now() - checkStarted).seconds
        }
        result.replay = replayFigures
        result.evaluate(plan.thresholds + Self.checkThreshold(plan, options))
        if let sink {
            if result.status == .completed {
                try sink.finish(totals: metrics.analysisTotals)
            } else {
                sink.discard()
            }
        }
        return result
    }

    /// `mismatches == 0` when the run checks against the reference and the plan sets no rule of its own.
    static func checkThreshold(_ plan: RunPlan, _ options: RunOptions) -> [Threshold] {
        guard options.checkSample != nil, !plan.thresholds.contains(where: { $0.metric == "mismatches" }) else { return [] }
        return [Threshold(metric: "mismatches", comparison: .equal, value: 0)]
    }

    /// Counts the events `schedule` made due before `endSeconds` that were never analyzed, interval
    /// by interval (by when they were due) and per stream (split by the run's mix of streams), and
    /// sets each interval's target. `unsentTail`, the schedule's last events that no batch could
    /// carry before its end (`Pacer.unsentTail`), is not owed.
    static func countDropped(
        schedule: ArrivalSchedule, endSeconds: Double, unsentTail: Double = 0, metrics: inout RunMetrics, series: inout IntervalSeries
    ) {
        let due = schedule.events(bySeconds: endSeconds) - unsentTail
        let analyzed = Double(metrics.total.events)
        let dropped = max(0, Int((due - analyzed).rounded(.down)))
        let shares = [metrics.meals.events, metrics.steps.events].map { Double($0) / max(1, analyzed) }
        func split(_ count: Int) -> [Int] {
            let meals = Int((Double(count) * shares[0]).rounded()), steps = Int((Double(count) * shares[1]).rounded())
            return [meals, steps, max(0, count - meals - steps), count]
        }
        let total = split(dropped)
        metrics.meals.dropped = total[0]
        metrics.steps.dropped = total[1]
        metrics.payments.dropped = total[2]
        metrics.total.dropped = total[3]
        let width = series.intervalSeconds
        guard endSeconds > 0 else { return }
        for index in 0...Int((endSeconds / width).rounded(.up)) - 1 {
            let from = Double(index) * width, to = min(endSeconds, Double(index + 1) * width)
            var interval = series[index]
            interval.targetEvents = schedule.events(bySeconds: to) - schedule.events(bySeconds: from)
            // The unanalyzed events are the last ones due: those between `analyzed` and `due`.
            let missed = min(schedule.events(bySeconds: to), due) - max(schedule.events(bySeconds: from), analyzed)
            interval.dropped = split(max(0, Int(missed.rounded(.down))))
            series[index] = interval
        }
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
    /// Events between two yields of a partition's task (a few milliseconds of work): often enough for
    /// the monitor, the sink and a canceller to get a thread, not so often that a spare core is woken
    /// after every batch (a futex wake each: 4-8 % of a one-task run's CPU).
    static let yieldEvery = 50_000

    let scenario: Scenario
    let seed: UInt64
    let load: LoadModel
    /// The pace of a paced load (this shard's share of it).
    let schedule: ArrivalSchedule?
    let parts: [UserSelection]
    let settings: WorkerSettings
    let tasks: Int
    let clock: any HarnessClock
    let control: RunControl
    let sink: SpecOutputSink?
    let onBatch: (@Sendable (Int) -> Void)?
    let intervalSeconds: Double
    /// The batches to replay instead of generating them (`--replay`).
    let replay: ReplayBatches?

    private enum Finished: Sendable {
        case partition(Int, RunMetrics, IntervalSeries)
        case monitor([RSSSample])
    }

    /// Runs every task to its end; returns the merged figures, the series, the memory samples and the
    /// paced schedule's unsent tail (`Pacer.unsentTail`, 0 without a schedule).
    func run(start: Duration, monitor: Monitor) async -> (RunMetrics, IntervalSeries, [RSSSample], Double) {
        let pacer = schedule.map { Pacer(schedule: $0, clock: clock, start: start) }
        let monitored = monitor.isNeeded
        return await withTaskGroup(of: Finished.self) { group in
            for partition in 0..<tasks {
                group.addTask { await run(partition: partition, start: start, pacer: pacer, publishing: monitored) }
            }
            if monitored { group.addTask { .monitor(await monitor.run()) } }
            var workers = tasks
            var parts = [RunMetrics?](repeating: nil, count: tasks)
            var series = IntervalSeries(intervalSeconds: intervalSeconds)
            var samples: [RSSSample] = []
            for await finished in group {
                switch finished {
                case .partition(let partition, let metrics, let partSeries):
                    parts[partition] = metrics
                    series.merge(partSeries)
                    workers -= 1
                case .monitor(let taken): samples = taken
                }
                if workers == 0 { group.cancelAll() }
            }
            var merged = RunMetrics()
            for part in parts.compactMap({ $0 }) { merged.merge(part) }
            return (merged, series, samples, pacer?.unsentTail ?? 0)
        }
    }

    /// Runs partition `partition`: makes each of its batches (generated, or a stored one with
    /// `--replay`), waits until a paced batch is due, and analyzes it, one batch after another on
    /// this task, so that the analysis reads rows still in this core's cache (and a busy core slows
    /// one partition, not a hand-over between two tasks).
    private func run(partition: Int, start: Duration, pacer: Pacer?, publishing: Bool) async -> Finished {
        var worker = PartitionWorker(settings: settings)
        var recorder = IntervalRecorder(intervalSeconds: intervalSeconds)
        var sinceLastPublish = 0
        var sinceLastYield = 0
        var batch = SimulationBatch()
        var simulator: (pass: Int, value: Simulator)?
        var sequence = partition
        while !parts.isEmpty, !Task.isCancelled, !control.isStopped {
            let pass = sequence / parts.count
            if pass > 0, !load.repeats { break }
            if let limit = load.timeLimit, clock.now() - start >= limit { break }
            if let replay {
                batch = replay.batches[sequence % parts.count]
            } else {
                if simulator?.pass != pass { simulator = (pass, Simulator(scenario: scenario, seed: seed &+ UInt64(pass))) }
                let began = settings.timing ? Stopwatch.now() : 0
                simulator!.value.fill(&batch, with: parts[sequence % parts.count])
                worker.recordGeneration(of: batch, nanos: settings.timing ? Stopwatch.now() &- began : nil)
            }
            var due: Double?
            if let pacer {
                guard let admitted = (try? await pacer.admit(events: batch.eventCount)) ?? nil else { break }
                due = admitted
            }
            let began = due == nil ? 0 : (clock.now() - start).seconds
            let rejectedBefore = worker.rejectedSoFar
            var output: BatchOutput? = sink == nil ? nil : BatchOutput()
            let nanos = worker.run(batch, output: &output)
            let ended = (clock.now() - start).seconds
            var figures = BatchFigures(
                endSeconds: ended, events: SIMD4(batch.meals.count, batch.steps.count, batch.payments.count, batch.eventCount),
                rejected: worker.rejectedSoFar &- rejectedBefore, serviceNanos: nanos
            )
            if let due {
                figures.responseNanos = UInt64(max(0, ended - due) * 1e9)
                figures.behindSeconds = max(0, began - due)
                worker.recordSchedule(responseNanos: figures.responseNanos!, behindSeconds: figures.behindSeconds!)
            }
            recorder.record(figures)
            if let output, let sink {
                do { try await sink.submit(sequence, output) } catch is CancellationError {
                    break
                } catch {
                    control.fail("cannot write the output files: \(error)")
                    break
                }
            }
            onBatch?(batch.eventCount)
            sinceLastPublish += 1
            if publishing, sinceLastPublish == Self.publishEvery {
                control.publish(worker.metrics, partition: partition)
                sinceLastPublish = 0
            }
            sequence += tasks
            sinceLastYield += batch.eventCount
            if sinceLastYield >= Self.yieldEvery {
                // Lets the monitor, the sink and a canceller run: as many tasks as cores analyze.
                await Task.yield()
                sinceLastYield = 0
            }
        }
        if publishing { control.publish(worker.metrics, partition: partition) }
        return .partition(partition, worker.metrics, recorder.finish())
    }
}
