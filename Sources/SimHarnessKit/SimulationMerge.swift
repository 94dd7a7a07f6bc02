import Foundation
@_spi(Tooling) import PaymentSimulation
import PaymentsCore

/// Why a `simulate` summary cannot be read or merged.
struct SimulationSummaryError: Error, CustomStringConvertible {
    /// What is wrong.
    var description: String
}

extension SimulationSummary {
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
