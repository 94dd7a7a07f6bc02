import Datasets
import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Turns the fields of one row into a candidate for the analysis, or a rejection.
protocol CandidateDecoding: Sendable {
    associatedtype Candidate: UserOwned
    /// The column holding `user_id`.
    static var userColumn: Int { get }
    var users: UserDirectory { get }
    func decode(_ fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) -> RowVerdict<Candidate>
    /// The one-pass reading of a plainly valid row of a canonical CSV file (`CanonicalRows`): the
    /// candidate, its id hash and the offset of the line's end, or `nil` to take the general path.
    func decodeCanonical(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> (Candidate, idHash: UInt64, lineEnd: Int)?
    /// The columns of a Parquet row group as `decodeTyped` reads them (made once a row group, from
    /// any of its runs), `nil` to read its rows as text.
    associatedtype TypedColumns
    func typedColumns(_ run: TypedRun) -> TypedColumns?
    /// The typed reading of a plainly valid row of a Parquet row group (`TypedCandidates`): the
    /// candidate and its id hash, or `nil` to read the row's CSV text.
    func decodeTyped(_ row: Int, of columns: TypedColumns) -> (Candidate, idHash: UInt64)?
}

/// The result of scanning one chunk of a file: its accepted rows grouped by user partition, the
/// rejected rows, and the lines that hold no row (header, blank lines).
struct ScannedChunk<Candidate: Sendable>: Sendable {
    var index: Int
    /// Accepted rows, grouped by partition in input order: `rows[offsets[p]..<offsets[p + 1]]`
    /// belong to partition `p`.
    var rows: [Candidate] = []
    var offsets: [Int] = []
    /// The id hashes of the accepted rows, filed by deduplication shard in input order:
    /// `idHashes[hashOffsets[s]..<hashOffsets[s + 1]]` belong to shard `s`.
    var idHashes: [UInt64] = []
    var hashOffsets: [Int] = []
    /// The shard and the partition of each accepted row, in input order.
    var shardOfRow: [UInt8] = []
    var partitionOfRow: [UInt8] = []
    var rejections: [RowRejection] = []
    var emptyLines: [UInt32] = []
    var lineCount: UInt32 = 0

    func rows(of p: Int) -> ArraySlice<Candidate> { rows[offsets[p]..<offsets[p + 1]] }

    /// Drops what only the search for duplicates needs.
    mutating func dropIdHashes() {
        idHashes = []
        hashOffsets = []
        shardOfRow = []
        partitionOfRow = []
    }
}

/// Parses a dataset file on several tasks at once: one task reads chunks of whole lines in turn,
/// each task tokenizes and decodes the chunks it takes. Results come back in file order.
enum TableScan {
    static func scan<Decoder: CandidateDecoding>(
        _ file: DatasetFile, decoder: Decoder, partitions: UserPartitions, tasks: Int, chunkBytes: Int
    ) async throws -> [ScannedChunk<Decoder.Candidate>] {
        if file.format == .sqlite { return try [scanSQLite(file, decoder: decoder, partitions: partitions)] }
        if file.format == .parquet { return try await ParquetScan.scan(file, decoder: decoder, partitions: partitions, tasks: tasks) }
        let source = try RowReading.chunks(of: file, chunkBytes: chunkBytes)
        guard source.firstLine != nil else { return [] }
        let header = try LineHeader(file, firstLine: source.firstLine)
        _ = try header.tokenizer()
        let workers = max(1, tasks)
        return try await withThrowingTaskGroup(of: [ScannedChunk<Decoder.Candidate>].self) { group in
            for _ in 0..<workers {
                group.addTask {
                    let tokenizer = try header.tokenizer()
                    var builder = ChunkBuilder<Decoder.Candidate>(partitions: partitions)
                    var done: [ScannedChunk<Decoder.Candidate>] = []
                    while let chunk = try source.withNextChunk({ index, bytes in
                        scanChunk(
                            index: index, bytes: bytes, tokenizer: tokenizer, decoder: decoder, into: &builder,
                            skipHeader: header.isCSV && index == 0, canonical: header.isCanonical
                        )
                    }) {
                        done.append(chunk)
                        try Task.checkCancellation()
                    }
                    return done
                }
            }
            var all: [ScannedChunk<Decoder.Candidate>] = []
            for try await part in group { all += part }
            return all.sorted { $0.index < $1.index }
        }
    }

    /// A SQLite table is read on one task, as a single chunk whose lines are row numbers.
    static func scanSQLite<Decoder: CandidateDecoding>(
        _ file: DatasetFile, decoder: Decoder, partitions: UserPartitions
    ) throws -> ScannedChunk<Decoder.Candidate> {
        var result = ScannedChunk<Decoder.Candidate>(index: 0)
        var builder = ChunkBuilder<Decoder.Candidate>(partitions: partitions)
        let tokenizer = RowTokenizer(kind: file.kind, format: .sqlite)
        result.emptyLines.append(0)
        try SQLiteTables.forEachRow(file, tokenizer: tokenizer) { number in
            switch decoder.decode(tokenizer.fields) {
            case .accepted(let candidate, let idHash): builder.add(candidate, idHash: idHash)
            case .rejected(let reason, let column, let user):
                result.rejections.append(RowRejection(line: UInt32(number), reason: reason, column: column, user: user))
            }
            result.lineCount = UInt32(number) + 1
        }
        builder.finish(into: &result)
        return result
    }

    static func firstLineEnd(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    }

    static func scanChunk<Decoder: CandidateDecoding>(
        index: Int, bytes: UnsafeBufferPointer<UInt8>, tokenizer: RowTokenizer, decoder: Decoder,
        into builder: inout ChunkBuilder<Decoder.Candidate>, skipHeader: Bool, canonical: Bool
    ) -> ScannedChunk<Decoder.Candidate> {
        var result = ScannedChunk<Decoder.Candidate>(index: index)
        if bytes.baseAddress != nil {
            var position = 0
            var line: UInt32 = 0
            if skipHeader {
                result.emptyLines.append(0)
                position = firstLineEnd(in: bytes) + 1
                line = 1
            }
            scanLines(bytes, from: position, line: &line, tokenizer: tokenizer, decoder: decoder, into: &result, builder: &builder, canonical: canonical)
            result.lineCount = line
        }
        builder.finish(into: &result)
        return result
    }

    /// Reads the lines of `bytes` from offset `position` on, numbering them on from `line`: each
    /// accepted row goes to `builder`, each rejected or blank line to `result`.
    @inline(__always)
    static func scanLines<Decoder: CandidateDecoding>(
        _ bytes: UnsafeBufferPointer<UInt8>, from position: Int, line: inout UInt32, tokenizer: RowTokenizer, decoder: Decoder,
        into result: inout ScannedChunk<Decoder.Candidate>, builder: inout ChunkBuilder<Decoder.Candidate>, canonical: Bool
    ) {
        guard let base = bytes.baseAddress else { return }
        let end = bytes.count
        var position = position
        while position < end {
            if canonical, let (candidate, idHash, lineEnd) = decoder.decodeCanonical(base, start: position, end: end) {
                builder.add(candidate, idHash: idHash)
                line += 1
                position = lineEnd + 1
                continue
            }
            let newline = memchr(base + position, Int32(UInt8(ascii: "\n")), end - position)
            let lineEnd = newline.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? end
            switch tokenizer.tokenize(UnsafeBufferPointer(start: base + position, count: lineEnd - position)) {
            case .row:
                switch decoder.decode(tokenizer.fields) {
                case .accepted(let candidate, let idHash): builder.add(candidate, idHash: idHash)
                case .rejected(let reason, let column, let user):
                    result.rejections.append(RowRejection(line: line, reason: reason, column: column, user: user))
                }
            case .blank:
                result.emptyLines.append(line)
            case .malformed(let column):
                let user = decoder.userOfMalformedRow(tokenizer.fields)
                result.rejections.append(RowRejection(line: line, reason: 0, column: Int8(column ?? -1), user: user))
            }
            line += 1
            position = lineEnd + 1
        }
    }
}

extension CandidateDecoding {
    /// The accepted user a malformed row names, if its user column could be read.
    func userOfMalformedRow(_ fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) -> UInt32 {
        let field = fields[Self.userColumn]
        return field.isEmpty ? .max : users.index(of: field) ?? .max
    }
}

