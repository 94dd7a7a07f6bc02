@_spi(Tooling) @testable import PaymentSimulation
import PaymentsCore
import Testing

@Suite("FaultMix: the faults of a world, as --faults writes them")
struct FaultMixTests {
    @Test("a mix reads back from its own spelling", arguments: ["none", "all", "timeout=0.1,crash=0.005", "late,reorder=0.9", "storage=0.025,clock=0.3"])
    func roundTrip(text: String) throws {
        // Given a mix written on a command line
        let sut = try FaultMix(parsing: text)
        // When it is spelled out and read again
        let again = try FaultMix(parsing: sut.description)
        // Then it is the same mix
        #expect(again == sut)
    }

    @Test("a bare name takes the kind's default rate; names are spelled in order")
    func spelling() throws {
        // Given a mix of a bare name and a rate
        let sut = try FaultMix(parsing: "timeout=0.25,crash")
        // When it is read
        // Then crash has its default rate, and the spelling sorts the names
        #expect(sut[.crash] == 5 && sut[.timeout] == 250 && sut[.lost] == 0)
        #expect(sut.description == "crash=0.005,timeout=0.25")
        #expect(FaultMix().description == "none")
        #expect(FaultMix.all.permille.count == FaultKind.allCases.count)
    }

    @Test("a bad mix is refused with a message that names the problem", arguments: [
        ("bogus", "unknown fault 'bogus'"), ("timeout=0.1,timeout=0.2", "'timeout' is given twice"),
        ("timeout=abc", "must be a number from 0 to 1"), ("timeout=0.1234", "at most 3 decimals"), ("timeout=-1", "must be a number"),
        ("timeout=.5", "must be a number"), ("timeout=1.5", "may be at most 0.9"), ("timeout=1.", "must be a number"),
        ("crash=0.5", "may be at most 0.1"), ("", "unknown fault ''"),
    ])
    func refused(text: String, message: String) {
        // Given a bad --faults value
        // When it is read
        // Then it is refused, saying why
        #expect {
            try FaultMix(parsing: text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("swarm testing: a seed picks its own mix, the same every time, within each kind's bounds")
    func swarm() {
        // Given many seeds
        let mixes = (0..<200 as Range<UInt64>).map { FaultMix.swarm(seed: $0, disk: true) }
        // When their mixes are drawn again
        // Then they are the same, they differ from seed to seed, and every kind is sometimes on and sometimes off
        #expect(mixes == (0..<200 as Range<UInt64>).map { FaultMix.swarm(seed: $0, disk: true) })
        #expect(Set(mixes).count > 150)
        for kind in FaultKind.allCases {
            let rates = mixes.map { $0[kind] }
            #expect(rates.contains(0) && rates.contains { $0 > 0 })
            #expect(rates.allSatisfy { $0 <= kind.maximumPermille && $0 <= 2 * kind.defaultPermille })
        }
    }
}

@Suite("EventQueue: the world's scheduler")
struct EventQueueTests {
    @Test("entries come out smallest first, near and far alike", arguments: [1 as UInt64, 50, 1_000_000])
    func order(farAhead: UInt64) {
        // Given entries pushed in a scrambled order while others are popped
        var sut = EventQueue(farAhead: farAhead)
        var random = SplitMix64(seed: 42)
        var popped: [UInt64] = [], now: UInt64 = 0, pushed = 0
        for round in 0..<2_000 {
            let order = now + random.next() % 500
            sut.insert(EventQueue.Entry(order: order, slot: round), now: now)
            pushed += 1
            if round % 3 == 0, let entry = sut.popMin() {
                #expect(entry.order >= now)
                now = entry.order
                popped.append(entry.order)
            }
        }
        // When the rest is popped
        while let entry = sut.popMin() { popped.append(entry.order) }
        // Then every entry came out once, in order
        #expect(popped.count == pushed)
        #expect(popped == popped.sorted())
        #expect(sut.popMin() == nil)
    }
}
