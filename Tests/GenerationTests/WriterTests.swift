import Datasets
import Foundation
import GRDB
import Testing
import TestSupport

@Suite("Dataset writers")
struct WriterTests {
    private func encoded(_ format: TextRecordFormat, _ body: (inout RecordEncoder) -> Void) -> String {
        let buffer = ByteBuffer(capacity: 16)
        var sut = RecordEncoder(format: format, columns: ["id", "n", "x", "t"], buffer: buffer)
        body(&sut)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test("decimals in thousandths print at most 3 digits after the point", arguments: [
        (1_234_500, "1234.5"), (7000, "7"), (0, "0"), (5, "0.005"), (-250, "-0.25"), (12_345, "12.345"), (-3000, "-3"),
    ] as [(Int64, String)])
    func milli(value: Int64, text: String) {
        // Given a value in thousandths
        // When it is encoded as a CSV field
        let line = encoded(.csv) { $0.beginRecord(); $0.milli(value); $0.endRecord() }
        // Then it has no trailing zeros
        #expect(line == text + "\n")
    }

    @Test("a CSV record joins the fields with commas")
    func csvRecord() {
        // Given an id, an integer, a decimal and a text
        // When they are encoded as CSV
        let line = encoded(.csv) {
            $0.beginRecord()
            $0.id(UInt8(ascii: "m"), owner: 42, ordinal: 17)
            $0.int(-1_736_150_400)
            $0.milli(512_250)
            $0.text("snack")
            $0.endRecord()
        }
        // Then the line is exactly the SPEC spelling
        #expect(line == "m0000042-000017,-1736150400,512.25,snack\n")
    }

    @Test("an NDJSON record keys the fields by column, numbers bare and texts quoted")
    func ndjsonRecord() {
        // Given the same fields, and a text that is an integer with a suffix
        // When they are encoded as NDJSON
        let line = encoded(.ndjson) {
            $0.beginRecord()
            $0.id(UInt8(ascii: "u"), 42)
            $0.int(99)
            $0.decoratedInt(60, prefix: "+")
            $0.text("")
            $0.endRecord()
        }
        // Then it is one JSON object
        #expect(line == #"{"id":"u0000042","n":99,"x":"+60","t":""}"# + "\n")
    }

    @Test("ids of the same owner or the next ordinal in a row, of another prefix, owner or ordinal, and past the width are each spelled in full",
          arguments: [TextRecordFormat.csv, .ndjson])
    func idsInSequence(format: TextRecordFormat) {
        // Given ids whose owners repeat (as rows grouped by user do), change, come back and overflow the
        // width, and whose ordinals count up (across carries), repeat, go back and overflow theirs
        let ids: [(prefix: Character, owner: UInt64, ordinal: UInt64?)] = [
            ("s", 42, 0), ("u", 42, nil), ("s", 42, 1), ("z", 42, nil), ("s", 7, 2), ("u", 7, nil), ("u", 42, nil),
            ("p", 0, 999_998), ("k", 9_999_999, 5), ("u", 10_000_000, nil), ("u", 123_456_789, nil), ("u", 9_999_999, nil),
            ("m", 3, 8), ("m", 3, 9), ("m", 3, 10), ("m", 3, 11), ("m", 3, 11), ("m", 3, 10), ("m", 3, 99), ("m", 3, 100),
            ("m", 3, 101), ("p", 3, 999_998), ("p", 3, 999_999), ("p", 3, 1_000_000), ("p", 3, 1_000_001), ("p", 3, 0), ("p", 3, 1),
        ]
        let sut = encoded(format) { encoder in
            for id in ids {
                encoder.beginRecord()
                let prefix = id.prefix.asciiValue!
                if let ordinal = id.ordinal { encoder.id(prefix, owner: id.owner, ordinal: ordinal) } else { encoder.id(prefix, id.owner) }
                encoder.endRecord()
            }
        }
        // When they are encoded one record each
        // Then each is its prefix and zero-padded numbers, whatever came before it
        func padded(_ n: UInt64, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        let expected = ids.map { id in
            let text = "\(id.prefix)\(padded(id.owner, 7))" + (id.ordinal.map { "-" + padded($0, 6) } ?? "")
            return (format == .csv ? text : #"{"id":""# + text + #""}"#) + "\n"
        }
        #expect(sut == expected.joined())
    }

    @Test("a number wider than its padding keeps all its digits")
    func widePadding() {
        let line = encoded(.csv) { $0.beginRecord(); $0.id(UInt8(ascii: "u"), 123_456_789); $0.endRecord() }
        #expect(line == "u123456789\n")
    }

    @Test("a gzip file of several chunks decompresses to their concatenation, with checksums that match")
    func gzipChunks() throws {
        // Given three chunks of text, deflated separately
        let scratch = try ScratchDirectory(prefix: "simulation-tests")
        let path = scratch.file("t.csv.gz")
        var sut = try DatasetFileWriter(path: path, gzip: true)
        let texts = ["a,b\n", String(repeating: "1,2\n", count: 5000), ""]
        for text in texts {
            let buffer = ByteBuffer()
            buffer.append(text)
            try sut.write(PreparedChunk(encoded: buffer, rows: text.split(separator: "\n").count, compressionLevel: 1))
        }
        // When the file is finished and decompressed by gzip
        let written = try sut.finish()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Then the text is the chunks in order, and the size and checksum are the file's
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: output, as: UTF8.self) == texts.joined())
        #expect(written.rows == 5001)
        let onDisk = try FileChecksum.of(path: path)
        #expect(written.bytes == onDisk.bytes)
        #expect(written.crc32 == onDisk.crc32)
    }

    @Test("CRC-32 of a concatenation is combined from the parts")
    func crcCombine() {
        // Given "123456789", whose CRC-32 is 0xCBF43926
        let whole = Array("123456789".utf8)
        // When it is checksummed in two parts and combined
        let a = whole[..<4].withUnsafeBufferPointer { Checksum.crc32($0) }
        let b = whole[4...].withUnsafeBufferPointer { Checksum.crc32($0) }
        // Then the result is the check value of CRC-32
        #expect(Checksum.combine(a, b, lengthOfSecond: 5) == 0xCBF4_3926)
    }

    @Test("SQLite tables hold the CSV fields as TEXT, indexed by user_id")
    func sqlite() throws {
        // Given a CSV chunk with an empty field and a malformed number
        let scratch = try ScratchDirectory(prefix: "simulation-tests")
        let path = scratch.file("d.sqlite")
        let sut = try SQLiteDatasetWriter(path: path)
        try sut.createTable("meals", columns: ["meal_id", "user_id", "start"])
        let chunk = Array("m1,u0000001,1736150400\nm2,,1736.5\n".utf8)
        // When it is inserted and the file finished
        try chunk.withUnsafeBufferPointer { try sut.insert(csv: $0, into: "meals", columns: 3) }
        let rows = try sut.finish()
        // Then the rows read back as the same texts, and the index exists
        #expect(rows == ["meals": 2])
        let db = try DatabaseQueue(path: path)
        let values = try db.read { try Row.fetchAll($0, sql: "SELECT meal_id, user_id, start, typeof(start) AS t FROM meals ORDER BY rowid") }
        #expect(values.map { $0["meal_id"] as String } == ["m1", "m2"])
        #expect(values.map { $0["user_id"] as String } == ["u0000001", ""])
        #expect(values.map { $0["start"] as String } == ["1736150400", "1736.5"])
        #expect(values.map { $0["t"] as String } == ["text", "text"])
        let index = try db.read { try String.fetchOne($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index'") }
        #expect(index == "meals_user_id")
    }

    @Test("a file that cannot be created is an error naming it")
    func cannotOpen() {
        #expect(throws: DatasetWriteError.cannotOpen(path: "/nonexistent-dir/x.csv", reason: "No such file or directory")) {
            try DatasetFileWriter(path: "/nonexistent-dir/x.csv", gzip: false)
        }
    }
}
