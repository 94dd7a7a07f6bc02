@_spi(Tooling) @testable import Analysis
import Datasets
import Testing
import TestSupport

@Suite("RowReading: a file's rows on this task, or chunk by chunk on several")
struct RowReadingTests {
    /// One line as `body` or `parse` saw it: its number, the tokenizer's verdict and the fields' text.
    struct Seen: Equatable, Sendable {
        var line: Int
        var verdict: RowTokenizer.Line
        var fields: [String]

        init(_ line: Int, _ verdict: RowTokenizer.Line, _ tokenizer: RowTokenizer) {
            self.line = line
            self.verdict = verdict
            fields = tokenizer.fields.prefix(DatasetKind.payments.columns.count).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    static let header = "payment_id,idempotency_key,user_id,kind,amount_minor,currency,created_at,refund_of,gateway"

    /// Rows of every kind the tokenizer tells apart: valid, blank, too short, quoted.
    static let rows = (0..<40).map { i in
        switch i % 5 {
        case 0: ""
        case 1: "p\(i),k\(i)"
        case 2: "\"p\(i)\",k\(i),u1,charge,\(i),USD,\(i),,A"
        default: "p\(i),k\(i),u1,charge,\(i),USD,\(i),,T;A"
        }
    }

    static func file(_ dir: ScratchDirectory, _ name: String, format: DatasetFormat, gzip: Bool) -> DatasetFile {
        DatasetFile(kind: .payments, path: dir.path + "/" + name, format: format, gzip: gzip)
    }

    /// The lines `forEachChunk` hands on, numbered in the file.
    static func chunked(_ file: DatasetFile, tasks: Int, chunkBytes: Int) async throws -> [Seen] {
        var seen: [Seen] = []
        try await RowReading.forEachChunk(
            file, tasks: tasks, chunkBytes: chunkBytes, start: { _ in [Seen]() },
            parse: { chunk, line, verdict, tokenizer in chunk.append(Seen(line, verdict, tokenizer)) },
            consume: { linesBefore, chunk in seen += chunk.map { var s = $0; s.line += linesBefore; return s } }
        )
        return seen
    }

    @Test("chunk by chunk, every row comes with its line in the file, as row by row",
          arguments: ["csv", "bom.csv", "csv.gz", "ndjson"], [(1, 1), (2, 7), (3, 64), (2, 1 << 20)])
    func sameLines(format: String, sizes: (tasks: Int, chunkBytes: Int)) async throws {
        // Given a payments file of every kind of row, in one format
        let dir = try ScratchDirectory(prefix: "analysis-tests")
        let file: DatasetFile
        switch format {
        case "ndjson":
            try dir.write("payments.ndjson", Self.rows.map { $0.isEmpty ? "" : "{\"payment_id\": \"\($0.prefix(4))\"}" }.joined(separator: "\n"))
            file = Self.file(dir, "payments.ndjson", format: .ndjson, gzip: false)
        case "csv.gz":
            try dir.writeGzip("payments.csv.gz", ([Self.header] + Self.rows).joined(separator: "\n") + "\n")
            file = Self.file(dir, "payments.csv.gz", format: .csv, gzip: true)
        default:
            try dir.write("payments.csv", (format == "bom.csv" ? "\u{FEFF}" : "") + ([Self.header] + Self.rows).joined(separator: "\n"))
            file = Self.file(dir, "payments.csv", format: .csv, gzip: false)
        }
        var expected: [Seen] = []
        try RowReading.forEachRow(file) { expected.append(Seen($0, $1, $2)) }
        // When it is read chunk by chunk
        let sut = try await Self.chunked(file, tasks: sizes.tasks, chunkBytes: sizes.chunkBytes)
        // Then the same rows come, with the same lines
        #expect(sut == expected)
        #expect(sut.count == 32)
    }

    @Test("chunk by chunk, a bad or missing CSV header refuses the file as row by row does", arguments: ["id,start\n1,2\n", ""])
    func badHeader(text: String) async throws {
        // Given a payments.csv without its columns
        let dir = try ScratchDirectory(prefix: "analysis-tests")
        try dir.write("payments.csv", text)
        let file = Self.file(dir, "payments.csv", format: .csv, gzip: false)
        let expected = #expect(throws: InputRefusal.self) { try RowReading.forEachRow(file) { _, _, _ in } }
        // When it is read chunk by chunk
        // Then it is refused the same way
        let refusal = try #require(expected)
        await #expect(throws: refusal) { _ = try await Self.chunked(file, tasks: 2, chunkBytes: 8) }
    }
}
