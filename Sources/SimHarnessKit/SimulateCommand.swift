@_spi(Tooling) import SimulationCore
import ArgumentParser
import Foundation
@_spi(Tooling) import PaymentService
@_spi(Tooling) import PaymentSimulation
@_spi(Tooling) import PlantedFlaws

struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Runs the payment service in deterministic simulated worlds of faults and checks its invariants.",
        discussion: """
            Each seed builds one world: the workload, the clients' timing and retries, the fault mix (unless --faults \
            gives one) and every fault, crash and restart. Invariants are checked after every step and at the end; a \
            violation prints the line that reproduces it (for a resumed --db world, its whole history of kills). Exit \
            status: 0 no violation, 1 a violation, 2 bad options, or a --db store of another world or that cannot be trusted, \
            3 the --json file cannot be written.

            Fault kinds, for --faults NAME=RATE,… (rates in 0…1; a bare NAME or 'all' takes a default rate). The \
            "disk" ones strike only worlds on the simulated disk (--store disk, or every 8th world of --store mixed); \
            docs/simulate.md and docs/simulated-disk.md say more.

            \(faultKinds)
            """
    )

    /// One line per fault kind: its name and what it does.
    static var faultKinds: String {
        let width = FaultKind.allCases.map(\.rawValue.count).max() ?? 0
        return FaultKind.allCases.map { kind in
            "  " + kind.rawValue + String(repeating: " ", count: width - kind.rawValue.count + 2) + kind.summary
        }.joined(separator: "\n")
    }

    @Option(help: "Run the one world of this seed (decimal or 0x hex).", transform: OptionValue.seed)
    var seed: UInt64?

    @Option(help: "Run this many worlds, of consecutive seeds.", transform: OptionValue.integer(in: 1...Int(Int32.max)))
    var seeds: Int?

    @Option(help: "The first seed of --seeds (default 0).", transform: OptionValue.seed)
    var from: UInt64?

    @Option(help: Shard.help("the worlds of --seeds whose index i (seed = from + i) has i mod n == k"), transform: OptionValue.shard)
    var shard: Shard?

    @Option(help: "Payments per world (default 1000).", transform: OptionValue.integer(in: 1...10_000_000))
    var payments = 1000

    @Option(help: "Concurrent clients per world (default 8).", transform: OptionValue.integer(in: 1...100_000))
    var clients = 8

    @Option(
        help: "Faults and rates, e.g. timeout=0.1,crash=0.005; 'all'; 'none' (default: each seed picks its own mix).",
        transform: OptionValue.faults)
    var faults: FaultMix?

    @Option(name: .customLong("time-limit"), help: "Stop starting worlds after this long (e.g. 90s, 2m, 1h).", transform: OptionValue.duration)
    var timeLimit: Duration?

    @Option(help: "Worlds run side by side (default: the number of cores); results do not depend on it.", transform: OptionValue.tasks)
    var tasks: Int?

    /// `--tasks`' old name, still read.
    @Option(help: .hidden, transform: OptionValue.tasks)
    var jobs: Int?

    @Option(help: "Write the summary as JSON to this file ('-' for stdout).")
    var json: String?

    @Option(help: "The service's durable store: memory, sqlite (a file), disk (SQLite on a simulated disk with its faults), or mixed (every 8th seed on disk, the rest in memory).")
    var store = StoreKind.memory

    @Option(help: "With --store sqlite and one seed: keep the store in this file (the gateway's truth in FILE.gateway).")
    var db: String?

    @Flag(help: "Continue the --db store a killed run left: recover, then resubmit every payment.")
    var resume = false

    @Option(
        help: "Replay a history of kills (a resumed --db world's reproduce line gives it): the steps after which earlier runs were killed, as a,b,….",
        transform: OptionValue.integers(in: 0...Int(Int32.max) * 1024))
    var kills: [Int]?

    @Flag(help: "Reduce a failing world to a small one that still fails, and print its line too.")
    var shrink = false

    @Option(help: .hidden)
    var flaw: [PlantedFlaw] = []

    @Option(name: .customLong("progress-steps"), help: .hidden, transform: OptionValue.integer(in: 1...Int.max))
    var progressSteps: Int?

    /// The impossible mixes of options (each value was checked as it was read).
    func validate() throws {
        if tasks != nil, jobs != nil { throw ValidationError("give --tasks only (--jobs is its old name)") }
        if seed != nil, seeds != nil { throw ValidationError("give --seed or --seeds, not both") }
        if seed != nil, from != nil { throw ValidationError("--from goes with --seeds, not --seed") }
        if shard != nil, seeds == nil { throw ValidationError("--shard splits the worlds of --seeds N: give --seeds") }
        do { _ = try ReferenceServicePlants(Set(flaw)) } catch { throw ValidationError("--flaw: \(error)") }
        if db != nil {
            guard store == .sqlite else { throw ValidationError("--db needs --store sqlite") }
            guard seed != nil else { throw ValidationError("--db keeps one world: give --seed") }
            guard !shrink else { throw ValidationError("--shrink cannot replay a --db world: shrink its seed without --db") }
        } else if resume {
            throw ValidationError("--resume needs --db FILE")
        }
        if kills != nil, store != .sqlite || seed == nil || db != nil || shrink {
            throw ValidationError("--kills replays one SQLite world's history: give --seed and --store sqlite, without --db or --shrink")
        }
    }

    func run() async throws {
        let started = ContinuousClock.now
        let limit = timeLimit
        let choice = PaymentWorldSimulator.StoreChoice(kind: store, database: db, resume: resume)
        let part = shard ?? Shard()
        var summary = SimulationSummary(store: store, swarm: swarm, shard: part)
        var failing: PaymentWorldReport?
        do {
            if let seed {
                let report = try PaymentWorldSimulator.run(configuration(seed), store: choice, trace: trace)
                summary.add(report)
                if report.violation != nil { failing = report }
            } else {
                let (payments, clients, faults, flaws, kind) = (payments, clients, faults, Set(flaw), store)
                let make: @Sendable (UInt64) -> WorldConfiguration = {
                    WorldConfiguration(seed: $0, payments: payments, clients: clients, faults: faults, flaws: flaws, store: kind.world(seed: $0))
                }
                let worlds = Swarm(from: from ?? 0, count: seeds ?? 1, shard: (part.index, part.count), tasks: tasks ?? jobs ?? Cores.count)
                let traps = TrapReporter(workers: worlds.tasks, line: { make($0).reproduction() })
                // Every world up to the first that fails, in seed order.
                (summary, failing) = try worlds.run({ seed throws(SimulationError) in try PaymentWorldSimulator.run(make(seed), store: choice) },
                    into: (summary, nil), fold: { found, report in
                        found.0.add(report)
                        guard report.violation != nil else { return true }
                        found.1 = report
                        return false
                    }, proceed: { limit.map { ContinuousClock.now - started < $0 } ?? true }, watch: traps.watch)
            }
        } catch {
            throw failure("simulate", "\(error)", status: HarnessExit.invalidInput)
        }
        if shrink, let failing { summary.note(shrunk: PaymentWorldSimulator.shrink(failing, store: choice)) }
        if json == "-" {
            FileHandle.standardError.write(Data(summary.render().utf8))
        } else {
            print(summary.render(), terminator: "")
        }
        if let json {
            do { try writeOutput(try summary.json(), to: json) } catch {
                throw failure("simulate", "cannot write \(json): \(error)", status: HarnessExit.internalError)
            }
        }
        if !summary.passed { throw HarnessExit.failed.code }
    }

    /// The worlds asked for, as the command line that runs them all (what shards of one swarm share).
    private var swarm: SimulationSummary.Swarm {
        let first = seed ?? from ?? 0
        var command = "simharness simulate " + (seed != nil ? "--seed \(hex(first))" : "--seeds \(seeds ?? 1) --from \(hex(first))")
        command += " --payments \(payments) --clients \(clients)"
        if let faults { command += " --faults \(faults)" }
        if store != .memory { command += " --store \(store.rawValue)" }
        for flaw in Set(flaw).sorted() { command += " --flaw \(flaw.rawValue)" }
        if let kills { command += " --kills " + kills.map(String.init).joined(separator: ",") }
        return SimulationSummary.Swarm(from: first, seeds: seed != nil ? 1 : seeds ?? 1, command: command)
    }

    private func configuration(_ seed: UInt64) -> WorldConfiguration {
        WorldConfiguration(seed: seed, payments: payments, clients: clients, faults: faults, flaws: Set(flaw), kills: kills ?? [], store: store.world(seed: seed))
    }

    /// `--progress-steps N`: a line on stdout every N steps of the one world.
    private var trace: ((Int) -> Void)? {
        progressSteps.map { every in { step in if step % every == 0 { FileHandle.standardOutput.write(Data("step \(step)\n".utf8)) } } }
    }
}

extension StoreKind: ExpressibleByArgument {}
extension PlantedFlaw: ExpressibleByArgument {}

extension OptionValue {
    /// `--faults`: `none`, `all`, or `kind[=rate],…` (`FaultMix(parsing:)`).
    @Sendable static func faults(_ text: String) throws -> FaultMix {
        do { return try FaultMix(parsing: text) } catch { throw ValidationError(error.description) }
    }
}
