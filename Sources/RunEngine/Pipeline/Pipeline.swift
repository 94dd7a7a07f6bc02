@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

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
