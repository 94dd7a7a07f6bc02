@testable import Datasets
@_spi(Tooling) import HealthCore
import PaymentsCore
import Testing

@Suite("NumberedIdIndex: ids that are a prefix and fixed-width digits, looked up by number")
struct NumberedIdIndexTests {
    static func arena(_ ids: [String]) -> ByteArena {
        var arena = ByteArena()
        for id in ids { withBytes(id) { _ = arena.append($0) } }
        return arena
    }

    static func find(_ id: String, in sut: NumberedIdIndex) -> UInt32? {
        withBytes(id) { bytes in
            bytes.count <= 8 ? sut.find(low: NumberedIdIndex.word(bytes), high: 0, count: bytes.count) : nil
        }
    }

    @Test("ids of one prefix and one width, in increasing order, are indexed by their number")
    func lookup() throws {
        // Given u0000002, u0000007 and u0000010 at positions 0, 1 and 2
        let sut = try #require(NumberedIdIndex(ids: Self.arena(["u0000002", "u0000007", "u0000010"])))
        // When each id and some others are looked up
        // Then each id finds its position, and a missing number, another width or prefix, or a non-digit finds none
        #expect(sut.prefixLength == 1)
        #expect(sut.blocks.count == 1)
        #expect(["u0000002", "u0000007", "u0000010"].map { Self.find($0, in: sut) } == [0, 1, 2])
        #expect(["u0000003", "u000007", "v0000007", "u000000x", "u00000:7", "", "u0000007 "].map { Self.find($0, in: sut) }
            == [nil, nil, nil, nil, nil, nil, nil])
    }

    @Test("an id's position is the count of ids below it, across the blocks of 64 numbers")
    func blockEdges() throws {
        // Given numbers at and around the edges of blocks of 64, and a gap of whole empty blocks
        let numbers = [0, 1, 62, 63, 64, 65, 127, 128, 191, 500, 511, 512, 1023]
        let ids = numbers.map { "n" + String(String($0 + 10_000).dropFirst()) }
        // When they are indexed and every number up to 1,100 is looked up
        let sut = try #require(NumberedIdIndex(ids: Self.arena(ids)))
        let found = (0...1_100).map { Self.find("n" + String(String($0 + 10_000).dropFirst()), in: sut) }
        // Then each id finds its position and every other number finds none
        #expect(sut.blocks.count == 16)
        #expect(found == (0...1_100).map { number in numbers.firstIndex(of: number).map { UInt32($0) } })
    }

    @Test("in a block of 64 numbers all present, an id's position is the ids below the block plus its place in it")
    func fullBlocks() throws {
        // Given two full blocks, a partial one, a full block after a gap, and one more number
        let numbers = Array(0..<130) + [200] + Array(256..<320) + [321]
        let ids = numbers.map { "n" + String(String($0 + 10_000).dropFirst()) }
        // When they are indexed and every number up to 400 is looked up
        let sut = try #require(NumberedIdIndex(ids: Self.arena(ids)))
        let found = (0...400).map { Self.find("n" + String(String($0 + 10_000).dropFirst()), in: sut) }
        // Then each id finds its position and every other number finds none
        #expect(sut.blocks.map { $0.present == .max } == [true, true, false, false, true, false])
        #expect(found == (0...400).map { number in numbers.firstIndex(of: number).map { UInt32($0) } })
    }

    @Test("the prefix may be empty or longer, and the digits may be all of the id but the prefix", arguments: [
        (["07", "12", "99"], 0), (["user-01", "user-02"], 5), (["ab-c0", "ab-c9"], 4),
    ])
    func prefixes(ids: [String], prefixLength: Int) throws {
        // Given ids sharing `prefixLength` bytes, then digits
        // When they are indexed
        let sut = try #require(NumberedIdIndex(ids: Self.arena(ids)))
        // Then the prefix is found and each id finds its position
        #expect(sut.prefixLength == prefixLength)
        #expect(ids.map { Self.find($0, in: sut) } == ids.indices.map { UInt32($0) })
    }

    @Test("ids of another shape get no numbered index", arguments: [
        [] as [String],
        ["u01", "u001"], // two widths
        ["u01", "v02"], // two prefixes
        ["u0a", "u01"], // a letter last
        ["user"], // no digit
        ["u000000001"], // over 8 bytes
        ["u99999999"], // 9 bytes
        ["u0000000", "u9999999"], // 10 M numbers for 2 ids: too sparse
        ["u0000007", "u0000002"], // decreasing
        ["u0000007", "u0000007"], // repeated
    ])
    func refused(ids: [String]) {
        // Given ids that are not all one prefix then fixed-width digits, not increasing, or too sparse
        // When they are indexed
        let sut = NumberedIdIndex(ids: Self.arena(ids))
        // Then there is no numbered index
        #expect(sut == nil)
    }

    @Test("a directory of numbered ids answers as one of hashed ids (random ids and probes)", arguments: [1, 2, 3] as [UInt64])
    func sameAnswersAsHashed(seed: UInt64) {
        // Given 2,000 random distinct numbers as u-prefixed 6-digit ids, and a directory of them
        var random = SplitMix64(seed: seed)
        var numbers = Set<Int>()
        while numbers.count < 2_000 { numbers.insert(Int(random.next() % 20_000)) }
        let ids = numbers.map { "u" + String(String($0 + 1_000_000).dropFirst()) }
        let sut = UserDirectory(profiles: ids.map { UserDirectoryTests.profile($0) })
        var hashed = ShortIdIndex(capacity: ids.count)
        for rank in 0..<sut.count { sut.ids.withBytes(rank) { hashed.insert($0, value: UInt32(rank)) } }
        // When every id and 2,000 random probes are looked up in both
        let probes = ids + (0..<2_000).map { _ in "u" + String(String(Int(random.next() % 40_000) + 1_000_000).dropFirst()) }
        // Then the numbered directory answers exactly as the hash table, and it is the numbered one
        #expect(probes.map { id in withBytes(id) { sut.index(of: $0) } } == probes.map { id in withBytes(id) { hashed.find($0) } })
        #expect(!sut.benefitsFromPrefetch)
    }
}
