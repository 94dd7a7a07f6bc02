import Datasets
import Synchronization

/// The scan of a Parquet meals or steps table: each task takes the next unit (a row group) and
/// reads its rows in line order. A typed row that the decoder's typed reading takes
/// (`TypedCandidates`) becomes a candidate straight from its values; every other row — one the
/// typed reading refuses, or a rejected row put back at its line — is read from its CSV text
/// exactly as `TableScan` reads a CSV file, so rejections, their reasons and their line numbers
/// are those of the CSV file of the same seed.
///
/// Why two Parquet drivers (this one and `ParquetRows`, for payments): they mirror the CSV path's
/// two (`TableScan` and `RowReading.forEachChunk`). Meals and steps become candidates per user
/// partition in whatever order the tasks take the units; payments are consumed in file order,
/// because their ids and keys are interned in that order (`PaymentsStage`). One driver would either
/// hold meals' and steps' units back to hand them on in order, or lose the payments' order.
enum ParquetScan {
    static func scan<Decoder: CandidateDecoding>(
        _ file: DatasetFile, decoder: Decoder, partitions: UserPartitions, tasks: Int
    ) async throws -> [ScannedChunk<Decoder.Candidate>] {
        let units = try ParquetUnits(file)
        let header = try LineHeader(file, firstLine: units.header)
        _ = try header.tokenizer()
        // Each task's builder has room for a whole row group: grown by doubling, it would copy and touch twice the memory.
        let largest = (0..<units.table.unitCount).map(units.table.typedRowCount(ofUnit:)).max() ?? 0
        return try await withThrowingTaskGroup(of: [ScannedChunk<Decoder.Candidate>].self) { group in
            for _ in 0..<max(1, tasks) {
                group.addTask {
                    let tokenizer = try header.tokenizer()
                    var builder = ChunkBuilder<Decoder.Candidate>(partitions: partitions, capacity: max(1 << 14, largest))
                    var done: [ScannedChunk<Decoder.Candidate>] = []
                    try ParquetChunks.withSpareMemory { text, memory in
                        while let index = units.next() {
                            done.append(try scanUnit(
                                index, of: units.table, decoder: decoder, tokenizer: tokenizer, canonical: header.isCanonical,
                                into: &builder, text: text, memory: memory
                            ))
                            try Task.checkCancellation()
                        }
                    }
                    return done
                }
            }
            var all: [ScannedChunk<Decoder.Candidate>] = []
            for try await part in group { all += part }
            return all.sorted { $0.index < $1.index }
        }
    }

    /// Reads unit `index` as `TableScan.scanChunk` reads the unit's CSV text (unit 0 opening with
    /// the header), taking typed rows straight from their values where the decoder can.
    static func scanUnit<Decoder: CandidateDecoding>(
        _ index: Int, of table: ParquetTableText, decoder: Decoder, tokenizer: RowTokenizer, canonical: Bool,
        into builder: inout ChunkBuilder<Decoder.Candidate>, text: ByteBuffer, memory: TypedRowsText
    ) throws -> ScannedChunk<Decoder.Candidate> {
        var result = ScannedChunk<Decoder.Candidate>(index: index)
        var line: UInt32 = 0
        if index == 0 {
            result.emptyLines.append(0)
            line = 1
        }
        /// The text path for one line: `text` holds it with its `\n`.
        func readLines() {
            TableScan.scanLines(text.bytes, from: 0, line: &line, tokenizer: tokenizer, decoder: decoder, into: &result, builder: &builder, canonical: canonical)
        }
        // Made at the group's first run: every run of the group shares its columns.
        var columns: Decoder.TypedColumns??
        try table.forEachRun(ofUnit: index, memory: memory, typed: { run in
            func readText(row: Int) {
                text.removeAll()
                run.appendLine(row, to: text)
                readLines()
            }
            if columns == nil { columns = decoder.typedColumns(run) }
            guard let typed = columns! else {
                for row in run.rows { readText(row: row) }
                return
            }
            for row in run.rows {
                if let (candidate, idHash) = decoder.decodeTyped(row, of: typed) {
                    builder.add(candidate, idHash: idHash)
                    line += 1
                } else {
                    readText(row: row)
                }
            }
        }, rejected: { raw in
            text.removeAll()
            text.append(raw)
            text.append(StaticString("\n"))
            readLines()
        })
        result.lineCount = line
        builder.finish(into: &result)
        return result
    }
}

/// The units of a Parquet table handed out to the scan's tasks, one at a time.
final class ParquetUnits: Sendable {
    let table: ParquetTableText
    /// The CSV header of the table's text.
    let header: [UInt8]
    private let taken = Atomic<Int>(0)

    init(_ file: DatasetFile) throws {
        table = try ParquetTableText(file)
        header = Array(file.kind.columns.joined(separator: ",").utf8)
    }

    /// The next unit not yet handed out, `nil` when all were.
    func next() -> Int? {
        let index = taken.add(1, ordering: .relaxed).oldValue
        return index < table.unitCount ? index : nil
    }
}
