import Testing
@testable import Parquet

@Suite("Column chunk and page statistics")
struct StatisticsTests {
    static func le(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// The chunk statistics and the first data page's statistics of a one-column file.
    static func statistics(_ column: ParquetColumnSchema, _ values: ParquetColumnValues) throws -> (chunk: Statistics?, page: Statistics?) {
        let bytes = try fileBytes(ParquetSchema(columns: [column]), [values])
        let sut = try #require(ChunkInspector(bytes, rowGroup: 0, column: 0))
        return (sut.meta.statistics, sut.dataPages.first?.statistics)
    }

    @Test("INT64: signed min and max, null count, in the chunk and in the page", arguments: [false, true])
    func int64(dictionary: Bool) throws {
        // Given signed values with nulls
        let values = Values.int64([5, nil, -3, .max, nil, 0], nullable: true)
        // When they are written
        let (chunk, page) = try Self.statistics(ParquetColumnSchema(name: "i", type: .int64, nullable: true, dictionary: dictionary), values)
        // Then min and max are the signed extremes, little-endian, and the null count is 2
        let expected = Statistics(nullCount: 2, min: Self.le(UInt64(bitPattern: -3)), max: Self.le(UInt64(Int64.max)))
        #expect(chunk == expected)
        #expect(page == expected)
    }

    @Test("DOUBLE: NaN is skipped, infinities count; a zero minimum is -0.0 and a zero maximum +0.0")
    func doubles() throws {
        // Given NaN and zeros of both signs, and a column of NaN only
        let zeros = Values.double([.nan, 0.0, -0.0, .nan])
        let mixed = Values.double([.nan, 2.5, -1.0, .nan])
        let nanOnly = Values.double([.nan, .nan])
        // When they are written
        let column = ParquetColumnSchema(name: "d", type: .double)
        // Then zeros give min -0.0 and max +0.0, NaN never shows, and NaN only gives no min/max
        #expect(try Self.statistics(column, zeros).chunk == Statistics(nullCount: 0, min: Self.le((-0.0).bitPattern), max: Self.le((0.0).bitPattern)))
        #expect(try Self.statistics(column, mixed).chunk == Statistics(nullCount: 0, min: Self.le((-1.0).bitPattern), max: Self.le((2.5).bitPattern)))
        #expect(try Self.statistics(column, nanOnly).chunk == Statistics(nullCount: 0, min: nil, max: nil))
        #expect(try Self.statistics(column, Values.double([.nan, .infinity, -.infinity])).chunk
            == Statistics(nullCount: 0, min: Self.le((-Double.infinity).bitPattern), max: Self.le(Double.infinity.bitPattern)))
        #expect(try Self.statistics(column, Values.double([.infinity, .nan])).chunk
            == Statistics(nullCount: 0, min: Self.le(Double.infinity.bitPattern), max: Self.le(Double.infinity.bitPattern)))
    }

    @Test("STRING: unsigned byte order, with and without a dictionary", arguments: [false, true])
    func strings(dictionary: Bool) throws {
        // Given strings where a signed comparison would put "é" (0xC3…) first
        let values = Values.string(["b", "é", "", "ab", nil], nullable: true)
        // When they are written
        let (chunk, page) = try Self.statistics(ParquetColumnSchema(name: "s", type: .string, nullable: true, dictionary: dictionary), values)
        // Then min is the empty string and max "é"
        let expected = Statistics(nullCount: 1, min: [], max: Array("é".utf8))
        #expect(chunk == expected)
        #expect(page == expected)
    }

    @Test("every page has its own statistics; the chunk's cover them all")
    func perPage() throws {
        // Given 262,144 increasing values (two pages of 131,072)
        let values = Values.int64((0..<262_144).map { Int64($0) })
        // When they are written
        let bytes = try fileBytes(ParquetSchema(columns: [ParquetColumnSchema(name: "i", type: .int64)]), [values])
        let sut = try #require(ChunkInspector(bytes, rowGroup: 0, column: 0))
        // Then each page's range is its own, and the chunk's is the whole
        #expect(sut.dataPages.map { $0.statistics?.min } == [Self.le(0), Self.le(131_072)])
        #expect(sut.dataPages.map { $0.statistics?.max } == [Self.le(131_071), Self.le(262_143)])
        #expect(sut.meta.statistics == Statistics(nullCount: 0, min: Self.le(0), max: Self.le(262_143)))
    }

    @Test("STRING min/max agree with a byte-wise comparison on random strings that share long prefixes", arguments: [1, 2, 3, 4])
    func randomStrings(seed: UInt64) throws {
        // Given 2,000 random strings (0-24 bytes over a small alphabet with bytes past 0x7F and zeros, most of them sharing
        // prefixes of 9 bytes, or of 17 for seeds 3 and 4: past the 16 bytes compared as two words)
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        let alphabet: [UInt8] = [0x00, 0x41, 0x42, 0x7F, 0x80, 0xC3, 0xFF]
        let strings: [[UInt8]] = (0..<2_000).map { _ in
            let length = next(25)
            return (0..<length).map { k in k < (seed > 2 ? 17 : 9) && next(4) > 0 ? 0x41 : alphabet[next(alphabet.count)] }
        }
        var values = ParquetColumnValues(type: .string)
        for string in strings { string.withUnsafeBufferPointer { values.append(utf8: $0) } }
        // When their statistics are computed
        let sut = ValueStatistics(values, rows: 0..<values.count).thrift
        // Then min and max are the byte-wise extremes
        #expect(sut.min == strings.min { $0.lexicographicallyPrecedes($1) })
        #expect(sut.max == strings.max { $0.lexicographicallyPrecedes($1) })
    }
}
