import Foundation
@_spi(Tooling) import PaymentSimulation
@testable import SimHarnessKit
@_spi(Tooling) import SimulationCore
import Testing

/// A summary of two shards' worth of worlds with a violation: every field the JSON holds set.
private func sampleSummary() -> SimulationSummary {
    var summary = SimulationSummary(store: .mixed, swarm: .init(from: 0x10, seeds: 40, command: "simharness simulate --seeds 40 --from 0x10"))
    (summary.worlds, summary.steps, summary.crashes, summary.recoveries, summary.diskWorlds) = (20, 9_000, 3, 2, 3)
    summary.seeds = 0x10...0x36
    summary.faults = [.timeout: 12, .crash: 3]
    summary.states = [.captured: 100, .refunded: 7, .declined: 0, .failed: 2, .deduplicated: 1, .rejected: 4]
    summary.shards = .init(count: 2, indices: [1])
    summary.violation = .init(
        seed: 0x13,
        violation: Violation(.chargedTwice, "p7: two captures", subjects: ["7"], step: 88, time: .milliseconds(1_250), history: ["1 ms: admitted", "9 ms: sent"]),
        reproduce: "simharness simulate --seed 0x13", shrunk: "simharness simulate --seed 0x13 --payments 4")
    return summary
}

@Suite("simulate's JSON summary: one Codable document that simulate writes and merge reads")
struct SimulationSummaryJSONTests {
    @Test("a summary read back from its JSON is the same summary, and writes the same bytes")
    func roundTrip() throws {
        // Given a summary with every field set
        let summary = sampleSummary()
        let json = try summary.json()
        // When its JSON is read back
        let sut = try SimulationSummary(json: json)
        // Then it is the same value, and its JSON the same bytes
        #expect(sut == summary)
        #expect(try sut.json() == json)
        #expect(SimulationSummary.isSummary(json))
    }

    @Test("a summary with a key missing, of the wrong type, of another version or naming an unknown fault is refused, saying which", arguments: [
        ("steps", nil, "not a simulate summary: 'steps' is missing"),
        ("worlds", #""many""#, "not a simulate summary: 'worlds' is of the wrong type"),
        ("version", "2", "a simulate summary of version 2; this simharness reads version 1"),
        ("faults", #"{"meteor": 1}"#, "unknown fault 'meteor'"),
        ("store", #""tape""#, "unknown store 'tape'"),
        ("violations", #"[{"seed": "0x1", "invariant": "meteor-strike", "message": "", "step": 1, "time_ms": 1, "history": [], "reproduce": ""}]"#,
         "unknown invariant 'meteor-strike'"),
    ] as [(String, String?, String)])
    func refusals(key: String, value: String?, message: String) throws {
        // Given a good summary's JSON with one key removed (no value) or set to another JSON value
        var object = try #require(try JSONSerialization.jsonObject(with: try sampleSummary().json()) as? [String: Any])
        object[key] = try value.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed) }
        let json = try JSONSerialization.data(withJSONObject: object)
        // When it is read
        let error = #expect(throws: SimulationSummaryError.self) { try SimulationSummary(json: json) }
        // Then it is refused with the reason
        #expect(error?.description == message)
    }

    @Test("a run result is not taken for a summary")
    func runResultIsNoSummary() {
        // Given a run result's top level
        let json = Data(#"{"scenario": "smoke", "version": 1, "worlds": 3}"#.utf8)
        // Then it is no summary
        #expect(!SimulationSummary.isSummary(json))
    }
}
