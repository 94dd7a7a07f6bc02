import Datasets
import Parquet
@_spi(Tooling) import Generation

extension ParquetExport {
    /// Writes dataset files given as CSV text (a header line, then `\n`-ended rows) as the Parquet
    /// tables `generate --format parquet` writes, through the same sink: each line is typed by
    /// `TypedTable` (the typing `generate` applies to a row with an injected fault) or kept verbatim in
    /// `rejected_rows` with its line number; row groups of `options.rowGroupRows` rows gathered from
    /// chunks of `linesPerChunk` lines, encoded with the export's schemas (dictionary-encoded columns
    /// included), compression and key-value metadata. A file missing from `csv` gets an empty table.
    /// For tests and fuzzing: analyzing the directory must give the outputs of the CSV files.
    @_spi(Tooling) public static func write(csv: [GeneratedFile: [UInt8]], options: ExportOptions, linesPerChunk: Int = 64) async throws {
        let pool = TypingPool()
        var sink = try ParquetSink(options: options, selection: UserSelection(users: 0..<1), pool: pool)
        // Each file's rows (after its header), as `\n`-ended lines.
        let rows: [[ArraySlice<UInt8>]] = GeneratedFile.allCases.map { file in
            guard let text = csv[file], let headerEnd = text.firstIndex(of: UInt8(ascii: "\n")) else { return [] }
            var lines: [ArraySlice<UInt8>] = []
            var start = headerEnd + 1
            while start < text.count {
                let end = text[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? text.count
                lines.append(text[start..<end])
                start = end
            }
            return lines
        }
        let chunks = max(1, (rows.map(\.count).max()! + linesPerChunk - 1) / linesPerChunk)
        for c in 0..<chunks {
            var chunk = TypedChunk(tables: [], rows: [])
            for (f, file) in GeneratedFile.allCases.enumerated() {
                var table = pool.takeTable(file)
                let lines = rows[f].dropFirst(c * linesPerChunk).prefix(linesPerChunk)
                let text = Array(lines.joined())
                let count = text.withUnsafeBufferPointer { bytes in
                    table.append(csvLines: bytes) { row, line in
                        chunk.rejectedFile.append(UInt8(f))
                        chunk.rejectedRow.append(row)
                        chunk.rejectedText.append(contentsOf: line)
                        chunk.rejectedEnds.append(chunk.rejectedText.count)
                    }
                }
                chunk.tables.append(table)
                chunk.rows.append(lines.isEmpty ? 0 : count)
            }
            try await sink.add(chunk)
        }
        _ = try await sink.finish()
    }
}

extension TypedChunk {
    /// A chunk filled by the caller.
    init(tables: [TypedTable], rows: [Int]) {
        self.tables = tables
        self.rows = rows
    }
}
