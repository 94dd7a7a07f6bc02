// The time half of the benchmark gate: each workload of the suite is timed in rounds, each round beside a
// reference loop run just before or after it, and expressed in reference loops. Each round is paired with a round
// of the same workload in a base build (`--against`: the base commit's build of this tool, serving rounds with
// `serve`), run just before or after it, so that the machine of the moment weighs on both. The median of the
// pairs' ratios, with a 95 % confidence interval, is the change. A workload that fails is measured again after a
// pause, in twice as many rounds, up to --attempts in all, and is a regression only if every attempt fails: a busy
// neighbour comes and goes (CI once saw +17 % to +68 % on three unchanged core workloads), a regression stays, and
// the longer attempts narrow the interval that must clear the tolerance. The counts (mallocs, memory) are judged by
// package-benchmark against their thresholds (docs/performance.md).
//
//   TimeRatios check --against BASE_TIMERATIOS [--rounds N] [--attempts N] [--pause SECONDS] [--filter TEXT]...
//   TimeRatios serve  (what `--against` runs: one round per request on standard input)
//
// The tolerances are the table's (Benchmarks/Gate/tolerances.json, or SIMHARNESS_TOLERANCES): `gates.time-ratios`'s
// `cpu`, `cpu.churning` and `wall`, and the `churning` workloads.
// SIMHARNESS_INJECT_REGRESSION=time:P adds P % to every measured run of this build (busy work for P % of the run's
// own CPU time, inside the measured interval; the base build runs without it): the gate's proof that it bites.
// Exit status: 0 held, 1 a regression, 2 bad arguments or a base build that does not serve.
import Foundation
@_spi(Tooling) import ProcessMetrics
import Suite

let usage = "usage: TimeRatios check --against BASE_TIMERATIOS [--rounds N] [--attempts N] [--pause SECONDS] [--filter TEXT]... "
    + "| TimeRatios serve"

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("time-ratios: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first, mode == "check" || mode == "serve" else { fail(usage) }
arguments.removeFirst()
if mode == "serve" {
    guard arguments.isEmpty else { fail(usage) }
    try serve(Suite.timed)
    exit(0)
}
var settings: GateSettings
do { settings = try GateSettings(table: ToleranceTable.load(Suite.tolerancesPath), workloads: Suite.timed.map(\.name)) } catch { fail("\(error)") }
while !arguments.isEmpty {
    let option = arguments.removeFirst()
    guard let value = arguments.first else { fail("\(option) needs a value\n\(usage)") }
    arguments.removeFirst()
    switch option {
    case "--rounds":
        guard let rounds = Int(value), (3...1000).contains(rounds) else { fail("--rounds must be 3...1000, not \(value)") }
        settings.rounds = rounds
    case "--attempts":
        guard let attempts = Int(value), (1...10).contains(attempts) else { fail("--attempts must be 1...10, not \(value)") }
        settings.attempts = attempts
    case "--pause":
        guard let seconds = Int(value), (0...600).contains(seconds) else { fail("--pause must be 0...600 seconds, not \(value)") }
        settings.pause = seconds
    case "--filter": settings.filters.append(value)
    case "--against":
        guard FileManager.default.isExecutableFile(atPath: value) else { fail("--against needs an executable TimeRatios, not \(value)") }
        settings.against = value
    default: fail("unknown option \(option)\n\(usage)")
    }
}
let injected = InjectedTime.fromEnvironment(ProcessInfo.processInfo.environment)
let workloads = Suite.timed.filter { settings.filters.isEmpty || settings.filters.contains(where: $0.name.contains) }
guard !workloads.isEmpty else { fail("no workload matches \(settings.filters)") }

guard !settings.against.isEmpty else { fail("check needs --against BASE_TIMERATIOS\n\(usage)") }
let base: BaseBuild
do { base = try BaseBuild(executable: settings.against) } catch { fail("cannot start \(settings.against): \(error)") }

/// Measures `workloads` in `rounds` rounds each, each round beside one of the base build's (alternately before
/// and after it), and adds the reference loop's speeds to `speeds`.
@MainActor func judge(
    _ workloads: [(name: String, run: @Sendable () throws -> UInt64)], rounds: Int, speeds: inout [Double]
) throws -> [TimeVerdict] {
    let stolen = stolenSeconds()
    defer {
        // Time the hypervisor took from the machine: a cause of CPU times that no change of code explains.
        let seconds = stolenSeconds() - stolen
        if seconds > 0 { print(String(format: "the hypervisor took %.2f s of processor time during these rounds (steal)", seconds)) }
    }
    var verdicts: [TimeVerdict] = []
    for workload in workloads {
        var timer = RoundTimer(injected: injected, run: workload.run)
        var pairs: [(own: Round, base: Round)]? = []
        for index in 0..<rounds where pairs != nil {
            let even = index.isMultiple(of: 2)
            let baseFirst = even ? try base.round(of: workload.name, referenceFirst: even) : nil
            let own = try timer.round(referenceFirst: even)
            guard let theirs = try baseFirst ?? base.round(of: workload.name, referenceFirst: even) else { pairs = nil; break }
            pairs?.append((own, theirs))
            speeds.append(own.referenceSpeed)
        }
        verdicts.append(TimeVerdict(
            name: workload.name, rounds: pairs,
            tolerance: settings.churning.contains(workload.name) ? settings.churnTolerance : settings.tolerance, wallTolerance: settings.wallTolerance
        ))
    }
    return verdicts
}

var speeds: [Double] = []
var failing = try judge(workloads, rounds: settings.rounds, speeds: &speeds)
// The machine's speed as the rounds saw it (scripts/perf-gate.sh compares it with and without a busy loop).
print(String(format: "reference speed: %.1f M loops/s (wall-clock median)", Interval(medianOf: speeds).estimate))
func percentText(_ fraction: Double) -> String { String(format: "+%.0f %%", fraction * 100) }
print("time ratios (median of \(settings.rounds) rounds paired with the base build's, each in reference loops; 95 % interval; "
    + "tolerance \(percentText(settings.tolerance)) on CPU, \(percentText(settings.churnTolerance)) for the worlds, "
    + "\(percentText(settings.wallTolerance)) on the wall time of what waits; base \(settings.against))")
for verdict in failing { print(verdict.line) }
failing = failing.filter(\.regressed)
for attempt in 2...max(2, settings.attempts) where attempt <= settings.attempts && !failing.isEmpty {
    let names = Set(failing.map(\.name))
    // Twice the rounds: a regression near the tolerance (under load, +10 % measured as [+7, +10]) clears it once the
    // interval narrows; an unchanged workload's interval narrows around no change.
    print("attempt \(attempt) of \(settings.attempts), after \(settings.pause) s, \(2 * settings.rounds) rounds: \(names.sorted().joined(separator: ", "))")
    sleep(UInt32(settings.pause))
    var ignored: [Double] = []
    failing = try judge(workloads.filter { names.contains($0.name) }, rounds: 2 * settings.rounds, speeds: &ignored)
    for verdict in failing { print(verdict.line) }
    failing = failing.filter(\.regressed)
}
guard failing.isEmpty else {
    fail("\(failing.count) workload(s) slower than the base build's in all \(settings.attempts) attempt(s): "
        + failing.map(\.name).joined(separator: ", "), status: 1)
}
print("time-ratios: held")
