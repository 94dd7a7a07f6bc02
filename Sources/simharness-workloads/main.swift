// Builds one core-algorithm workload and runs it REPEAT times (default 1), printing the checksum: the
// program the instruction-count gate (`scripts/instruction-gate.sh`) runs under callgrind, which
// takes the difference of two repeat counts so that only the algorithm's instructions count.
// Usage: simharness-workloads fasting|steps|payments|generation|pipeline|own-service-worlds|ledger-worlds [REPEAT]
@_spi(Tooling) import BenchmarkWorkloads
import Foundation

let regression = InjectedRegression.fromEnvironment(ProcessInfo.processInfo.environment)
let arguments = Array(CommandLine.arguments.dropFirst())
let name = arguments.first ?? ""
let repeats = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 1
let run: (() -> UInt64)?
switch name {
case "fasting": run = { [workload = FastingWorkload(events: 200_000, days: 365, seed: 1)] in workload.run(injecting: regression) }
case "steps": run = { [workload = StepWorkload(events: 200_000, days: 180, seed: 2)] in workload.run(injecting: regression) }
case "payments": run = { [workload = PaymentWorkload(events: 50_000, perUser: 200, seed: 3)] in workload.run(injecting: regression) }
case "generation": run = { [workload = GenerationWorkload(users: 400)] in workload.run(injecting: regression) }
case "pipeline": run = { [workload = PipelineWorkload(users: 400)] in workload.run(injecting: regression) }
case "own-service-worlds", "ledger-worlds":
    // One world per repeat, of consecutive seeds (not for the instruction gate: worlds are not alike).
    var worlds = ServiceWorldsWorkload(service: name == "own-service-worlds" ? .own : .ledger)
    run = { worlds.run() }
default: run = nil
}
guard let run, repeats >= 1 else {
    FileHandle.standardError.write(Data("usage: simharness-workloads fasting|steps|payments|generation|pipeline|own-service-worlds|ledger-worlds [REPEAT >= 1]\n".utf8))
    exit(2)  // a usage error, as every simharness command exits (docs/exit-codes.md)
}
var checksum: UInt64 = 0
for _ in 0..<repeats { checksum &+= run() }
print("\(name) \(checksum)")
