import Foundation
import Testing
@_spi(Tooling) import RunResults
@_spi(Tooling) @testable import Reports

@Suite("HdrHistogram interval log")
struct HdrIntervalLogTests {
    @Test func eachIntervalGetsALinePerTagWithACompressedHistogram() throws {
        // Given three intervals of a paced run (service and response times)
        let result = try RunResultBuilder().with { $0.responseMicros = [300, 9_000] }.build()

        // When
        let lines = HdrIntervalLog.render(result).split(separator: "\n")

        // Then the version, start time and column lines, then service and response for each interval
        #expect(lines.first == "#[Histogram log format version 1.3]")
        #expect(lines[2] == #""StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram""#)
        let entries = lines.dropFirst(3).map { $0.split(separator: ",") }
        #expect(entries.map { String($0[0]) } == ["Tag=service", "Tag=response", "Tag=service", "Tag=response", "Tag=service", "Tag=response"])
        #expect(entries.map { String($0[1]) } == ["0.000", "0.000", "1.000", "1.000", "2.000", "2.000"])
        #expect(entries[1][3] == "9.000")
        // And each histogram opens with the V2 compressed cookie 0x1c849314
        let encoded = try #require(Data(base64Encoded: String(entries[0][4])))
        #expect(Array(encoded.prefix(4)) == [0x1c, 0x84, 0x93, 0x14])
    }

    @Test(arguments: [(UInt64(1), 1), (31, 31), (32, 32), (33, 32), (34, 33), (64, 48), (1_000, 111)])
    func valuesGoToHdrHistogramsCountsIndex(value: UInt64, index: Int) {
        // Given one significant digit: 32 sub-buckets, each bucket after the first twice as wide
        // When / Then
        #expect(CompressedHistogram.countsIndex(value) == index)
    }

    @Test func aResultWithoutSeriesGivesOnlyTheHeader() throws {
        // Given / When
        let sut = HdrIntervalLog.render(try RunResultBuilder().with { $0.intervals = 0 }.build())

        // Then
        #expect(sut.split(separator: "\n").count == 3)
    }
}
