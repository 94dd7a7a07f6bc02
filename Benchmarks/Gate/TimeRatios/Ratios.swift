import Foundation
@_spi(Tooling) import ProcessMetrics

/// What the command line and the tolerance table (`gates.time-ratios`, `churning`) chose.
struct GateSettings {
    /// Rounds a workload (one reference loop and one run each).
    var rounds = 15
    /// The CPU-time ratio may grow by this fraction before it fails (`cpu`).
    var tolerance: Double
    /// The same for the churning workloads (`cpu.churning`): a gross-regression check.
    var churnTolerance: Double
    /// The wall-time ratio of a workload that waits may grow by this fraction before it fails (`wall`).
    var wallTolerance: Double
    /// The workloads judged with `churnTolerance`.
    var churning: Set<String>
    /// Workloads whose name contains one of these (all when empty).
    var filters: [String] = []
    /// Measurements a failing workload gets before it is called a regression (the first included): a busy
    /// neighbour comes and goes, a regression stays.
    var attempts = 3
    /// Seconds between two attempts.
    var pause = 15
    /// The base commit's build of this tool, which measures each round of a workload beside this build's.
    var against = ""

    /// The settings of `table`, whose churning workloads must all be among `workloads`.
    init(table: ToleranceTable, workloads: [String]) throws(ToleranceTableError) {
        tolerance = try table.required("time-ratios", "cpu").relative
        churnTolerance = try table.required("time-ratios", "cpu.churning").relative
        wallTolerance = try table.required("time-ratios", "wall").relative
        if let unknown = table.churning.first(where: { !workloads.contains($0) }) {
            throw ToleranceTableError(source: table.source, field: "churning", reason: "names '\(unknown)', which is no workload of the suite")
        }
        churning = Set(table.churning)
    }
}

/// A time regression added on purpose: `time:P` in `SIMHARNESS_INJECT_REGRESSION` makes every measured
/// run P % longer, by busy work for P % of the run's own CPU time inside the measured interval.
struct InjectedTime {
    var fraction = 0.0

    static func fromEnvironment(_ environment: [String: String]) -> InjectedTime {
        guard let text = environment["SIMHARNESS_INJECT_REGRESSION"], text.hasPrefix("time:"),
              let percent = Double(text.dropFirst(5)), percent >= 0 else { return InjectedTime() }
        return InjectedTime(fraction: percent / 100)
    }

    /// Spins until the process has used `fraction` × `cpu` more CPU time.
    func apply(after cpu: Double) {
        guard fraction > 0 else { return }
        let until = processCPU() + cpu * fraction
        var x: UInt64 = 1
        while processCPU() < until {
            for _ in 0..<1_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
        }
        blackHole(x)
    }
}

/// One round: a workload's times in reference loops (millions of `Calibration` loop iterations).
struct Round {
    var cpuRatio: Double
    var wallRatio: Double
    /// The reference loop's speed in this round (millions of iterations a second of wall-clock time).
    var referenceSpeed: Double
}

/// Times one workload in rounds, each beside a reference loop run just before or just after it (by the round's
/// parity, so that a drift of the machine's speed within a round favours neither side). A round runs the workload
/// as many times as it takes to last about `roundCPU` (one core-algorithm run lasts 3 ms, a scheduler's time slice:
/// alone, one preemption's cold caches would be a third of it).
struct RoundTimer {
    var run: () throws -> UInt64
    var injected: InjectedTime
    /// The CPU time a round should last at least, in seconds.
    var roundCPU = 0.010
    private var repetitions = 0

    init(injected: InjectedTime, run: @escaping () throws -> UInt64) {
        self.run = run
        self.injected = injected
    }

    /// One round; the first also warms the workload up (builds it, fills caches) and sizes the rounds.
    mutating func round(referenceFirst: Bool) throws -> Round {
        if repetitions == 0 {
            blackHole(try run())
            let warm = processCPU()
            blackHole(try run())
            repetitions = min(1_000, max(1, Int((roundCPU / max(processCPU() - warm, 1e-6)).rounded(.up))))
        }
        let before = referenceFirst ? Calibration.measure(repetitions: 1) : nil
        let clock = ContinuousClock()
        let start = clock.now
        let startCPU = processCPU()
        for _ in 0..<repetitions { blackHole(try run()) }
        injected.apply(after: processCPU() - startCPU)
        let cpu = (processCPU() - startCPU) / Double(repetitions)
        let wall = (clock.now - start).seconds / Double(repetitions)
        let reference = before ?? Calibration.measure(repetitions: 1)
        return Round(cpuRatio: cpu * reference.cpuScore, wallRatio: wall * reference.score, referenceSpeed: reference.score)
    }
}

/// The CPU time the process has used, in seconds (`CLOCK_PROCESS_CPUTIME_ID`: every thread, to the nanosecond).
func processCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// A quantile of samples and a distribution-free 95 % confidence interval for it: the order statistics l
/// and u (one-based) around it with P(l <= B < u) >= 95 % for B ~ Binomial(n, p), as close to the quantile
/// as that allows (the interval is the sample's whole range when n is too small for 95 %).
struct Interval {
    var estimate: Double
    var low: Double
    var high: Double

    init(medianOf samples: [Double]) { self.init(quantile: 0.5, of: samples) }

    init(quantile p: Double, of samples: [Double]) {
        precondition(!samples.isEmpty && (0...1).contains(p), "a quantile of no sample")
        let sorted = samples.sorted()
        let n = sorted.count
        estimate = sorted[min(n - 1, Int((p * Double(n - 1)).rounded()))]
        // P(B = j) for j in 0...n; widen [l, u) one step at a time on the side with the larger mass.
        let mass = (0...n).map { binomial(n, $0) * pow(p, Double($0)) * pow(1 - p, Double(n - $0)) }
        var l = min(n - 1, max(1, Int((p * Double(n)).rounded(.down))))
        var u = l + 1
        var covered = mass[l]
        while covered < 0.95, l > 1 || u < n {
            if u < n, l <= 1 || mass[u] >= mass[l - 1] {
                covered += mass[u]; u += 1
            } else {
                l -= 1; covered += mass[l]
            }
        }
        low = sorted[l - 1]
        high = sorted[u - 1]
    }
}

/// n choose k, as a Double.
func binomial(_ n: Int, _ k: Int) -> Double {
    (0..<k).reduce(1.0) { $0 * Double(n - $1) / Double($1 + 1) }
}

/// A workload's rounds paired with the base build's, each of this build's rounds beside one of the base's, just
/// before or after it: the median of the pairs' ratios (this build's over the base's) and its 95 % interval. The
/// machine's speed comes and goes in phases of seconds (FastingAccumulator measured 2.2 reference loops a run for
/// ten rounds, then 1.35 for the next ten, in one process): the two rounds of a pair share a phase, so their ratio
/// holds where each side alone moves by 60 %, and the median passes over the pairs a change of phase splits.
/// A regression when the whole interval of the CPU change lies above `tolerance`, or, for a workload that waits
/// (I/O: the base's wall ratio at least 1.25 × its CPU ratio), when the whole interval of the wall change lies
/// above `wallTolerance`. A workload that does not wait is not judged by its wall time: there it is its CPU time
/// plus the time other processes held the core, which is noise (a false alarm of +43 % on an unchanged build).
struct TimeVerdict {
    var name: String
    /// This build's CPU ratio over the base's and its interval; nil when the base build has no such workload.
    var cpu: Interval?
    var wall: Interval?
    var waits: Bool
    /// The CPU tolerance of this workload (`GateSettings.tolerance`, or `churnTolerance` for a churning one).
    var tolerance: Double
    var wallTolerance: Double

    init(name: String, rounds: [(own: Round, base: Round)]?, tolerance: Double, wallTolerance: Double) {
        self.name = name
        self.tolerance = tolerance
        self.wallTolerance = wallTolerance
        guard let rounds, !rounds.isEmpty else {
            waits = false
            return
        }
        cpu = Interval(medianOf: rounds.map { $0.own.cpuRatio / $0.base.cpuRatio })
        wall = Interval(medianOf: rounds.map { $0.own.wallRatio / $0.base.wallRatio })
        waits = Interval(medianOf: rounds.map(\.base.wallRatio)).estimate >= 1.25 * Interval(medianOf: rounds.map(\.base.cpuRatio)).estimate
    }

    /// A workload the base build does not have fails too: choose a base that has it.
    var regressed: Bool {
        guard let cpu, let wall else { return true }
        return cpu.low - 1 > tolerance || (waits && wall.low - 1 > wallTolerance)
    }

    var line: String {
        guard let cpu, let wall else { return "  FAIL  \(name): not in the base build (move Benchmarks/Gate/time-base on)" }
        let wallText = percent(wall) + (waits ? "" : " (not judged: it does not wait)")
        return "  \(regressed ? "FAIL" : "pass")  \(name): cpu \(percent(cpu)), wall \(wallText)"
    }
}

/// A ratio of two times and its interval, as a change in percent: `+1.2 % [-0.8, +3.1]`.
func percent(_ ratio: Interval) -> String {
    String(format: "%+.1f %% [%+.1f, %+.1f]", (ratio.estimate - 1) * 100, (ratio.low - 1) * 100, (ratio.high - 1) * 100)
}

/// The time the hypervisor has taken from this machine's processors (`steal` in `/proc/stat`), in seconds;
/// 0 where it is not reported. It counts as this process's CPU time when it interrupts it.
func stolenSeconds() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
          let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return 0 }
    let fields = line.split(separator: " ").dropFirst()
    guard fields.count >= 8, let ticks = Double(fields[fields.startIndex + 7]) else { return 0 }
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
}
