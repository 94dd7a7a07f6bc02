import Testing
@testable import PaymentsCore

@Suite("The per-user key table")
struct KeyTableTests {
    @Test("it keeps every key's value as it grows past its first room, like a dictionary", arguments: [10, 1_000, 50_000])
    func growsLikeADictionary(keys: Int) {
        // Given a table and a dictionary fed the same spread-out keys
        var sut = KeyTable<Int>(capacity: 4)
        var reference: [UInt32: Int] = [:]
        for i in 0..<keys {
            let key = UInt32(truncatingIfNeeded: i &* 2_654_435_761)
            sut.set(key, to: i)
            reference[key] = i
        }
        // When a value is changed in place, and one is set again
        sut.modify(UInt32(0)) { $0 += 1 }
        reference[0]! += 1
        sut.set(UInt32(0), to: reference[0]!)
        // Then both hold the same values, and the next key of the sequence (never set: the sequence is a
        // bijection) has none
        #expect(reference.allSatisfy { sut[$0.key] == $0.value })
        #expect(sut.count == reference.count)
        #expect(sut[UInt32(truncatingIfNeeded: keys &* 2_654_435_761)] == nil)
    }

    @Test("emptying it forgets every key at once, and a change of a missing key does nothing")
    func removeAll() {
        // Given a table with keys
        var sut = KeyTable<Int>()
        for key in UInt32(0)..<40 { sut.set(key, to: Int(key)) }
        // When it is emptied, and a missing key is changed
        sut.removeAll()
        sut.modify(7) { $0 = 99 }
        // Then nothing is left
        #expect((UInt32(0)..<40).allSatisfy { sut[$0] == nil })
        #expect(sut.count == 0)
    }

    @Test("after 2³² − 1 users the stamps start over, and no key of an old user comes back")
    func stampsWrap() {
        // Given a table at its last stamp, with a key
        var sut = KeyTable<Int>()
        sut.epoch = .max
        sut.set(5, to: 1)
        // When it is emptied (the stamps start over) and used again up to that stamp
        sut.removeAll()
        #expect(sut.epoch == 1)
        sut.set(6, to: 2)
        // Then only the new key is there
        #expect(sut[5] == nil)
        #expect(sut[6] == 2)
    }
}
