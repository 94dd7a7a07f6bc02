import Datasets

/// Reads a dataset file row by row on the calling task (for the small files: users, payments).
enum RowReading {
    /// Calls `body` with each line's number (1-based), what the tokenizer made of it, and the tokenizer.
    static func forEachRow(
        _ file: DatasetFile, _ body: (Int, RowTokenizer.Line, RowTokenizer) throws -> Void
    ) throws {
        if file.format == .sqlite {
            let tokenizer = RowTokenizer(kind: file.kind, format: .sqlite)
            try SQLiteTables.forEachRow(file, tokenizer: tokenizer) { try body($0, .row, tokenizer) }
            return
        }
        let reader = try LineChunkReader(path: file.path, gzip: file.gzip)
        var tokenizer: RowTokenizer? = file.format == .csv ? nil : RowTokenizer(kind: file.kind, format: .ndjson)
        var line = 0
        var spare: [UInt8]?
        while let chunk = try reader.next(reusing: spare.take()) {
            try chunk.withBytes { bytes in
                var start = 0
                while start < bytes.count {
                    let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                    let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
                    line += 1
                    start = end + 1
                    guard let active = tokenizer else {
                        tokenizer = try RowTokenizer(kind: file.kind, csvHeader: text, file: file.name)
                        continue
                    }
                    let verdict = active.tokenize(text)
                    if verdict != .blank { try body(line, verdict, active) }
                }
            }
            spare = chunk.storage
        }
        if tokenizer == nil { _ = try RowTokenizer(kind: file.kind, csvHeader: UnsafeBufferPointer(start: nil, count: 0), file: file.name) }
    }
}
