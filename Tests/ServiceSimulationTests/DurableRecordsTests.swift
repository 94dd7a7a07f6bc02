import Foundation
@_spi(Tooling) @testable import ServiceSimulation
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

    /// A store of a world of `seed`, with the world's faults on.
    private static func store(seed: UInt64, clock: VirtualClock) -> (DurableRecords, WorldState) {
        let world = WorldState(configuration: ServiceWorldConfiguration(seed: seed), clock: clock)
        return (DurableRecords(world: world), world)
    }

    @Test("a commit that returns survives a power loss whole; one the disk refuses leaves nothing", arguments: [0, 1, 2, 3] as [UInt64])
    func commitIsAtomicAndDurable(seed: UInt64) throws {
        // Given a world whose disk fails now and then (faults on), and 60 commits of two records each
        let outcomes = try SeededWorld.run(seed: seed) { clock in
            let (sut, _) = Self.store(seed: seed, clock: clock)
            var outcomes: [(committed: Bool, reads: [String])] = []
            for index in 0..<60 {
                let records = ["payment/\(index)": Data("p\(index)".utf8), "balance/\(index)": Data("b\(index)".utf8)]
                // When each is committed, then the power goes
                var committed = true
                do { try await sut.commit(writing: records) } catch is DurableRecordsError { committed = false }
                sut.losePower()
                outcomes.append((committed, [try await Self.read(sut, "payment/\(index)"), try await Self.read(sut, "balance/\(index)")]))
            }
            return outcomes.map { "\($0.committed) \($0.reads.joined(separator: " "))" }
        }.value.get()
        // Then a commit that returned left both records, and one that threw left neither
        let expected = (0..<60).map { index in
            outcomes[index].hasPrefix("true") ? "true p\(index) b\(index)" : "false none none"
        }
        #expect(outcomes == expected)
        #expect(outcomes.contains { $0.hasPrefix("true") })
    }

    @Test("across seeds the disk refuses some commits: the atomicity above is tested where it matters")
    func someCommitsFail() throws {
        // Given 8 worlds of 60 commits each, faults on
        var refused = 0
        for seed in 0..<8 as Range<UInt64> {
            refused += try SeededWorld.run(seed: seed) { clock in
                let (sut, _) = Self.store(seed: seed, clock: clock)
                var refused = 0
                // When each commit is tried
                for index in 0..<60 {
                    do { try await sut.commit(writing: ["k\(index)": Data()]) } catch is DurableRecordsError { refused += 1 }
                }
                return refused
            }.value.get()
        }
        // Then some were refused (1 in 100 disk full, 1 in 50 sync failed: about 14 of 480)
        #expect(refused > 0)
    }

    @Test("a crash while a commit is on its way leaves nothing of it; writes not synced stay unsynced")
    func crashDuringCommitLeavesNothing() throws {
        // Given a world without faults, a raw write not synced, and a commit that a crash interrupts
        let reads = try SeededWorld.run(seed: 9) { clock in
            let world = WorldState(configuration: ServiceWorldConfiguration(seed: 9, faults: false), clock: clock)
            let sut = DurableRecords(world: world)
            try await sut.write("raw", Data("raw".utf8))
            async let commit: Void = sut.commit(writing: ["committed": Data("c".utf8)])
            // When the service crashes before the commit's storage latency (at least 0.1 ms) has passed
            try await clock.sleep(for: .microseconds(10))
            world.crash()
            let crashed: Bool
            do { try await commit; crashed = false } catch is ServiceCrashed { crashed = true }
            sut.losePower()
            // (read by the incarnation that follows the crash)
            return try await Incarnation.$current.withValue(world.incarnation) {
                [crashed ? "crashed" : "returned", try await Self.read(sut, "committed"), try await Self.read(sut, "raw")]
            }
        }.value.get()
        // Then the commit threw and left nothing, and the unsynced raw write is gone with the power
        #expect(reads == ["crashed", "none", "none"])
    }
}
