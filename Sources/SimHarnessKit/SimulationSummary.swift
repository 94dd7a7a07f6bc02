import Foundation
@_spi(Tooling) import PaymentSimulation
@_spi(Tooling) import SimulationCore
import PaymentsCore

/// What a run of `simulate` found, as it prints it: the worlds' counts added up, and the violation
/// with the command lines that reproduce it. A summary read back from its JSON is the same value, so
/// `merge` adds the summaries of shards up (`SimulationSummary.merged`).
struct SimulationSummary: Sendable, Equatable {
    /// The JSON's schema version.
    static let version = 1

    /// The worlds a run was asked for, whichever of them it ran: the first seed, the number of
    /// seeds, and the command line that runs them all. Shards of one swarm share it.
    struct Swarm: Sendable, Equatable {
        /// The first seed.
        var from: UInt64
        /// Seeds from `from` on.
        var seeds: Int
        /// `simharness simulate` with the options every world shares (not `--shard`, `--tasks` or `--time-limit`).
        var command: String
    }

    /// A broken invariant, with the lines that reproduce it.
    struct Found: Sendable, Equatable {
        /// The failing world's seed.
        var seed: UInt64
        /// What broke, where, and the payment's recent events.
        var violation: Violation
        /// The command line that runs the failing world again.
        var reproduce: String
        /// The smallest world found with `--shrink` that still fails, as a command line.
        var shrunk: String?
    }

    /// Which shards of `count` a summary covers (`simulate --shard`, or a `merge` that lacks some).
    struct Shards: Sendable, Equatable, Codable {
        /// The number of shards the swarm was split into.
        var count: Int
        /// The shards covered, ascending.
        var indices: [Int]
    }

    /// Worlds run.
    var worlds = 0
    /// Seeds of the first and last world.
    var seeds: ClosedRange<UInt64>?
    /// Events run in all.
    var steps = 0
    /// Faults injected, by kind.
    var faults: [FaultKind: Int] = [:]
    /// Service crashes.
    var crashes = 0
    /// Restarts that recovered from the store.
    var recoveries = 0
    /// Final states of all payments.
    var states: [PaymentState: Int] = [:]
    /// The violation, if a world broke an invariant: the first in seed order.
    var violation: Found?
    /// The store the worlds used.
    var store: StoreKind
    /// Worlds that ran on the simulated disk.
    var diskWorlds = 0
    /// The history line of a world that ran after kills (a resumed `--db` world, or a `--kills` replay).
    var history: String?
    /// The worlds asked for.
    var swarm: Swarm
    /// The shards this summary covers; nil: the whole swarm.
    var shards: Shards?

    /// Nothing yet of the worlds of `swarm` (or of its `shard`).
    init(store: StoreKind, swarm: Swarm, shard: Shard = Shard()) {
        self.store = store
        self.swarm = swarm
        if shard.count > 1 { shards = Shards(count: shard.count, indices: [shard.index]) }
    }

    /// Adds a world's report; the first violation in the order they come is the one kept.
    mutating func add(_ report: PaymentWorldReport) {
        worlds += 1
        if report.configuration.store == .disk { diskWorlds += 1 }
        seeds = seeds.map { min($0.lowerBound, report.configuration.seed)...max($0.upperBound, report.configuration.seed) }
            ?? report.configuration.seed...report.configuration.seed
        steps += report.steps
        crashes += report.crashes
        recoveries += report.recoveries
        faults.merge(report.faults, uniquingKeysWith: +)
        states.merge(report.states, uniquingKeysWith: +)
        if let broken = report.violation, violation == nil {
            violation = Found(seed: report.configuration.seed, violation: broken, reproduce: report.configuration.reproduction(), shrunk: nil)
        }
        if !report.configuration.kills.isEmpty {
            let kills = report.configuration.kills.map(String.init).joined(separator: ", ")
            history = "runs killed after steps \(kills); replay: \(report.configuration.reproduction(store: store))"
        }
    }

    /// Notes the smallest world `--shrink` found that still fails, as its command line.
    mutating func note(shrunk: PaymentWorldReport) {
        if shrunk.violation != nil { violation?.shrunk = shrunk.configuration.reproduction() }
    }

    /// Whether every invariant held in every world.
    var passed: Bool { violation == nil }

    /// The summary for a terminal.
    func render() -> String {
        var lines: [String] = []
        let range = seeds.map { $0.lowerBound == $0.upperBound ? "seed \(hex($0.lowerBound))" : "seeds \(hex($0.lowerBound))…\(hex($0.upperBound))" } ?? "no seed"
        let part = shards.map { ", shard\($0.indices.count == 1 ? "" : "s") \($0.indices.map(String.init).joined(separator: ", ")) of \($0.count)" } ?? ""
        lines.append("simulate: \(worlds) world\(worlds == 1 ? "" : "s") (\(range)), store \(store.rawValue)"
            + (store == .mixed ? " (\(diskWorlds) on the simulated disk)" : "") + part)
        lines.append("  steps \(steps), crashes \(crashes), recoveries \(recoveries)")
        let faultText = FaultKind.allCases.filter { faults[$0, default: 0] > 0 }.map { "\($0.rawValue) \(faults[$0]!)" }
        lines.append("  faults injected: " + (faultText.isEmpty ? "none" : faultText.joined(separator: ", ")))
        lines.append("  payments: " + PaymentState.allCases.map { "\($0.rawValue) \(states[$0, default: 0])" }.joined(separator: ", "))
        if let history { lines.append("  history: \(history)") }
        guard let found = violation else {
            lines.append("  violations: 0")
            return lines.joined(separator: "\n") + "\n"
        }
        let violation = found.violation
        lines.append("  violations: 1")
        lines.append("VIOLATION of \(violation.invariant.rawValue) in world \(hex(found.seed)): \(violation.detail)")
        lines.append("  at step \(violation.step ?? 0), \(violation.time?.wholeMilliseconds ?? 0) ms into the world" + (violation.payment.map { ", payment \($0)" } ?? ""))
        if !violation.history.isEmpty {
            lines.append("  recent history of the payment:")
            lines += violation.history.map { "    \($0)" }
        }
        lines.append("  reproduce: \(found.reproduce)")
        if let shrunk = found.shrunk { lines.append("  shrunk:    \(shrunk)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension WorldConfiguration {
    /// The command line that runs this world again, its history of kills included.
    func reproduction(store: StoreKind? = nil) -> String {
        let store = store ?? self.store
        var options: [(name: String, value: String?)] = [("payments", "\(payments)"), ("clients", "\(clients)"), ("faults", "\(faults)")]
        if store != .memory { options.append(("store", store.rawValue)) }
        options += flaws.sorted().map { ("flaw", $0.rawValue) }
        if !kills.isEmpty { options.append(("kills", kills.map(String.init).joined(separator: ","))) }
        return ReproduceLine(program: "simharness", seed: seed, options: options).description
    }
}
