@_spi(Tooling) @testable import Analysis
import PaymentsCore
import Testing

@Suite("The scan's buffers: GrowingBuffer and HashSet64")
struct ScanBuffersTests {
    @Test("a GrowingBuffer keeps every element in order as it grows past its capacity, and keeps its memory when emptied")
    func growingBuffer() {
        // Given a buffer for 4 elements
        var sut = GrowingBuffer<UInt32>(capacity: 4)
        // When 1,000 elements are appended, then it is emptied and 3 more are appended
        for i in 0..<1_000 { sut.append(UInt32(i * 7)) }
        let grown = Array(sut.elements)
        sut.removeAll()
        for i in 0..<3 { sut.append(UInt32(i)) }
        // Then it held the 1,000 in order, and now holds the 3
        #expect(grown == (0..<1_000).map { UInt32($0 * 7) })
        #expect(Array(sut.elements) == [0, 1, 2])
    }

    @Test("a HashSet64 tells new hashes from repeated ones, and starts empty when readied again", arguments: [1, 2, 3] as [UInt64])
    func hashSet(seed: UInt64) {
        // Given random hashes with repeats, and a set readied for all of them
        var random = SplitMix64(seed: seed)
        let hashes = (0..<5_000).map { _ in random.next() % 3_000 + 1 }
        var sut = HashSet64(capacity: 0)
        sut.removeAll(reservingCapacity: hashes.count)
        // When each is inserted, then the set is readied for fewer and more hashes and takes the first hashes again
        let fresh = hashes.map { sut.insert($0) }
        sut.removeAll(reservingCapacity: 10)
        let afterSmaller = hashes.prefix(10).map { sut.insert($0) }
        sut.removeAll(reservingCapacity: 100_000)
        let afterLarger = hashes.prefix(10).map { sut.insert($0) }
        // Then exactly the first occurrences were new, and both times the set started empty
        var seen = Set<UInt64>()
        #expect(fresh == hashes.map { seen.insert($0).inserted })
        var seenAgain = Set<UInt64>()
        let expectedAgain = hashes.prefix(10).map { seenAgain.insert($0).inserted }
        #expect(afterSmaller == expectedAgain)
        #expect(afterLarger == expectedAgain)
    }
}
