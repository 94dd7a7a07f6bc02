import Datasets
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Reads a dataset file row by row on the calling task (for the small files: users, payments).
enum RowReading {
    /// The chunks the file is read in, one after another (mapped in place when it is a plain file).
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
        var tokenizer: RowTokenizer? = file.format == .csv ? nil : RowTokenizer(kind: file.kind, format: .ndjson)
        var isCanonical = false
        var line = 0
        /// Reads the lines of `bytes` (whole lines).
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count {
                line += 1
                if isCanonical, let lineEnd = try canonical(base, start, bytes.count, line) {
                    start = lineEnd + 1
                    continue
                }
                let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
                let end = newline.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
                let text = UnsafeBufferPointer(start: base + start, count: end - start)
                start = end + 1
                guard let active = tokenizer else {
                    tokenizer = try RowTokenizer(kind: file.kind, csvHeader: text, file: file.name)
                    isCanonical = CanonicalRows.isCanonical(header: text, kind: file.kind)
                    continue
                }
                let verdict = active.tokenize(text)
                if verdict != .blank { try body(line, verdict, active) }
            }
        }
        let source: any ChunkSource = try MappedChunks(file, chunkBytes: Self.chunkBytes) ?? ReaderChunks(file, chunkBytes: Self.chunkBytes)
        while try source.withNextChunk({ _, bytes in try scan(bytes) }) != nil {}
        if tokenizer == nil { _ = try RowTokenizer(kind: file.kind, csvHeader: UnsafeBufferPointer(start: nil, count: 0), file: file.name) }
    }
}

extension DatasetFile {
    /// A guess of the rows the file holds, from its size and rows of about `bytesPerRow` bytes
    /// (four times as many when it is compressed), to size arrays and partitions up front; 0 when
    /// its size is unknown.
    func expectedRows(bytesPerRow: Int) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int(info.st_size) * (gzip ? 4 : 1) / bytesPerRow
    }
}
