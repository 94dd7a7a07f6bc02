import Foundation
import PaymentsCore

/// What a run of `simulate` found: the worlds' counts added up, and the violation with the lines
/// that reproduce it.
package struct SimulationSummary: Sendable {
    /// The JSON's schema version.
    package static let version = 1

    /// Worlds run.
    package var worlds = 0
    /// Seeds of the first and last world.
    package var seeds: ClosedRange<UInt64>?
    /// Events run in all.
    package var steps = 0
    /// Faults injected, by kind.
    package var faults: [FaultKind: Int] = [:]
    /// Service crashes.
    package var crashes = 0
    /// Restarts that recovered from the store.
    package var recoveries = 0
    /// Final states of all payments.
    package var states: [PaymentState: Int] = [:]
    /// The failing world, if one failed.
    package var failing: WorldReport?
    /// Its shrunk form, when shrinking was asked for.
    package var shrunk: WorldReport?
    /// The store the worlds used.
    package var store: StoreKind
    /// Worlds that ran on the simulated disk.
    package var diskWorlds = 0
    /// The world that ran after a history of kills (a resumed `--db` world, or a `--kills` replay).
    package var resumed: WorldConfiguration?

    /// Adds up `reports`.
    package init(_ reports: [WorldReport], store: StoreKind, shrunk: WorldReport? = nil) {
        self.store = store
        self.shrunk = shrunk
        for report in reports {
            worlds += 1
            if report.configuration.store == .disk { diskWorlds += 1 }
            seeds = seeds.map { min($0.lowerBound, report.configuration.seed)...max($0.upperBound, report.configuration.seed) }
                ?? report.configuration.seed...report.configuration.seed
            steps += report.steps
            crashes += report.crashes
            recoveries += report.recoveries
            faults.merge(report.faults, uniquingKeysWith: +)
            states.merge(report.states, uniquingKeysWith: +)
            if report.violation != nil, failing == nil { failing = report }
            if !report.configuration.kills.isEmpty { resumed = report.configuration }
        }
    }

    /// Whether every invariant held in every world.
    package var passed: Bool { failing == nil }

    /// The summary for a terminal.
    package func render() -> String {
        var lines: [String] = []
        let range = seeds.map { $0.lowerBound == $0.upperBound ? "seed \(hex($0.lowerBound))" : "seeds \(hex($0.lowerBound))…\(hex($0.upperBound))" } ?? "no seed"
        lines.append("simulate: \(worlds) world\(worlds == 1 ? "" : "s") (\(range)), store \(store.rawValue)"
            + (store == .mixed ? " (\(diskWorlds) on the simulated disk)" : ""))
        lines.append("  steps \(steps), crashes \(crashes), recoveries \(recoveries)")
        let faultText = FaultKind.allCases.filter { faults[$0, default: 0] > 0 }.map { "\($0.rawValue) \(faults[$0]!)" }
        lines.append("  faults injected: " + (faultText.isEmpty ? "none" : faultText.joined(separator: ", ")))
        lines.append("  payments: " + PaymentState.allCases.map { "\($0.rawValue) \(states[$0, default: 0])" }.joined(separator: ", "))
        if let resumed {
            lines.append("  history: runs killed after steps \(resumed.kills.map(String.init).joined(separator: ", ")); replay: \(resumed.reproduction(store: store))")
        }
        guard let failing, let violation = failing.violation else {
            lines.append("  violations: 0")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("  violations: 1")
        lines.append("VIOLATION of \(violation.invariant.rawValue) in world \(hex(failing.configuration.seed)): \(violation.message)")
        lines.append("  at step \(violation.step), \(violation.timeMillis) ms into the world" + (violation.payment.map { ", payment \($0)" } ?? ""))
        if !violation.history.isEmpty {
            lines.append("  recent history of the payment:")
            lines += violation.history.map { "    \($0)" }
        }
        lines.append("  reproduce: \(failing.configuration.reproduction())")
        if let shrunk, shrunk.violation != nil {
            lines.append("  shrunk:    \(shrunk.configuration.reproduction())")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The summary as JSON (schema `version`), keys sorted.
    package func json() throws -> Data {
        var object: [String: Any] = [
            "version": Self.version, "worlds": worlds, "steps": steps, "crashes": crashes, "recoveries": recoveries,
            "store": store.rawValue, "passed": passed,
            "faults": Dictionary(uniqueKeysWithValues: faults.map { ($0.key.rawValue, $0.value) }),
            "states": Dictionary(uniqueKeysWithValues: PaymentState.allCases.map { ($0.rawValue, states[$0, default: 0]) }),
        ]
        if let seeds { object["seeds"] = ["first": hex(seeds.lowerBound), "last": hex(seeds.upperBound)] }
        var violations: [[String: Any]] = []
        if let failing, let violation = failing.violation {
            var entry: [String: Any] = [
                "seed": hex(failing.configuration.seed), "invariant": violation.invariant.rawValue, "message": violation.message,
                "step": violation.step, "time_ms": violation.timeMillis, "history": violation.history,
                "reproduce": failing.configuration.reproduction(),
            ]
            if let payment = violation.payment { entry["payment"] = payment }
            if let shrunk, shrunk.violation != nil { entry["shrunk"] = shrunk.configuration.reproduction() }
            violations.append(entry)
        }
        object["violations"] = violations
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
    }

    private func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }
}
