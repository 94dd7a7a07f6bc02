@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios

/// The monitoring task of a run: reports progress, samples resident memory and CPU time, and stops the run
/// when a threshold marked `abort_on_fail` fails on the figures so far.
struct Monitor: Sendable {
    let plan: RunPlan
    let options: RunOptions
    let clock: any HarnessClock
    let control: RunControl
    let start: Duration
    let usersPerPass: Int
    /// The process's CPU seconds when the run started.
    let cpuAtStart: Double
    /// Makes a provisional result from the figures so far and the elapsed seconds.
    let describe: @Sendable (RunMetrics, Double) -> RunResult

    private var abortThresholds: [Threshold] { plan.thresholds.filter(\.abortOnFail) }

    var isNeeded: Bool { options.onProgress != nil || options.rssSampleInterval != nil || !abortThresholds.isEmpty }

    /// Runs until cancelled; returns the memory samples.
    func run() async -> [RSSSample] {
        let abort = abortThresholds
        let ticks = [options.onProgress == nil ? nil : options.progressInterval, options.rssSampleInterval, abort.isEmpty ? nil : .seconds(1)]
        guard let tick = ticks.compactMap({ $0 }).min() else { return [] }
        var samples: [RSSSample] = []
        if options.rssSampleInterval != nil { sample(into: &samples) }
        var nextSample = start + (options.rssSampleInterval ?? .zero)
        var deadline = start
        while true {
            deadline += tick
            do { try await clock.wait(until: deadline) } catch { break }
            let now = clock.now()
            if let interval = options.rssSampleInterval, now >= nextSample {
                sample(into: &samples)
                nextSample += interval
            }
            guard options.onProgress != nil || !abort.isEmpty else { continue }
            let metrics = control.snapshot()
            options.onProgress?(RunProgress(
                elapsed: now - start, events: metrics.events, users: metrics.users, usersPerPass: usersPerPass, timeLimit: plan.load.timeLimit
            ))
            guard !abort.isEmpty else { continue }
            var provisional = describe(metrics, (now - start).seconds)
            provisional.process.peakRSSBytes = ResidentMemory.current()?.peakBytes ?? 0
            provisional.process.rssSlopeMBPerMinute = RSSSample.slopeMBPerMinute(samples)
            for threshold in abort {
                // A metric with no value yet (no payment so far, too few samples) cannot fail yet.
                guard let value = MetricCatalog.value(of: threshold.metric, in: provisional), !threshold.holds(for: value) else { continue }
                control.stop(because: "threshold '\(threshold.text)' failed with \(value.compactText) after \((now - start).shortText)")
            }
        }
        return samples
    }

    private func sample(into samples: inout [RSSSample]) {
        guard let memory = ResidentMemory.current() else { return }
        let usage = ResourceUsage.current()
        samples.append(RSSSample(
            seconds: (clock.now() - start).seconds, bytes: memory.currentBytes,
            cpuSeconds: (usage.userCPU + usage.systemCPU).seconds - cpuAtStart
        ))
    }
}
