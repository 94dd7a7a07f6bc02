import ArgumentParser
import Foundation
import PaymentService
import PaymentSimulation

struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Runs the payment service in deterministic simulated worlds of faults and checks its invariants.",
        discussion: """
            Each seed builds one world: the workload, the clients' timing and retries, the fault mix (unless --faults \
            gives one) and every fault, crash and restart. Invariants are checked after every step and at the end; a \
            violation prints the line that reproduces it (for a resumed --db world, its whole history of kills). Exit \
            status: 0 no violation, 1 a violation, 2 bad options, or a --db store of another world or that cannot be trusted.
            """
    )

    @Option(help: "Run the one world of this seed (decimal or 0x hex).")
    var seed: String?

    @Option(help: "Run this many worlds, of consecutive seeds.")
    var seeds: String?

    @Option(help: "The first seed of --seeds (default 0).")
    var from: String?

    @Option(help: "Payments per world.")
    var payments = "1000"

    @Option(help: "Concurrent clients per world.")
    var clients = "8"

    @Option(help: "Faults and rates, e.g. timeout=0.1,crash=0.005; 'all'; 'none' (default: each seed picks its own mix).")
    var faults: String?

    @Option(name: .customLong("time-limit"), help: "Stop starting worlds after this long (e.g. 90s, 2m, 1h).")
    var timeLimit: String?

    @Option(help: "Worlds run side by side (default: the number of cores); results do not depend on it.")
    var tasks: String?

    /// `--tasks`' old name, still read.
    @Option(help: .hidden)
    var jobs: String?

    @Option(help: "Write the summary as JSON to this file ('-' for stdout).")
    var json: String?

    @Option(help: "The service's durable store: memory, sqlite (a file), disk (SQLite on a simulated disk with its faults), or mixed (every 8th seed on disk, the rest in memory).")
    var store = "memory"

    @Option(help: "With --store sqlite and one seed: keep the store in this file (the gateway's truth in FILE.gateway).")
    var db: String?

    @Flag(help: "Continue the --db store a killed run left: recover, then resubmit every payment.")
    var resume = false

    @Option(help: "Replay a history of kills (a resumed --db world's reproduce line gives it): the steps after which earlier runs were killed, as a,b,….")
    var kills: String?

    @Flag(help: "Reduce a failing world to a small one that still fails, and print its line too.")
    var shrink = false

    @Option(help: .hidden)
    var flaw: [String] = []

    @Option(name: .customLong("progress-steps"), help: .hidden)
    var progressSteps: String?

    func run() async throws {
        let plan: Plan
        do { plan = try Plan(self) } catch { throw failure("simulate", error.description, status: HarnessExit.invalidInput) }
        let started = ContinuousClock.now
        let limit = plan.timeLimit
        let reports: [WorldReport]
        do {
            if let single = plan.single {
                reports = [try Simulator.run(plan.configuration(single), store: plan.store, trace: plan.trace)]
            } else {
                let (payments, clients, faults, flaws, kind) = (plan.payments, plan.clients, plan.faults, plan.flaws, plan.store.kind)
                reports = try await Simulator.swarm(
                    seeds: plan.first, count: plan.count, jobs: plan.jobs, store: plan.store,
                    make: { WorldConfiguration(seed: $0, payments: payments, clients: clients, faults: faults, flaws: flaws, store: kind.world(seed: $0)) },
                    proceed: { limit.map { ContinuousClock.now - started < $0 } ?? true })
            }
        } catch {
            throw failure("simulate", "\(error)", status: HarnessExit.invalidInput)
        }
        let failing = reports.first { $0.violation != nil }
        let shrunk = shrink ? failing.map { Simulator.shrink($0, store: plan.store) } : nil
        let summary = SimulationSummary(reports, store: plan.store.kind, shrunk: shrunk)
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
        if !summary.passed { throw ExitCode(HarnessExit.failed) }
    }

    /// The options, checked: every bad value or impossible mix is an error (exit 2) that names it.
    private struct Plan {
        var single: UInt64?
        var first: UInt64 = 0
        var count = 1
        var payments: Int
        var clients: Int
        var faults: FaultMix?
        var flaws: Set<ServiceFlaw> = []
        var kills: [Int] = []
        var jobs: Int
        var store: Simulator.StoreChoice
        var timeLimit: Duration?
        var trace: ((Int) -> Void)?

        init(_ options: SimulateCommand) throws(SimulationError) {
            payments = try Self.integer(options.payments, "--payments", in: 1...10_000_000)
            clients = try Self.integer(options.clients, "--clients", in: 1...100_000)
            jobs = Cores.count
            if options.tasks != nil, options.jobs != nil { throw .badOption("give --tasks only (--jobs is its old name)") }
            if let text = options.tasks { jobs = try Self.integer(text, "--tasks", in: 1...1024) }
            if let text = options.jobs { jobs = try Self.integer(text, "--jobs", in: 1...1024) }
            if let text = options.faults { faults = try FaultMix(parsing: text) }
            for name in options.flaw {
                guard let flaw = ServiceFlaw(rawValue: name) else { throw .badOption("--flaw: unknown flaw '\(name)'") }
                flaws.insert(flaw)
            }
            guard let kind = StoreKind(rawValue: options.store) else { throw .badOption("--store must be memory, sqlite, disk or mixed, not '\(options.store)'") }
            store = Simulator.StoreChoice(kind: kind, database: options.db, resume: options.resume)
            switch (options.seed, options.seeds) {
            case (let seed?, nil):
                guard options.from == nil else { throw .badOption("--from goes with --seeds, not --seed") }
                single = try Self.seed(seed, "--seed")
            case (nil, let seeds):
                if let seeds { count = try Self.integer(seeds, "--seeds", in: 1...Int(Int32.max)) }
                if let from = options.from { first = try Self.seed(from, "--from") }
            case (_?, _?): throw .badOption("give --seed or --seeds, not both")
            }
            if options.db != nil {
                guard kind == .sqlite else { throw .badOption("--db needs --store sqlite") }
                guard single != nil else { throw .badOption("--db keeps one world: give --seed") }
                guard !options.shrink else { throw .badOption("--shrink cannot replay a --db world: shrink its seed without --db") }
            } else if options.resume {
                throw .badOption("--resume needs --db FILE")
            }
            if let text = options.kills {
                for step in text.split(separator: ",", omittingEmptySubsequences: false) {
                    kills.append(try Self.integer(String(step), "--kills: each step", in: 0...Int(Int32.max) * 1024))
                }
                guard kind == .sqlite, single != nil, options.db == nil, !options.shrink else {
                    throw .badOption("--kills replays one SQLite world's history: give --seed and --store sqlite, without --db or --shrink")
                }
            }
            if let text = options.timeLimit { timeLimit = try Self.duration(text) }
            if let text = options.progressSteps {
                let every = try Self.integer(text, "--progress-steps", in: 1...Int.max)
                trace = { step in if step % every == 0 { FileHandle.standardOutput.write(Data("step \(step)\n".utf8)) } }
            }
        }

        func configuration(_ seed: UInt64) -> WorldConfiguration {
            WorldConfiguration(seed: seed, payments: payments, clients: clients, faults: faults, flaws: flaws, kills: kills, store: store.kind.world(seed: seed))
        }

        static func integer(_ text: String, _ name: String, in range: ClosedRange<Int>) throws(SimulationError) -> Int {
            guard let value = Int(text), range.contains(value) else {
                throw .badOption("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
            }
            return value
        }

        static func seed(_ text: String, _ name: String) throws(SimulationError) -> UInt64 {
            let value = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            guard let value else { throw .badOption("\(name) must be an unsigned 64-bit integer (decimal or 0x hex), not '\(text)'") }
            return value
        }

        static func duration(_ text: String) throws(SimulationError) -> Duration {
            let units: [(String, Int)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
            for (suffix, millis) in units where text.hasSuffix(suffix) {
                if let value = Int(text.dropLast(suffix.count)), value > 0, case let (total, false) = value.multipliedReportingOverflow(by: millis) {
                    return .milliseconds(total)
                }
            }
            if let seconds = Int(text), seconds > 0 { return .seconds(seconds) }
            throw .badOption("--time-limit must be a positive duration such as 90s, 2m or 1h, not '\(text)'")
        }
    }
}
