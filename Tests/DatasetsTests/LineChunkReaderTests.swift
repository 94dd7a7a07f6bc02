import Datasets
import Testing
import TestSupport

/// Reads every chunk of `reader` as text.
func readAll(_ reader: LineChunkReader) throws -> [(index: Int, text: String)] {
    var chunks: [(index: Int, text: String)] = []
    while let chunk = try reader.next() { chunks.append((chunk.index, chunk.withBytes { String(decoding: $0, as: UTF8.self) })) }
    return chunks
}

@Suite("LineChunkReader: whole lines of plain and gzip files")
struct LineChunkReaderTests {
    /// Writes `text` as a plain or gzip file and opens a reader on it.
    static func reader(_ dir: ScratchDirectory, _ text: String, gzip: Bool, chunkSize: Int) throws -> LineChunkReader {
        let path = gzip ? try dir.writeGzip("rows.csv.gz", text) : try dir.write("rows.csv", text)
        return try LineChunkReader(path: path, gzip: gzip, chunkSize: chunkSize)
    }

    @Test("a chunk ends at its last whole line; the rest starts the next chunk", arguments: [false, true])
    func smallChunks(gzip: Bool) throws {
        // Given three 3-byte lines read 4 bytes at a time
        let dir = try ScratchDirectory()
        let sut = try Self.reader(dir, "ab\ncd\nef\n", gzip: gzip, chunkSize: 4)
        // When every chunk is read
        let chunks = try readAll(sut)
        // Then "ab\nc" gives "ab\n", "c" + "d\ne" gives "cd\n", "e" + "f\n" gives "ef\n"
        #expect(chunks.map(\.text) == ["ab\n", "cd\n", "ef\n"])
        #expect(chunks.map(\.index) == [0, 1, 2])
        #expect(try sut.next() == nil)
    }

    @Test("a line longer than the chunk size grows the chunk until it holds the line", arguments: [false, true])
    func longLine(gzip: Bool) throws {
        // Given a 10-byte line then two short ones, read 4 bytes at a time
        let dir = try ScratchDirectory()
        let sut = try Self.reader(dir, "abcdefghij\nxy\nzz\n", gzip: gzip, chunkSize: 4)
        // When every chunk is read
        let chunks = try readAll(sut)
        // Then the buffer grows 4 → 8 → 16 bytes: "abcdefghij\nxy\nzz" ends at "xy\n", and "zz\n" follows
        #expect(chunks.map(\.text) == ["abcdefghij\nxy\n", "zz\n"])
    }

    @Test("a last line without \\n is returned whole", arguments: [false, true])
    func lastLineWithoutNewline(gzip: Bool) throws {
        // Given a file whose last line has no line end, read 4 bytes at a time
        let dir = try ScratchDirectory()
        let sut = try Self.reader(dir, "ab\ncd", gzip: gzip, chunkSize: 4)
        // When every chunk is read
        let chunks = try readAll(sut)
        // Then "ab\n" comes first and "cd" last
        #expect(chunks.map(\.text) == ["ab\n", "cd"])
    }

    @Test("an empty file has no chunk", arguments: [false, true])
    func emptyFile(gzip: Bool) throws {
        // Given an empty file
        let dir = try ScratchDirectory()
        let sut = try Self.reader(dir, "", gzip: gzip, chunkSize: 64)
        // When read
        // Then there is no chunk, now or later
        #expect(try sut.next() == nil)
        #expect(try sut.next() == nil)
    }

    static let rows: String = (0..<300).map { n in
        n == 150 ? String(repeating: "L", count: 500) : "m\(n),u\(n % 7),1700000000,\(String(repeating: "x", count: n % 23))"
    }.joined(separator: "\r\n") + "\nlast-line-without-end"

    @Test("for any chunk size, chunks hold whole lines and join into the file", arguments: [1, 7, 64, 4 << 20], [false, true])
    func wholeLines(chunkSize: Int, gzip: Bool) throws {
        // Given 300 lines of varied length, one of 500 bytes, CRLF ends and a last line without end
        let dir = try ScratchDirectory()
        let sut = try Self.reader(dir, Self.rows, gzip: gzip, chunkSize: chunkSize)
        // When every chunk is read
        let chunks = try readAll(sut)
        // Then chunks are numbered in order, all but the last end with \n, and together they are the file
        #expect(chunks.map(\.index) == Array(0..<chunks.count))
        #expect(chunks.dropLast().allSatisfy { $0.text.utf8.last == UInt8(ascii: "\n") })
        #expect(chunks.last?.text.hasSuffix("last-line-without-end") == true)
        #expect(chunks.map(\.text).joined() == Self.rows)
    }

    @Test("the reader names its file by the last path component")
    func fileName() throws {
        // Given a file in a directory
        let dir = try ScratchDirectory()
        let path = try dir.write("meals.csv", "a\n")
        // When a reader opens it
        let sut = try LineChunkReader(path: path, gzip: false)
        // Then it names the file alone
        #expect(sut.file == "meals.csv")
    }

    @Test("a missing file is refused", arguments: [false, true])
    func missingFile(gzip: Bool) throws {
        // Given a path with no file
        let dir = try ScratchDirectory()
        // When a reader opens it
        // Then the file is refused, named, with the system's reason
        #expect(throws: InputRefusal(file: "meals.csv", reason: "cannot open: No such file or directory")) {
            try LineChunkReader(path: dir.file("meals.csv"), gzip: gzip)
        }
    }

    @Test("a directory is refused as unreadable")
    func directory() throws {
        // Given a directory where a file is expected
        let dir = try ScratchDirectory()
        try dir.makeDirectory("users.csv")
        let sut = try LineChunkReader(path: dir.file("users.csv"), gzip: false)
        // When it is read
        // Then it is refused
        #expect(throws: InputRefusal(file: "users.csv", reason: "unreadable: Is a directory")) { try sut.next() }
    }

    @Test("a truncated gzip file is refused, whatever the chunk size", arguments: [64, 4 << 20])
    func truncatedGzip(chunkSize: Int) throws {
        // Given a gzip file cut in half
        let dir = try ScratchDirectory()
        try dir.writeGzip("whole.csv.gz", Self.rows)
        let whole = try dir.bytes("whole.csv.gz")
        let path = try dir.write("steps.csv.gz", bytes: Array(whole.prefix(whole.count / 2)))
        let sut = try LineChunkReader(path: path, gzip: true, chunkSize: chunkSize)
        // When it is read to the end
        let error = #expect(throws: InputRefusal.self) { _ = try readAll(sut) }
        // Then it is refused as unreadable
        #expect(error?.file == "steps.csv.gz")
        #expect(error?.reason.hasPrefix("unreadable: ") == true)
        #expect(error?.reason.hasSuffix("unexpected end of file") == true)
    }

    @Test("a gzip file without its 8-byte trailer is refused")
    func missingTrailer() throws {
        // Given a gzip file whose CRC and length are cut off
        let dir = try ScratchDirectory()
        try dir.writeGzip("whole.csv.gz", "a,b\n1,2\n")
        let whole = try dir.bytes("whole.csv.gz")
        let path = try dir.write("users.csv.gz", bytes: Array(whole.dropLast(8)))
        let sut = try LineChunkReader(path: path, gzip: true)
        // When it is read
        // Then it is refused, naming the file
        let error = #expect(throws: InputRefusal.self) { _ = try readAll(sut) }
        #expect(error?.file == "users.csv.gz")
        #expect(error?.reason.hasSuffix(": unexpected end of file") == true)
    }

    @Test("a corrupt gzip file is refused")
    func corruptGzip() throws {
        // Given a gzip file with its compressed data overwritten
        let dir = try ScratchDirectory()
        try dir.writeGzip("whole.csv.gz", Self.rows)
        var bytes = try dir.bytes("whole.csv.gz")
        for i in 20..<60 { bytes[i] = 0xFF }
        let path = try dir.write("meals.csv.gz", bytes: bytes)
        let sut = try LineChunkReader(path: path, gzip: true, chunkSize: 64)
        // When it is read
        let error = #expect(throws: InputRefusal.self) { _ = try readAll(sut) }
        // Then it is refused as unreadable
        #expect(error?.file == "meals.csv.gz")
        #expect(error?.reason.hasPrefix("unreadable: ") == true)
    }
}
