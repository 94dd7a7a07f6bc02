// The workloads of the benchmark suite, defined once: the package-benchmark targets measure them
// (counts against Thresholds/, times for a look), and `TimeRatios` times the same ones against a
// reference loop run beside them (docs/performance.md, "Times: judged within the run").
@_spi(Tooling) import BenchmarkWorkloads
@_spi(Tooling) import ServiceFixtures
import Foundation
@_spi(Tooling) import PaymentSimulation
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import Reports
@_spi(Tooling) import RunResults
@_spi(Tooling) import ServiceSimulation

/// The suite's workloads by name; each is built on first use (a benchmark runs in a process of its own).
package enum Suite {
    /// Events in one iteration of a core-algorithm workload.
    package static let eventsPerIteration = 1_000_000
    /// The regression named by `SIMHARNESS_INJECT_REGRESSION` (`allocation`, `slowdown`, `work:N`, ...).
    package static let regression = InjectedRegression.fromEnvironment(ProcessInfo.processInfo.environment)
    /// Where the gates' tolerance table is: `SIMHARNESS_TOLERANCES` when set, else `Benchmarks/Gate/tolerances.json`.
    package static let tolerancesPath = ProcessInfo.processInfo.environment["SIMHARNESS_TOLERANCES"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appending(path: "Gate/tolerances.json").path
    /// The gates' tolerance table, for the benchmarks: one that cannot be read stops the benchmark with its file,
    /// field and reason.
    package static let tolerances: ToleranceTable = {
        do { return try ToleranceTable.load(tolerancesPath) } catch { fatalError("\(error)") }
    }()

    package static let fasting = FastingWorkload(events: eventsPerIteration, days: 365, seed: 1)
    package static let steps = StepWorkload(events: eventsPerIteration, days: 180, seed: 2)
    package static let payments = PaymentWorkload(events: eventsPerIteration, perUser: 200, seed: 3)
    package static let mealRows = MealRowsWorkload(lines: eventsPerIteration, users: 100_000, seed: 4)

    /// A world of 1,000 payments with every fault on (in memory or over SQLite in a file).
    package static let world = WorldConfiguration(seed: 0x5EED, payments: 1_000, clients: 8, faults: .all)
    /// A world of 500 payments over SQLite on the simulated disk, with its storage faults.
    package static let diskWorld = WorldConfiguration(seed: 0x5EED, payments: 500, clients: 8, faults: .all, store: .disk)

    /// An hour-long paced soak's result as JSON (3,600 one-second intervals, an RSS and CPU sample each).
    package static let soakDocument: Data = try! ResultJSON.encode(soakResult())

    /// The soak's HTML report, read from its JSON (goal, docs/reports.md: < 1 s and < 2 MB).
    package static func renderSoakReport() throws -> Int {
        let html = HTMLReport.render(ReportContext(result: try ResultJSON.decode(soakDocument)))
        precondition(html.utf8.count < 2_000_000, "the report weighs \(html.utf8.count) bytes")
        return html.utf8.count
    }

    /// Ten worlds of the fixture service (100 payments, 8 clients, faults and 2 crashes each; seeds 0-9,
    /// even ones uniform, odd ones PCT). Goal (docs/your-service.md): >= 5,000 worlds a CPU-minute.
    package static func serviceWorlds(count: Int = 10) -> UInt64 {
        let swarm = ServiceSwarm(template: ServiceWorldConfiguration(seed: 0), from: 0, count: count, mixedSchedules: true, tasks: 1)
        return swarm.run { ServiceWorld.run(LedgerService<Correct>.self, $0) }.traceHash
    }

    /// The same worlds with the service's records in SQLite on the simulated disk (goal: >= 1,000 a CPU-minute).
    package static func serviceWorldsOnSQLite(count: Int = 10) -> UInt64 {
        let swarm = ServiceSwarm(template: ServiceWorldConfiguration(seed: 0), from: 0, count: count, mixedSchedules: true, tasks: 1)
        return swarm.run { ServiceWorld.run(LedgerService<CorrectOnSQLite>.self, $0) }.traceHash
    }

    /// Job switches of the seeded executor: 8 tasks that each yield `yields` times (goal: <= 300 ns a switch).
    package static func jobSwitches(yields: Int = 10_000) -> UInt64 {
        let run = try! SeededWorld.run(seed: 7) { _ in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { for _ in 0..<yields { await Task.yield() } } }
            }
        }
        return UInt64(run.steps) ^ run.traceHash
    }

    /// Load mode's driver: the smoke stream (3,000 users × 14 days) from 8 clients through a service that
    /// answers at once (goal: >= 1,000,000 requests a second on 2 cores).
    package static let serviceLoad = ServiceLoadWorkload()

    /// Every timed workload, `Target:Benchmark` as package-benchmark names them, with one iteration's work. The
    /// tolerance table's `churning` list names those whose CPU time the machine's state moves more than the reference
    /// loop's (TimeRatios judges them with a wider tolerance; their malloc counts are the sharp edge).
    package static let timed: [(name: String, run: @Sendable () throws -> UInt64)] = [
        ("CoreAlgorithms:FastingAccumulator", { fasting.run(injecting: regression) }),
        ("CoreAlgorithms:StepAccumulator", { steps.run(injecting: regression) }),
        ("CoreAlgorithms:PaymentProcessor", { payments.run(injecting: regression) }),
        ("CoreAlgorithms:MealRows", { mealRows.run(injecting: regression) }),
        ("SimulatedWorlds:World1000Memory", { UInt64(truncatingIfNeeded: try PaymentWorldSimulator.run(world).hashValue) }),
        ("SimulatedWorlds:World1000SQLite", {
            UInt64(truncatingIfNeeded: try PaymentWorldSimulator.run(world, store: .init(kind: .sqlite)).hashValue)
        }),
        ("SimulatedWorlds:World500Disk", { UInt64(truncatingIfNeeded: try PaymentWorldSimulator.run(diskWorld).hashValue) }),
        ("ReportRendering:SoakReportHTML", { UInt64(try renderSoakReport()) }),
        ("ServiceWorlds:TenWorlds", { serviceWorlds() }),
        ("ServiceWorlds:TenWorldsSQLite", { serviceWorldsOnSQLite() }),
        ("ServiceWorlds:JobSwitches", { jobSwitches() }),
        ("ServiceWorlds:LoadInstantService", { UInt64(serviceLoad.runBlocking()) }),
    ]
}

/// An hour-long soak's result: each interval with 60 batches and a spread of latencies.
func soakResult() -> RunResult {
    var metrics = RunMetrics()
    var series = IntervalSeries(intervalSeconds: 1)
    for second in 0..<3_600 {
        var interval = IntervalFigures(index: second)
        interval.events = [67_000, 315_000, 15_000, 397_000]
        interval.rejected = [140, 630, 40, 810]
        interval.batches = 60
        let spread = UInt64(second % 7)
        interval.serviceLatency = [400, 9_000, 1_500, 11_000].map { base in
            SparseCounts(buckets: (0..<12).map { (base + UInt64($0) * (base / 8) + spread, UInt64(1 + $0 % 5)) })
        }
        interval.responseLatency = SparseCounts(buckets: (0..<12).map { (12_000 + UInt64($0) * 1_500 + spread, UInt64(1 + $0 % 5)) })
        interval.targetEvents = 400_000
        series.intervals.append(interval)
        for _ in 0..<60 { metrics.total.batchLatency.record(11_000 + spread * 100) }
    }
    metrics.total.events = 397_000 * 3_600
    var process = ProcessFigures()
    process.rssSamples = (0..<3_600).map { RSSSample(seconds: Double($0), bytes: 37_000_000 + ($0 % 97) * 4_096, cpuSeconds: Double($0) * 1.2) }
    return RunResult(
        scenario: "soak", seed: 42, users: 3_000, days: 365, load: "arrival_rate 400000/s for 1h", shards: ["0/1"], tasks: 2,
        timing: true, usersPerBatch: 60, durationSeconds: 3_600, metrics: metrics, process: process, series: series
    )
}
