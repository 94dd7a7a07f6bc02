// The time half of the benchmark gate: each workload of the suite is timed in rounds, each round beside a
// reference loop run just before or after it, and judged by its time in reference loops (the lower quartile
// over the rounds, with a 95 % confidence interval) against Thresholds/time-ratios.json. A workload that fails
// is measured again after a pause, in twice as many rounds, up to --attempts in all, and is a regression only
// if every attempt fails: a busy neighbour comes and goes (CI once saw +17 % to +68 % on three unchanged core
// workloads), a regression stays, and the longer attempts narrow the interval that must clear the tolerance. A machine twice as slow, or
// twice as busy, slows both sides of a round alike, so a ratio recorded on one machine holds on another; the
// counts (mallocs, memory) are judged by package-benchmark against their thresholds (docs/performance.md).
//
//   TimeRatios check  [--rounds N] [--tolerance PERCENT] [--churn-tolerance PERCENT] [--wall-tolerance PERCENT]
//                     [--attempts N] [--pause SECONDS] [--filter TEXT]... [--file PATH]
//   TimeRatios record [--rounds N] [--filter TEXT]... [--file PATH]
//
// SIMHARNESS_INJECT_REGRESSION=time:P adds P % to every measured run (busy work for P % of the run's own CPU
// time, inside the measured interval): the gate's proof that it bites. Exit status: 0 held (or recorded),
// 1 a regression, 2 bad arguments or an unreadable baseline.
import Foundation
import Suite

let usage = "usage: TimeRatios check|record [--rounds N] [--tolerance PERCENT] [--churn-tolerance PERCENT] [--wall-tolerance PERCENT] "
    + "[--attempts N] [--pause SECONDS] [--filter TEXT]... [--file PATH]"

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("time-ratios: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first, mode == "check" || mode == "record" else { fail(usage) }
arguments.removeFirst()
var settings = GateSettings()
while !arguments.isEmpty {
    let option = arguments.removeFirst()
    guard let value = arguments.first else { fail("\(option) needs a value\n\(usage)") }
    arguments.removeFirst()
    switch option {
    case "--rounds":
        guard let rounds = Int(value), (3...1000).contains(rounds) else { fail("--rounds must be 3...1000, not \(value)") }
        settings.rounds = rounds
    case "--tolerance":
        guard let percent = Double(value), percent >= 0 else { fail("--tolerance must be a percentage >= 0, not \(value)") }
        settings.tolerance = percent / 100
    case "--churn-tolerance":
        guard let percent = Double(value), percent >= 0 else { fail("--churn-tolerance must be a percentage >= 0, not \(value)") }
        settings.churnTolerance = percent / 100
    case "--wall-tolerance":
        guard let percent = Double(value), percent >= 0 else { fail("--wall-tolerance must be a percentage >= 0, not \(value)") }
        settings.wallTolerance = percent / 100
    case "--attempts":
        guard let attempts = Int(value), (1...10).contains(attempts) else { fail("--attempts must be 1...10, not \(value)") }
        settings.attempts = attempts
    case "--pause":
        guard let seconds = Int(value), (0...600).contains(seconds) else { fail("--pause must be 0...600 seconds, not \(value)") }
        settings.pause = seconds
    case "--filter": settings.filters.append(value)
    case "--file": settings.file = value
    default: fail("unknown option \(option)\n\(usage)")
    }
}
let injected = InjectedTime.fromEnvironment(ProcessInfo.processInfo.environment)
let workloads = Suite.timed.filter { settings.filters.isEmpty || settings.filters.contains(where: $0.name.contains) }
guard !workloads.isEmpty else { fail("no workload matches \(settings.filters)") }

/// Measures `workloads`, and adds the reference loop's speeds to `speeds`.
@MainActor func measure(
    _ workloads: [(name: String, churning: Bool, run: @Sendable () throws -> UInt64)], rounds: Int, speeds: inout [Double]
) throws -> [String: RatioSummary] {
    var measured: [String: RatioSummary] = [:]
    let stolen = stolenSeconds()
    defer {
        // Time the hypervisor took from the machine: a cause of CPU times that no change of code explains.
        let seconds = stolenSeconds() - stolen
        if seconds > 0 { print(String(format: "the hypervisor took %.2f s of processor time during these rounds (steal)", seconds)) }
    }
    for workload in workloads {
        let rounds = try RoundTimer(rounds: rounds, injected: injected).measure(workload.run)
        measured[workload.name] = RatioSummary(cpu: rounds.map(\.cpuRatio), wall: rounds.map(\.wallRatio))
        speeds += rounds.map(\.referenceSpeed)
    }
    return measured
}

var speeds: [Double] = []
let measured = try measure(workloads, rounds: settings.rounds, speeds: &speeds)
// The machine's speed as the rounds saw it (scripts/perf-gate.sh compares it with and without a busy loop).
print(String(format: "reference speed: %.1f M loops/s (wall-clock median)", Interval(medianOf: speeds).estimate))

if mode == "record" {
    let document = TimeRatioBaseline(rounds: settings.rounds, processor: processorName(), workloads: measured.mapValues(\.recorded))
    do { try document.write(to: settings.file) } catch { fail("cannot write \(settings.file): \(error)") }
    for name in measured.keys.sorted() { print("recorded \(name): \(measured[name]!.line)") }
    exit(0)
}
let baseline: TimeRatioBaseline
do { baseline = try TimeRatioBaseline.read(from: settings.file) } catch { fail("cannot read \(settings.file): \(error)") }
let churning = Set(workloads.filter(\.churning).map(\.name))
@MainActor func verdicts(_ measured: [String: RatioSummary]) -> [TimeVerdict] {
    measured.keys.sorted().map { name in
        TimeVerdict(
            name: name, baseline: baseline.workloads[name], measured: measured[name]!,
            tolerance: churning.contains(name) ? settings.churnTolerance : settings.tolerance, wallTolerance: settings.wallTolerance
        )
    }
}
func percentText(_ fraction: Double) -> String { String(format: "+%.0f %%", fraction * 100) }
print("time ratios (lower quartile of \(settings.rounds) rounds, in reference loops; 95 % interval of the change; tolerance "
    + "\(percentText(settings.tolerance)) on CPU, \(percentText(settings.churnTolerance)) for the worlds, "
    + "\(percentText(settings.wallTolerance)) on the wall time of what waits; recorded on \(baseline.processor))")
var failing = verdicts(measured)
for verdict in failing { print(verdict.line) }
failing = failing.filter(\.regressed)
for attempt in 2...max(2, settings.attempts) where attempt <= settings.attempts && !failing.isEmpty {
    let names = Set(failing.map(\.name))
    // Twice the rounds: a regression near the tolerance (under load, +10 % measured as [+7, +10]) clears it once the
    // interval narrows; an unchanged workload's interval narrows around no change.
    print("attempt \(attempt) of \(settings.attempts), after \(settings.pause) s, \(2 * settings.rounds) rounds: \(names.sorted().joined(separator: ", "))")
    sleep(UInt32(settings.pause))
    var ignored: [Double] = []
    failing = verdicts(try measure(workloads.filter { names.contains($0.name) }, rounds: 2 * settings.rounds, speeds: &ignored))
    for verdict in failing { print(verdict.line) }
    failing = failing.filter(\.regressed)
}
guard failing.isEmpty else {
    fail("\(failing.count) workload(s) slower than their recorded ratio in all \(settings.attempts) attempt(s): "
        + failing.map(\.name).joined(separator: ", "), status: 1)
}
print("time-ratios: held")
