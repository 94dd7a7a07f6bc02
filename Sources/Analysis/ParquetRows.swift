import Datasets
import ParallelWork

/// `RowReading.forEachChunk` for a Parquet table (`payments`): each unit (a row group) is rendered
/// column by column (`TypedRowsText`), and each typed row's rendered fields go to `parse` as the
/// tokenizer's fields, without joining them into a line and splitting it again — when no field of
/// the row group holds a byte that would split otherwise (`fieldsArePlain`). Any other row group,
/// and the rejected rows, are read from their CSV lines as `RowReading` reads a CSV chunk, so the
/// rows, their line numbers and what the tokenizer makes of them are those of the CSV text.
enum ParquetRows {
    static func forEachUnit<R: Sendable>(
        _ file: DatasetFile, tasks: Int, start: @escaping @Sendable (Int) -> R,
        parse: @escaping @Sendable (inout R, Int, RowTokenizer.Line, RowTokenizer) -> Void,
        consume: (_ linesBefore: Int, R) throws -> Void
    ) async throws {
        let units = try ParquetUnits(file)
        let header = try LineHeader(file, firstLine: units.header)
        _ = try header.tokenizer()
        var linesBefore = 0
        try await OrderedParallel.run(count: units.table.unitCount, window: max(1, tasks) + 1, job: { index in
            try ParquetChunks.withSpareMemory { text, memory in
                try readUnit(index, of: units.table, tokenizer: header.tokenizer(), text: text, memory: memory, start: start, parse: parse)
            }
        }, consume: { _, unit in
            try consume(linesBefore, unit.result)
            linesBefore += unit.lines
        })
    }

    /// The rows of unit `index` parsed into a result, and the unit's number of lines.
    static func readUnit<R>(
        _ index: Int, of table: ParquetTableText, tokenizer: RowTokenizer, text: ByteBuffer, memory: TypedRowsText,
        start: (Int) -> R, parse: (inout R, Int, RowTokenizer.Line, RowTokenizer) -> Void
    ) throws -> (lines: Int, result: R) {
        var result: R?
        var line = index == 0 ? 1 : 0
        /// The text path for the lines `text` holds.
        func readLines() throws {
            var parsed = result.take() ?? start(text.count)
            try RowReading.scan(text.bytes, line: &line, skipHeader: false, tokenizer: tokenizer, offering: false) { parse(&parsed, $0, $1, $2) }
            result = parsed
        }
        var rendered = false
        try table.forEachRun(ofUnit: index, memory: memory, typed: { run in
            if !rendered {
                memory.render(run)
                rendered = true
            }
            guard memory.fieldsArePlain else {
                text.removeAll()
                memory.appendLines(run.rows, to: text)
                return try readLines()
            }
            // Sized as the text path sizes it: by the bytes of the unit's lines (some 64 a row).
            var parsed = result.take() ?? start(run.groupRowCount * 64)
            for row in run.rows {
                line += 1
                memory.setFields(row: row, tokenizer.fields)
                parse(&parsed, line, .row, tokenizer)
            }
            result = parsed
        }, rejected: { raw in
            text.removeAll()
            text.append(raw)
            text.append(StaticString("\n"))
            try readLines()
        })
        return (line, result ?? start(0))
    }
}
