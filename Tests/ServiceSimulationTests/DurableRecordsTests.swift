import Foundation
@testable import ServiceSimulation
import Testing

@Suite("The durable records: a disk's crash semantics")
struct DurableRecordsTests {
    /// What a read of `key` gives: its bytes, nil for no record, or "torn".
    private static func read(_ sut: DurableRecords, _ key: String) async throws -> String {
        do {
            guard let data = try await sut.read(key) else { return "none" }
            return String(decoding: data, as: UTF8.self)
        } catch DurableRecordsError.torn { return "torn" }
    }

    @Test("a torn record rewritten but not synced is torn again after the next power loss, never an empty record")
    func tornRecordStaysTornUntilSynced() throws {
        // Given worlds whose first power loss tears a new record (faults on: one time in two)
        var torn = 0
        for seed in 0..<32 as Range<UInt64> {
            let reads = try SeededWorld.run(seed: seed) { clock in
                let sut = DurableRecords(world: WorldState(configuration: ServiceWorldConfiguration(seed: seed), clock: clock))
                try await sut.write("payment/a", Data("first".utf8))
                sut.losePower()
                let afterTear = try await Self.read(sut, "payment/a")
                // When the record is written again, and the power goes before a sync
                try await sut.write("payment/a", Data("second".utf8))
                let rewritten = try await Self.read(sut, "payment/a")
                sut.losePower()
                return [afterTear, rewritten, try await Self.read(sut, "payment/a")]
            }.value.get()
            guard reads[0] == "torn" else { continue }
            torn += 1
            // Then the rewrite was seen, and the power loss shows the torn record again: the disk holds nothing else
            #expect(reads == ["torn", "second", "torn"], "seed \(seed)")
        }
        #expect(torn > 0)
    }
}
