@testable import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore
import Testing
import TestSupport

@Suite("ByteArena: byte strings in one buffer")
struct ByteArenaTests {
    @Test("append returns consecutive indices and keeps every string's bytes")
    func appendAndRead() {
        // Given an empty arena
        var sut = ByteArena()
        // When three strings, one of them empty, are appended
        let indices = ["u9", "", "é"].map { text in withBytes(text) { sut.append($0) } }
        // Then they are addressed 0, 1, 2 and read back byte for byte
        #expect(indices == [0, 1, 2])
        #expect(sut.count == 3)
        #expect(sut.bytes == Array("u9é".utf8))
        #expect(sut.range(0) == 0..<2)
        #expect(sut.range(1) == 2..<2)
        #expect(sut.range(2) == 2..<4)
        #expect((0..<3).map { sut.string($0) } == ["u9", "", "é"])
        #expect(sut.withBytes(2) { Array($0) } == [0xC3, 0xA9])
    }

    @Test("sortedIndices orders by bytes: case, normalization and length matter")
    func sortedIndices() {
        // Given ids appended out of order
        var sut = ByteArena()
        for text in ["u9", "u10", "U1", "é", "e\u{301}", ""] { withBytes(text) { _ = sut.append($0) } }
        // When sorted
        let order = sut.sortedIndices()
        // Then "" < "U1" < "e\u{301}" < "u10" < "u9" < "é" by bytes (0x55 < 0x65 < 0x75 < 0xC3)
        #expect(order == [5, 2, 4, 1, 0, 3])
    }

    static func arena(_ strings: [String]) -> ByteArena {
        var arena = ByteArena()
        for text in strings { withBytes(text) { _ = arena.append($0) } }
        return arena
    }

    @Test("sortedIndices puts equal strings in index order, and leaves increasing strings as they are", arguments: [
        (["b", "a", "b", "a"], [1, 3, 0, 2]),
        (["u2", "u1", "u2"], [1, 0, 2]),
        (["u1", "u2", "u3"], [0, 1, 2]),
        ([], []),
    ] as [([String], [Int])])
    func sortedIndicesTies(strings: [String], expected: [Int]) {
        // Given strings with repeats, or already increasing
        let sut = Self.arena(strings)
        // When sorted
        let order = sut.sortedIndices()
        // Then byte order, equal strings by index
        #expect(order == expected)
    }

    @Test("firstOccurrences: strictly increasing strings need no order and repeat nothing", arguments: [
        [], ["u1"], ["u0000001", "u0000002", "u0000010"], ["", "U1", "a", "ab", "ab\u{0}", "abc", "e\u{301}", "u10", "u9", "\u{E9}"],
        ["user-0000000001", "user-00000000010", "user-0000000002"],
    ])
    func firstOccurrencesIncreasing(strings: [String]) {
        // Given strings in strictly increasing byte order (a prefix first, case and UTF-8 by bytes)
        let sut = Self.arena(strings)
        // When their first occurrences are found
        let (first, repeats) = sut.firstOccurrences()
        // Then there is nothing to sort and nothing repeated
        #expect(first == nil)
        #expect(repeats.isEmpty)
    }

    @Test("firstOccurrences: the first index of each string in byte order, and the repeats in index order", arguments: [
        // a repeat right after its first occurrence, in otherwise increasing strings
        (["u1", "u1", "u2"], [0, 2], [1]),
        // out of order, u3 three times and u1 twice
        (["u3", "u1", "u3", "u2", "u1", "u3"], [1, 3, 0], [2, 4, 5]),
        // bytes decide: "U1" (55) < "e\u{301}" (65 CC 81) < "u10" < "u9" < "é" (C3 A9); no normalization
        (["\u{E9}", "e\u{301}", "u10", "u9", "\u{E9}", "U1", "e\u{301}"], [5, 1, 2, 3, 0], [4, 6]),
        // ids that share their first 8 bytes: "…01" is a prefix of "…010", which is below "…02"
        (["user-0000000002", "user-0000000001", "user-00000000010", "user-0000000001"], [1, 2, 0], [3]),
        // a zero byte is not padding: "ab" < "ab\0"
        (["ab\u{0}", "ab", "ab"], [1, 0], [2]),
        // empty strings repeat too
        (["", "a", ""], [0, 1], [2]),
    ] as [([String], [Int], [Int])])
    func firstOccurrencesRepeated(strings: [String], expectedFirst: [Int], expectedRepeats: [Int]) {
        // Given strings out of order or repeated
        let sut = Self.arena(strings)
        // When their first occurrences are found
        let (first, repeats) = sut.firstOccurrences()
        // Then each distinct string's first index comes in byte order, and every later one is a repeat
        #expect(first == expectedFirst)
        #expect(repeats == expectedRepeats)
    }

    @Test("sortedIndices agrees with a sort of the byte arrays on random strings of up to 30 bytes", arguments: [1, 2, 3] as [UInt64])
    func sortedIndicesRandom(seed: UInt64) {
        // Given 2,000 random strings of 0 to 30 bytes from a small alphabet, many sharing their first bytes
        var random = SplitMix64(seed: seed)
        let alphabet: [UInt8] = [0x00, 0x30, 0x31, 0x61, 0xFF]
        let stems = (0..<5).map { _ in (0..<16).map { _ in alphabet[Int(random.next() % 5)] } }
        let strings = (0..<2_000).map { _ in
            Array(stems[Int(random.next() % 5)].prefix(Int(random.next() % 17))) + (0..<Int(random.next() % 15)).map { _ in alphabet[Int(random.next() % 5)] }
        }
        var sut = ByteArena()
        for string in strings { string.withUnsafeBufferPointer { _ = sut.append($0) } }
        // When sorted
        let order = sut.sortedIndices()
        // Then by bytes, equal strings by index
        #expect(order == strings.indices.sorted { strings[$0] == strings[$1] ? $0 < $1 : strings[$0].lexicographicallyPrecedes(strings[$1]) })
    }

    @Test("firstOccurrences agrees with a set of seen strings on random strings", arguments: [1, 2, 3] as [UInt64])
    func firstOccurrencesRandom(seed: UInt64) {
        // Given 2,000 random strings of 0 to 12 bytes from a small alphabet (many repeats and shared prefixes)
        var random = SplitMix64(seed: seed)
        let alphabet: [UInt8] = [0x00, 0x30, 0x31, 0x61, 0x62, 0xC3, 0xFF]
        let strings = (0..<2_000).map { _ in (0..<Int(random.next() % 13)).map { _ in alphabet[Int(random.next() % 7)] } }
        var sut = ByteArena()
        for string in strings { string.withUnsafeBufferPointer { _ = sut.append($0) } }
        // When their first occurrences are found
        let (first, repeats) = sut.firstOccurrences()
        // Then they are the strings not seen before, sorted as byte arrays, and the others are repeats
        var seen = Set<[UInt8]>()
        let isFirst = strings.map { seen.insert($0).inserted }
        let expectedFirst = strings.indices.filter { isFirst[$0] }.sorted { strings[$0].lexicographicallyPrecedes(strings[$1]) }
        #expect(first == expectedFirst)
        #expect(repeats == strings.indices.filter { !isFirst[$0] })
    }
}

@Suite("ByteStringTable: interning by bytes")
struct ByteStringTableTests {
    @Test("equal bytes get the same id; the first intern inserts")
    func interning() {
        // Given an empty table
        var sut = ByteStringTable()
        // When ids are interned, one of them twice
        let first = withBytes("p0000001") { sut.intern($0) }
        let second = withBytes("p0000002") { sut.intern($0) }
        let again = withBytes("p0000001") { sut.intern($0) }
        // Then the repeat gets the first id without inserting
        #expect(first == (0, true))
        #expect(second == (1, true))
        #expect(again == (0, false))
        #expect(sut.count == 2)
        #expect(sut.strings.string(1) == "p0000002")
    }

    @Test("precomposed and decomposed é are different ids (no normalization)")
    func noNormalization() {
        // Given a table holding the precomposed é
        var sut = ByteStringTable()
        _ = withBytes("é") { sut.intern($0) }
        // When the decomposed form is looked up and interned
        let found = withBytes("e\u{301}") { sut.find($0) }
        let interned = withBytes("e\u{301}") { sut.intern($0) }
        // Then it is new
        #expect(found == nil)
        #expect(interned == (1, true))
    }

    @Test("find answers nil before interning and the id after, empty string included", arguments: ["", "k", "a-key-longer-than-sixteen-bytes"])
    func find(text: String) {
        // Given a table with other strings
        var sut = ByteStringTable(capacity: 4)
        _ = withBytes("other") { sut.intern($0) }
        let before = withBytes(text) { sut.find($0) }
        // When the string is interned
        _ = withBytes(text) { sut.intern($0) }
        // Then find answers its id
        #expect(before == nil)
        #expect(withBytes(text) { sut.find($0) } == 1)
    }

    @Test("growing past the initial capacity keeps every id")
    func growth() {
        // Given a table sized for 1 string
        var sut = ByteStringTable(capacity: 1)
        let ids = (0..<5_000).map { "id-\($0)" }
        // When 5,000 strings are interned
        let interned = ids.map { id in withBytes(id) { sut.intern($0).id } }
        // Then ids are dense in input order and each is found again with its bytes
        #expect(interned == (0..<5_000).map(UInt32.init))
        #expect(ids.allSatisfy { id in withBytes(id) { sut.find($0) }.map { sut.strings.string(Int($0)) } == id })
        #expect(withBytes("id-5000") { sut.find($0) } == nil)
    }
}

@Suite("ShortIdIndex: inline slots for ids up to 16 bytes, a table beyond")
struct ShortIdIndexTests {
    @Test("ids of 0 to 40 bytes are found with their values", arguments: [0, 1, 8, 15, 16, 17, 40])
    func lengths(length: Int) {
        // Given an index of one id of this length among others
        let id = String(repeating: "x", count: length)
        var sut = ShortIdIndex(capacity: 3)
        withBytes("x-other") { sut.insert($0, value: 7) }
        withBytes(id) { sut.insert($0, value: 42) }
        // When looked up
        let found = withBytes(id) { sut.find($0) }
        // Then its value comes back, and a one-byte-longer id is absent
        #expect(found == 42)
        #expect(withBytes(id + "x") { sut.find($0) } == nil)
    }

    @Test("ids that differ only by trailing zero bytes are distinct")
    func trailingZeros() {
        // Given "a" and "a\0" (the same inline words, different lengths)
        var sut = ShortIdIndex(capacity: 2)
        withBytes("a") { sut.insert($0, value: 1) }
        withBytes("a\0") { sut.insert($0, value: 2) }
        // When each is looked up
        // Then each has its own value
        #expect(withBytes("a") { sut.find($0) } == 1)
        #expect(withBytes("a\0") { sut.find($0) } == 2)
        #expect(withBytes("a\0\0") { sut.find($0) } == nil)
    }

    @Test("a repeated insert keeps the first value, short or long", arguments: ["u1", "a-user-id-longer-than-16"])
    func firstWins(id: String) {
        // Given an id inserted twice
        var sut = ShortIdIndex(capacity: 2)
        withBytes(id) { sut.insert($0, value: 1) }
        withBytes(id) { sut.insert($0, value: 2) }
        // When looked up
        // Then the first value stands
        #expect(withBytes(id) { sut.find($0) } == 1)
    }

    @Test("values use all 32 bits")
    func fullValues() {
        // Given values 0 and UInt32.max
        var sut = ShortIdIndex(capacity: 2)
        withBytes("zero") { sut.insert($0, value: 0) }
        withBytes("max") { sut.insert($0, value: .max) }
        // When looked up
        // Then both come back exactly
        #expect(withBytes("zero") { sut.find($0) } == 0)
        #expect(withBytes("max") { sut.find($0) } == .max)
    }

    @Test("a full-capacity index of short and long ids finds each one")
    func many() {
        // Given 3,000 ids of 8 and of 20 bytes, as many as the capacity
        let ids = (0..<3_000).map { $0 % 2 == 0 ? "u\($0 + 1_000_000)" : "user-with-long-id-\($0 + 10)" }
        var sut = ShortIdIndex(capacity: ids.count)
        for (value, id) in ids.enumerated() { withBytes(id) { sut.insert($0, value: UInt32(value)) } }
        // When every id is looked up
        let found = ids.map { id in withBytes(id) { sut.find($0) } }
        // Then each finds its own value
        #expect(found == (0..<3_000).map { UInt32($0) })
    }
}

@Suite("UserDirectory: accepted users in id byte order")
struct UserDirectoryTests {
    static func profile(_ id: String, protocol fastingProtocol: FastingProtocol = .sixteenEight) -> UserProfile {
        UserProfile(id: id, utcOffsetMinutes: 0, fastingProtocol: fastingProtocol, sex: .male, age: 40, weightKg: 80, heightCm: 180, activity: .light)
    }

    @Test("users are indexed by the byte order of their ids")
    func order() {
        // Given users out of order, with ids that sort differently by bytes than by number or normalization
        let given = ["u9", "u10", "é", "e\u{301}", "U1", "a-user-id-longer-than-16"].map { Self.profile($0) }
        // When the directory is built
        let sut = UserDirectory(profiles: given)
        // Then index order is byte order and profiles follow their ids
        let expected = ["U1", "a-user-id-longer-than-16", "e\u{301}", "u10", "u9", "é"]
        #expect(sut.count == 6)
        #expect((0..<sut.count).map { sut.ids.string($0) } == expected)
        #expect(sut.profiles.map(\.id) == expected)
        #expect(expected.map { id in withBytes(id) { sut.index(of: $0) } } == [0, 1, 2, 3, 4, 5])
    }

    @Test("an unknown id, another normalization or an empty id has no index", arguments: ["u11", "e\u{301}", "", "U1 "])
    func unknown(id: String) {
        // Given a directory of "U1", "u10" and "é"
        let sut = UserDirectory(profiles: ["u10", "é", "U1"].map { Self.profile($0) })
        // When another id is looked up
        let index = withBytes(id) { sut.index(of: $0) }
        // Then it is not there
        #expect(index == nil)
    }

    @Test("an empty directory finds nothing")
    func empty() {
        // Given no users
        let sut = UserDirectory(profiles: [])
        // When an id is looked up
        // Then there is none
        #expect(sut.count == 0)
        #expect(withBytes("u1") { sut.index(of: $0) } == nil)
    }

    @Test("a repeated id keeps the first profile and every other user (SPEC §1: the first row counts)")
    func duplicates() {
        // Given a user listed twice with different protocols, before another user
        let given = [Self.profile("u2", protocol: .omad), Self.profile("u2", protocol: .none), Self.profile("u1")]
        // When the directory is built
        let sut = UserDirectory(profiles: given)
        // Then both users are there once, u2 with its first profile
        #expect(sut.profiles.map(\.id) == ["u1", "u2"])
        #expect(sut.profiles.map(\.fastingProtocol) == [.sixteenEight, .omad])
        #expect(withBytes("u2") { sut.index(of: $0) } == 1)
    }

    static func arena(_ ids: [[UInt8]]) -> ByteArena {
        var arena = ByteArena()
        for id in ids { id.withUnsafeBufferPointer { _ = arena.append($0) } }
        return arena
    }

    @Test("firstOfEachId keeps the first profile of each id and reports the positions of the others", arguments: [
        // in order, no repeat
        (["u0000001", "u0000002", "u0000003"], ["u0000001", "u0000002", "u0000003"], [0, 1, 2], []),
        // in order, a repeat right after the first
        (["u0000001", "u0000001", "u0000002"], ["u0000001", "u0000002"], [0, 2], [1]),
        // out of order, repeated before and after other ids
        (["u3", "u1", "u3", "u2", "u1"], ["u1", "u2", "u3"], [1, 3, 0], [2, 4]),
        // hashed ids (not numbered) with a non-ASCII id
        (["\u{E9}", "u10", "\u{E9}", "U1"], ["U1", "u10", "\u{E9}"], [3, 1, 0], [2]),
    ] as [([String], [String], [Int], [Int])])
    func firstOfEachId(ids: [String], expectedIds: [String], expectedPositions: [Int], expectedRepeats: [Int]) {
        // Given profiles in file order, each told apart by its age (its position), and their id bytes
        let profiles = ids.enumerated().map { position, id in UserProfileBuilder().id(id).age(position).build() }
        // When the directory is built
        let (sut, repeats) = UserDirectory.firstOfEachId(profiles: profiles, ids: Self.arena(ids.map { Array($0.utf8) }))
        // Then it holds each id once in byte order with the profile of its first position, and the other positions are repeats
        #expect((0..<sut.count).map { sut.ids.string($0) } == expectedIds)
        #expect(sut.profiles.map(\.age) == expectedPositions)
        #expect(repeats == expectedRepeats)
        #expect(expectedIds.map { id in withBytes(id) { sut.index(of: $0) } } == expectedIds.indices.map { UInt32($0) })
    }

    @Test("firstOfEachId tells ids apart by their bytes, also bytes that are not UTF-8 (SPEC §0)")
    func idsAreBytes() {
        // Given two ids that differ only in a byte that is not UTF-8, so their profiles' String ids are equal ("u\u{FFFD}1")
        let ids: [[UInt8]] = [[0x75, 0xFF, 0x31], [0x75, 0xFE, 0x31]]
        let profiles = ids.map { UserProfileBuilder().id(String(decoding: $0, as: UTF8.self)).build() }
        // When the directory is built
        let (sut, repeats) = UserDirectory.firstOfEachId(profiles: profiles, ids: Self.arena(ids))
        // Then both users are there, in byte order, and found by their bytes
        #expect(repeats.isEmpty)
        #expect((0..<sut.count).map { i in sut.ids.withBytes(i) { Array($0) } } == [ids[1], ids[0]])
        #expect(ids.map { id in id.withUnsafeBufferPointer { sut.index(of: $0) } } == [1, 0])
    }
}

@Suite("Array(hugePagesRepeating:count:): a table's slots, on huge pages where the kernel allows")
struct HugePageArrayTests {
    @Test("holds count copies of the value, whatever the size", arguments: [0, 1, 1_000, 3 << 20])
    func contents(count: Int) {
        // Given a count, from none to 12 MB of slots (past several 2 MB pages)
        // When an array of that many empty-slot markers is made
        let sut = [UInt32](hugePagesRepeating: .max, count: count)
        // Then it has them all, and nothing else
        #expect(sut.count == count)
        #expect(sut.allSatisfy { $0 == .max })
    }
}
