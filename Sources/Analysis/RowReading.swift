import Datasets
import ParallelWork
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Reads a dataset file row by row: on the calling task (`forEachRow`: users), or chunk by chunk on
/// several tasks with the chunks handed on in file order (`forEachChunk`: payments).
enum RowReading {
    /// The chunks the file is read in (mapped in place when it is a plain file).
    static let chunkBytes = 4 << 20

    /// Calls `body` with each line's number (1-based), what the tokenizer made of it, and the tokenizer.
    ///
    /// In a CSV file whose header is canonical (`CanonicalRows.isCanonical`), each line is first
    /// offered to `canonical` with the chunk's base, the line's start, the chunk's end and the
    /// line's number: it returns the offset of the line's end when it took the line, or `nil` to
    /// leave the line to the tokenizer and `body`.
    static func forEachRow(
        _ file: DatasetFile,
        canonical: (UnsafePointer<UInt8>, Int, Int, Int) throws -> Int? = { _, _, _, _ in nil },
        _ body: (Int, RowTokenizer.Line, RowTokenizer) throws -> Void
    ) throws {
        if file.format == .sqlite {
            let tokenizer = RowTokenizer(kind: file.kind, format: .sqlite)
            try SQLiteTables.forEachRow(file, tokenizer: tokenizer) { try body($0, .row, tokenizer) }
            return
        }
        let source = try chunks(of: file, chunkBytes: chunkBytes)
        let header = try LineHeader(file, firstLine: source.firstLine)
        let tokenizer = try header.tokenizer()
        var line = 0
        while try source.withNextChunk({ index, bytes in
            try scan(
                bytes, line: &line, skipHeader: header.isCSV && index == 0, tokenizer: tokenizer, offering: header.isCanonical,
                to: canonical, body
            )
        }) != nil {}
    }

    /// Reads a CSV or NDJSON file's chunks on up to `tasks` child tasks at once: `parse` gets each
    /// line of one chunk (its number counted from the chunk's start, what the tokenizer made of it,
    /// and the chunk's tokenizer) to add to the chunk's result, which `start` makes for the chunk's
    /// size in bytes; `consume` then gets the results in file order, each with the number of lines
    /// before its chunk. At most `tasks + 1` chunks are read and not yet consumed.
    static func forEachChunk<R: Sendable>(
        _ file: DatasetFile, tasks: Int, chunkBytes: Int = RowReading.chunkBytes, start: @escaping @Sendable (Int) -> R,
        parse: @escaping @Sendable (inout R, Int, RowTokenizer.Line, RowTokenizer) -> Void,
        consume: (_ linesBefore: Int, R) throws -> Void
    ) async throws {
        let source = try chunks(of: file, chunkBytes: chunkBytes)
        let header = try LineHeader(file, firstLine: source.firstLine)
        _ = try header.tokenizer()
        var linesBefore = 0
        try await OrderedParallel.run(window: max(1, tasks) + 1, next: {
            try source.withNextChunk { index, bytes in
                var result = start(bytes.count)
                var lines = 0
                try scan(bytes, line: &lines, skipHeader: header.isCSV && index == 0, tokenizer: header.tokenizer(), offering: false) {
                    parse(&result, $0, $1, $2)
                }
                return (index, (lines, result))
            }
        }, consume: { _, chunk in
            try consume(linesBefore, chunk.1)
            linesBefore += chunk.0
        })
    }

    static func chunks(of file: DatasetFile, chunkBytes: Int) throws -> any ChunkSource {
        if file.format == .parquet { return try ParquetChunks(file) }
        return try MappedChunks(file, chunkBytes: chunkBytes) ?? ReaderChunks(file, chunkBytes: chunkBytes)
    }

    /// Reads the whole lines of `bytes`, numbering them on from `line`; the first is the file's
    /// header when `skipHeader`. When `offering`, each line goes to `canonical` first (see `forEachRow`).
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, line: inout Int, skipHeader: Bool, tokenizer: RowTokenizer,
        offering: Bool, to canonical: (UnsafePointer<UInt8>, Int, Int, Int) throws -> Int? = { _, _, _, _ in nil },
        _ body: (Int, RowTokenizer.Line, RowTokenizer) throws -> Void
    ) throws {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        if skipHeader {
            line += 1
            start = TableScan.firstLineEnd(in: bytes) + 1
        }
        while start < bytes.count {
            line += 1
            if offering, let lineEnd = try canonical(base, start, bytes.count, line) {
                start = lineEnd + 1
                continue
            }
            let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            let end = newline.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
            let verdict = tokenizer.tokenize(UnsafeBufferPointer(start: base + start, count: end - start))
            start = end + 1
            if verdict != .blank { try body(line, verdict, tokenizer) }
        }
    }
}

/// What the first line of a CSV or NDJSON file says about the rest: a CSV file's header, checked
/// (a missing or wrong header refuses the file), and whether it is the canonical one.
struct LineHeader: Sendable {
    let file: DatasetFile
    /// The CSV header, `nil` for NDJSON.
    let csv: [UInt8]?
    let isCanonical: Bool
    var isCSV: Bool { csv != nil }

    init(_ file: DatasetFile, firstLine: [UInt8]?) throws {
        self.file = file
        csv = file.format == .csv || file.format == .parquet ? firstLine ?? [] : nil
        isCanonical = csv?.withUnsafeBufferPointer { CanonicalRows.isCanonical(header: $0, kind: file.kind) } ?? false
    }

    /// A tokenizer for the file's rows; throws the refusal of a bad CSV header.
    func tokenizer() throws -> RowTokenizer {
        guard let csv else { return RowTokenizer(kind: file.kind, format: .ndjson) }
        return try csv.withUnsafeBufferPointer { try RowTokenizer(kind: file.kind, csvHeader: $0, file: file.name) }
    }
}

extension DatasetFile {
    /// A guess of the rows the file holds, from its size and rows of about `bytesPerRow` bytes
    /// (four times as many when it is compressed; a Parquet table's own count), to size arrays and
    /// partitions up front; 0 when its size is unknown.
    func expectedRows(bytesPerRow: Int) -> Int {
        if format == .parquet { return (try? ParquetTableText(self).rowCount) ?? 0 }
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int(info.st_size) * (gzip ? 4 : 1) / bytesPerRow
    }
}
