import Foundation
@_spi(Tooling) import PaymentSimulation
import PaymentsCore

/// Why a `simulate` summary cannot be read or merged.
struct SimulationSummaryError: Error, CustomStringConvertible {
    /// What is wrong.
    var description: String
}

extension SimulationSummary {
    /// Whether `object` (a JSON file's top level) is a `simulate --json` summary rather than a `run` result.
    static func isSummary(_ object: [String: Any]) -> Bool {
        object["worlds"] != nil && object["scenario"] == nil
    }

    /// Reads a summary `json()` wrote.
    init(json object: [String: Any]) throws(SimulationSummaryError) {
        func fail(_ message: String) -> SimulationSummaryError { SimulationSummaryError(description: message) }
        func hex(_ text: Any?) -> UInt64? {
            (text as? String).flatMap { $0.hasPrefix("0x") ? UInt64($0.dropFirst(2), radix: 16) : nil }
        }
        guard object["version"] as? Int == Self.version else {
            throw fail("a simulate summary of version \(object["version"].map { "\($0)" } ?? "none"); this simharness reads version \(Self.version)")
        }
        guard let swarm = object["swarm"] as? [String: Any], let from = hex(swarm["from"]), let seeds = swarm["seeds"] as? Int,
              let command = swarm["command"] as? String
        else { throw fail("a simulate summary without its swarm (written before simulate --shard existed): run it again") }
        guard let storeName = object["store"] as? String, let store = StoreKind(rawValue: storeName),
              let worlds = object["worlds"] as? Int, let steps = object["steps"] as? Int, let crashes = object["crashes"] as? Int,
              let recoveries = object["recoveries"] as? Int, let diskWorlds = object["disk_worlds"] as? Int,
              let faults = object["faults"] as? [String: Int], let states = object["states"] as? [String: Int],
              let violations = object["violations"] as? [[String: Any]]
        else { throw fail("not a simulate summary: a key is missing or of the wrong type") }
        self.init([], store: store, swarm: Swarm(from: from, seeds: seeds, command: command))
        (self.worlds, self.steps, self.crashes, self.recoveries, self.diskWorlds) = (worlds, steps, crashes, recoveries, diskWorlds)
        for (name, count) in faults {
            guard let kind = FaultKind(rawValue: name) else { throw fail("unknown fault '\(name)'") }
            self.faults[kind] = count
        }
        for (name, count) in states {
            guard let state = PaymentState(rawValue: name) else { throw fail("unknown payment state '\(name)'") }
            self.states[state] = count
        }
        if let range = object["seeds"] as? [String: Any] {
            guard let first = hex(range["first"]), let last = hex(range["last"]), first <= last else { throw fail("bad seeds \(range)") }
            self.seeds = first...last
        }
        if let shards = object["shards"] as? [String: Any] {
            guard let count = shards["count"] as? Int, let indices = shards["indices"] as? [Int], count > 1,
                  !indices.isEmpty, indices.allSatisfy((0..<count).contains)
            else { throw fail("bad shards \(shards)") }
            self.shards = Shards(count: count, indices: indices.sorted())
        }
        if let entry = violations.first {
            guard let seed = hex(entry["seed"]), let invariant = entry["invariant"] as? String, let message = entry["message"] as? String,
                  let step = entry["step"] as? Int, let time = entry["time_ms"] as? Int, let history = entry["history"] as? [String],
                  let reproduce = entry["reproduce"] as? String
            else { throw fail("a violation with a key missing or of the wrong type") }
            violation = Found(
                seed: seed, invariant: invariant, message: message, step: step, timeMillis: Int64(time),
                payment: (entry["payment"] as? Int).flatMap(UInt32.init(exactly:)), history: history, reproduce: reproduce,
                shrunk: entry["shrunk"] as? String)
        }
    }

    /// Adds up the summaries of shards of one swarm (`simulate --shard k/n`, any order): counts add, the
    /// seed range widens, and the violation kept is the one of the lowest seed index in the swarm, the
    /// one the unsharded run reports. The shards left are named unless all `n` are there: then the sum
    /// is the unsharded run's summary.
    static func merged(_ parts: [(file: String, summary: SimulationSummary)]) throws(SimulationSummaryError) -> SimulationSummary {
        guard var merged = parts.first?.summary else { throw SimulationSummaryError(description: "nothing to merge") }
        guard parts.count > 1 else { return merged }
        for (file, part) in parts {
            guard part.swarm == merged.swarm, part.store == merged.store else {
                throw SimulationSummaryError(description: "\(file) is of another swarm: '\(part.swarm.command)', not '\(merged.swarm.command)'")
            }
            guard let shards = part.shards else {
                throw SimulationSummaryError(description: "\(file) covers its whole swarm (no --shard): there is nothing to add to it")
            }
            guard shards.count == merged.shards?.count else {
                throw SimulationSummaryError(description: "\(file) is a shard of \(shards.count), the first file one of \(merged.shards?.count ?? 1)")
            }
        }
        for (file, part) in parts.dropFirst() {
            let shards = part.shards!
            if let repeated = shards.indices.first(where: merged.shards!.indices.contains) {
                throw SimulationSummaryError(description: "shard \(repeated) of \(shards.count) appears twice (again in \(file))")
            }
            merged.shards!.indices = (merged.shards!.indices + shards.indices).sorted()
            merged.worlds += part.worlds
            merged.diskWorlds += part.diskWorlds
            merged.steps += part.steps
            merged.crashes += part.crashes
            merged.recoveries += part.recoveries
            merged.faults.merge(part.faults, uniquingKeysWith: +)
            merged.states.merge(part.states, uniquingKeysWith: +)
            if let theirs = part.seeds {
                merged.seeds = merged.seeds.map { min($0.lowerBound, theirs.lowerBound)...max($0.upperBound, theirs.upperBound) } ?? theirs
            }
            let from = merged.swarm.from
            if let theirs = part.violation, merged.violation.map({ theirs.seed &- from < $0.seed &- from }) ?? true {
                merged.violation = theirs
            }
        }
        if let shards = merged.shards, shards.indices == Array(0..<shards.count) { merged.shards = nil }
        return merged
    }
}
