import Foundation
import Testing
@testable import Parquet

@Suite("Writer parts: bulk appends, byte comparisons")
struct WriterPartsTests {
    @Test("values appended in bulk are the values appended one by one, nulls included")
    func bulkAppend() {
        // Given strings (some null) and words, appended one by one
        let strings: [String?] = ["u0000001", nil, "", "m0000001-000017", nil, "phone"]
        let expected = Values.string(strings, nullable: true)
        let words = Values.int64([5, -7, .max], type: .timestampMicros)
        // When the same values are appended in bulk, after a first value
        var sut = Values.string(["first"], nullable: true)
        let bytes = Array(strings.compactMap { $0 }.joined().utf8)
        var ends: [Int] = []
        var end = 0
        for s in strings {
            end += s?.utf8.count ?? 0
            ends.append(end)
        }
        let validity: [UInt8] = strings.map { $0 == nil ? 0 : 1 }
        bytes.withUnsafeBufferPointer { b in ends.withUnsafeBufferPointer { e in validity.withUnsafeBufferPointer { sut.append(utf8: b, ends: e, validity: $0) } } }
        var sutWords = ParquetColumnValues(type: .timestampMicros)
        [UInt64(5), UInt64(bitPattern: -7), UInt64(Int64.max)].withUnsafeBufferPointer { sutWords.append(words: $0) }
        // Then the rows, nulls and null count are those appended one by one
        #expect(sut.cells == [.string("first")] + expected.cells)
        #expect(sut.nullCount == 2)
        #expect(sutWords.cells == words.cells)
    }

    @Test("byte strings compare and match as memcmp says, eight bytes at a time and the rest byte by byte",
          arguments: [0, 1, 7, 8, 9, 15, 16, 17, 40])
    func comparisons(count: Int) {
        // Given pairs of byte strings of `count` bytes that differ at each position (high bytes included), and an equal pair
        let a = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 200) }
        var pairs = [(a, a)]
        for i in 0..<count {
            for delta: UInt8 in [1, 255, 128] {
                var b = a
                b[i] = a[i] &+ delta
                pairs.append((a, b))
            }
        }
        for (x, y) in pairs {
            // When they are compared
            x.withUnsafeBytes { p in
                y.withUnsafeBytes { q in
                    let expected = count == 0 ? 0 : memcmp(p.baseAddress!, q.baseAddress!, count)
                    let base = p.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!, other = q.baseAddress ?? base
                    // Then the order and equality are memcmp's
                    #expect(ByteComparison.compare(base, other, count: count).signum() == Int(expected).signum())
                    #expect(ByteComparison.equal(base, other, count: count) == (expected == 0))
                }
            }
        }
    }

    static let wholeDoubles: [UInt64] = (0..<1024).map { (n: Int) -> UInt64 in Double(n).bitPattern }
    static let wholeSecondTimes: [UInt64] = (0..<1024).map { (n: Int) -> UInt64 in UInt64(1_743_206_400 + n * 60) * 1_000_000 }

    @Test("a dictionary's table spreads values whose low bits are all zero (whole-number DOUBLEs, times in whole seconds) and small integers",
          arguments: [Self.wholeDoubles, Self.wholeSecondTimes, (0..<1024).map(UInt64.init)])
    func dictionarySlotsSpread(words: [UInt64]) {
        // Given 1,024 distinct values whose low bits are zero
        // When each is given a slot of a 2,048-slot table
        let slots = Set(words.map { DictionaryBuilder.slot(of: $0, mask: 2047) })
        // Then they spread over the table as random values would (about 800 slots), not into a few
        #expect(slots.count > 700)
    }
}
