import Datasets
import ParallelWork

/// `RowReading.forEachChunk` for a Parquet table (`payments`), with a typed path: each unit (a row
/// group) is decoded, and each of its rows that `parseTyped` takes (from the typed columns
/// `typedColumns` makes once a group) is parsed straight from its values. Any other row, the rows of
/// a group without typed columns, and the rejected rows are read from their CSV lines as
/// `RowReading` reads a CSV chunk, so the rows, their line numbers and what the tokenizer makes of
/// them are those of the CSV text.
enum ParquetRows {
    static func forEachUnit<R: Sendable, Columns>(
        _ file: DatasetFile, tasks: Int, start: @escaping @Sendable (Int) -> R,
        parse: @escaping @Sendable (inout R, Int, RowTokenizer.Line, RowTokenizer) -> Void,
        typedColumns: @escaping @Sendable (TypedRun) -> Columns?,
        parseTyped: @escaping @Sendable (inout R, _ row: Int, Columns, _ line: Int) -> Bool,
        consume: (_ linesBefore: Int, R) throws -> Void
    ) async throws {
        let units = try ParquetUnits(file)
        let header = try LineHeader(file, firstLine: units.header)
        _ = try header.tokenizer()
        var linesBefore = 0
        try await OrderedParallel.run(count: units.table.unitCount, window: max(1, tasks) + 1, job: { index in
            try ParquetChunks.withSpareMemory { text, memory in
                try readUnit(
                    index, of: units.table, tokenizer: header.tokenizer(), text: text, memory: memory, start: start, parse: parse,
                    typedColumns: typedColumns, parseTyped: parseTyped
                )
            }
        }, consume: { _, unit in
            try consume(linesBefore, unit.result)
            linesBefore += unit.lines
        })
    }

    /// The rows of unit `index` parsed into a result, and the unit's number of lines.
    static func readUnit<R, Columns>(
        _ index: Int, of table: ParquetTableText, tokenizer: RowTokenizer, text: ByteBuffer, memory: TypedRowsText,
        start: (Int) -> R, parse: (inout R, Int, RowTokenizer.Line, RowTokenizer) -> Void,
        typedColumns: (TypedRun) -> Columns?, parseTyped: (inout R, Int, Columns, Int) -> Bool
    ) throws -> (lines: Int, result: R) {
        // Sized as the text path sizes a chunk: by the bytes of its lines (some 64 a row).
        var result = start(table.typedRowCount(ofUnit: index) * 64)
        var line = index == 0 ? 1 : 0
        /// The text path for the lines `text` holds.
        func readLines() throws {
            try RowReading.scan(text.bytes, line: &line, skipHeader: false, tokenizer: tokenizer, offering: false) { parse(&result, $0, $1, $2) }
        }
        // Made at the group's first run: every run of the group shares its columns.
        var columns: Columns??
        var rendered = false
        try table.forEachRun(ofUnit: index, memory: memory, typed: { run in
            if columns == nil { columns = typedColumns(run) }
            guard let typed = columns! else {
                if !rendered {
                    memory.render(run)
                    rendered = true
                }
                text.removeAll()
                memory.appendLines(run.rows, to: text)
                return try readLines()
            }
            for row in run.rows {
                if parseTyped(&result, row, typed, line + 1) {
                    line += 1
                    continue
                }
                text.removeAll()
                run.appendLine(row, to: text)
                try readLines()
            }
        }, rejected: { raw in
            text.removeAll()
            text.append(raw)
            text.append(StaticString("\n"))
            try readLines()
        })
        return (line, result)
    }
}
