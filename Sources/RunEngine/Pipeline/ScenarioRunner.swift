@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
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
        // The run's result from its figures so far: the monitor's provisional one, and the final one.
        let describe: @Sendable (RunMetrics, Double) -> RunResult = { metrics, seconds in
            RunResult(
                scenario: scenario.name, seed: seed, users: scenario.users, days: scenario.days, load: plan.load.summary,
                shards: ["\(options.shard)/\(options.shardCount)"], tasks: options.tasks, timing: options.timing,
                usersPerBatch: usersPerBatch, durationSeconds: seconds, metrics: metrics
            )
        }
        let monitor = Monitor(
            plan: plan, options: options, clock: clock, control: control, start: started,
            usersPerPass: selection.count, cpuAtStart: (usageBefore.userCPU + usageBefore.systemCPU).seconds, describe: describe
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
        var result = describe(metrics, (ended - started).seconds)
        result.status = cancelled ? .cancelled : stopReason == nil ? .completed : .aborted
        result.stopReason = stopReason
        result.process = process
        result.machines = [MachineDescription.current()]
        result.series = series
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
