@_spi(Tooling) @testable import Analysis
import Datasets
import PaymentsCore
import Testing
import TestSupport

@Suite("Chunk sources: a file's whole lines, each in exactly one chunk")
struct ChunkSourcesTests {
    /// Every chunk a source hands out, by index.
    static func chunks(of source: any ChunkSource) throws -> [Int: String] {
        var all: [Int: String] = [:]
        while let (index, text) = try source.withNextChunk({ ($0, String(decoding: $1, as: UTF8.self)) }) { all[index] = text }
        return all
    }

    /// Random lines of 0 to 40 bytes, some without the final `\n`.
    static func text(seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        let lines = (0..<200).map { i in String(repeating: Character(UnicodeScalar(UInt8(97 + i % 26))), count: Int(random.next() % 41)) }
        return lines.joined(separator: "\n") + (seed % 2 == 0 ? "\n" : "")
    }

    @Test("mapped and read chunks of any size hold every line once, in order, cut only after a \\n",
          arguments: [1, 7, 64, 1000, 1 << 20], [1, 2, 3] as [UInt64])
    func wholeLines(chunkBytes: Int, seed: UInt64) throws {
        // Given a file of random lines, some longer than a chunk
        let dir = try ScratchDirectory(prefix: "analysis-tests")
        let text = Self.text(seed: seed)
        try dir.write("meals.csv", text)
        let file = DatasetFile(kind: .meals, path: dir.path + "/meals.csv", format: .csv, gzip: false)
        // When both sources hand out all their chunks
        let mapped = try #require(MappedChunks(file, chunkBytes: chunkBytes))
        let read = try ReaderChunks(file, chunkBytes: chunkBytes)
        let mappedChunks = try Self.chunks(of: mapped)
        let readChunks = try Self.chunks(of: read)
        // Then the mapped chunks, in index order, are the file; each but the last that is not empty ends with \n;
        // the first line is known
        let ordered = mappedChunks.keys.sorted().map { mappedChunks[$0]! }
        #expect(ordered.joined() == text)
        #expect(ordered.filter { !$0.isEmpty }.dropLast().allSatisfy { $0.hasSuffix("\n") })
        #expect(mapped.firstLine == Array(text.prefix { $0 != "\n" }.utf8))
        // And the reader's chunks hold the same text
        #expect(readChunks.keys.sorted().map { readChunks[$0]! }.joined() == text)
        #expect(read.firstLine == mapped.firstLine)
    }

    @Test("an empty file has no first line and no chunk, a gzip file is not mapped")
    func emptyAndGzip() throws {
        // Given an empty file and a gzip file
        let dir = try ScratchDirectory(prefix: "analysis-tests")
        try dir.write("empty.csv", "")
        try dir.writeGzip("meals.csv.gz", "a\nb\n")
        let empty = DatasetFile(kind: .meals, path: dir.path + "/empty.csv", format: .csv, gzip: false)
        let gzip = DatasetFile(kind: .meals, path: dir.path + "/meals.csv.gz", format: .csv, gzip: true)
        // When sources are made for them
        let sut = try #require(MappedChunks(empty, chunkBytes: 16))
        // Then the empty file has neither, and the gzip file is only read
        #expect(sut.firstLine == nil)
        #expect(try Self.chunks(of: sut).isEmpty)
        #expect(MappedChunks(gzip, chunkBytes: 16) == nil)
        #expect(try Self.chunks(of: ReaderChunks(gzip, chunkBytes: 16)) == [0: "a\nb\n"])
    }

    @Test("a line start is the byte after the first \\n from the offset's previous byte on", arguments: [
        (0, 0), (1, 2), (2, 2), (3, 5), (5, 5), (6, 6), (7, 6),
    ])
    func lineStarts(offset: Int, expected: Int) {
        // Given "a\nbc\n!" (lines start at 0, 2 and 5; 6 is the end)
        let bytes = Array("a\nbc\n!".utf8)
        // When the line start at or after an offset is looked for
        let sut = bytes.withUnsafeBufferPointer { MappedChunks.lineStart(atOrAfter: offset, in: $0) }
        // Then it is the next line's start, or the end
        #expect(sut == expected)
    }
}
