import Datasets
import ParallelWork
import Parquet
@_spi(Tooling) import Generation
import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `generate --format parquet`: the chunks of users of `DatasetExport` are typed by child tasks
/// from the generated values (`TypedRows`); a row with an injected fault is typed from its CSV
/// line (`TypedTable`) or, when a field is not the canonical text of its column's type, kept
/// verbatim in `rejected_rows` with its CSV line number. The writer
/// gathers whole chunks, in order, into row groups of about `rowGroupRows` rows per table, which
/// child tasks encode (`EncodedRowGroup`, from the chunks' columns) and the writer appends in order. Chunk and row-group
/// boundaries do not depend on `jobs`, so neither do the bytes.
@_spi(Tooling) public enum ParquetExport {
    /// The Parquet tables: the four dataset files, then `rejected_rows`.
    @_spi(Tooling) public static let tables = GeneratedFile.allCases.map(\.rawValue) + [RejectedRows.name]

    /// Rows a row group gathers by default before it is encoded (whole chunks: a group may hold a
    /// few more); `ExportOptions.rowGroupRows`. 64 Ki rows: a reader's unit of work about the size
    /// of `analyze`'s 4 MB chunks of CSV text, so that its memory a unit comes from the heap rather
    /// than fresh pages, and a smaller peak for `generate` (figures: docs/datasets.md, "Speed and
    /// size", and docs/performance.md, "Figures behind choices in the code").
    @_spi(Tooling) public static let rowGroupRows = 1 << 16

    /// The manifest's file name: `manifest.json`, or `manifest-shard-k.json` for shard k of a
    /// sharded export, so that the shards written into one directory keep theirs.
    @_spi(Tooling) public static func manifestName(_ selection: UserSelection) -> String {
        selection.shardCount > 1 ? "manifest-shard-\(selection.shard).json" : "manifest.json"
    }

    static func run(
        _ simulator: Simulator, selection: UserSelection, options: ExportOptions, progress: @Sendable (ExportProgress) -> Void
    ) async throws -> Manifest {
        let chunks = selection.ranges(size: DatasetExport.usersPerChunk(simulator.scenario))
        removeOtherDatasets(options: options, shard: selection)
        var tally = FaultTally()
        var usersDone = 0
        let pool = TypingPool()
        var sink = try ParquetSink(options: options, selection: selection, pool: pool)
        try await OrderedParallel.run(count: chunks.count, window: options.jobs * 2, job: { index in
            TypedChunk(simulator: simulator, selection: chunks[index], pool: pool)
        }, consume: { index, chunk in
            try await sink.add(chunk)
            tally.add(chunk.tally)
            usersDone += chunks[index].count
            progress(ExportProgress(usersDone: usersDone, usersTotal: selection.count, rowsWritten: sink.rowsAdded))
        })
        let (files, summary) = try await sink.finish()
        var manifest = Manifest(scenario: simulator.scenario, seed: simulator.seed, selection: selection, options: options, files: files, faults: tally)
        manifest.parquet = summary
        try manifest.write(to: options.directory + "/" + manifestName(selection))
        return manifest
    }

    /// Removes the dataset files of other formats (and, but for a sharded Parquet export, the
    /// Parquet shards and their manifests; a sharded one replaces only its own shard), so that the
    /// directory holds one dataset.
    static func removeOtherDatasets(options: ExportOptions, shard selection: UserSelection?) {
        let directory = options.directory
        for name in options.otherFormatsFiles { unlink(directory + "/" + name) }
        if options.format == .parquet, let selection, selection.shardCount > 1 {
            unlink(directory + "/manifest.json")
            for table in tables { unlink(directory + "/" + table + "." + ParquetLayout.fileExtension) }
            return
        }
        for table in tables {
            for (shard, files) in ParquetLayout.shards(of: directory + "/" + table) {
                for file in files { unlink(file) }
                rmdir(directory + "/" + table + "/shard=\(shard)")
            }
            rmdir(directory + "/" + table)
        }
        for name in ParquetLayout.entries(of: directory) where name.hasPrefix("manifest-shard-") && name.hasSuffix(".json") {
            unlink(directory + "/" + name)
        }
    }
}

/// One chunk of users, typed: the typed rows of each file, and the lines
/// that could not be typed (file, row index within the chunk's rows of that file, text).
struct TypedChunk: Sendable {
    var tables: [TypedTable]
    var rows: [Int]
    var rejectedFile: [UInt8] = []
    var rejectedRow: [Int] = []
    var rejectedText: [UInt8] = []
    var rejectedEnds: [Int] = []
    var tally = FaultTally()

    init(simulator: Simulator, selection: UserSelection, pool: TypingPool) {
        var scratch = pool.takeScratch()
        defer { pool.giveBack(scratch) }
        simulator.fill(&scratch.batch, with: selection)
        tally.add(scratch.batch)
        tables = []
        rows = []
        let batch = scratch.batch
        for (i, file) in GeneratedFile.allCases.enumerated() {
            var table = pool.takeTable(file)
            let count = scratch.typing.append(file, of: batch, to: &table) { row, line in
                rejectedFile.append(UInt8(i))
                rejectedRow.append(row)
                rejectedText.append(contentsOf: line)
                rejectedEnds.append(rejectedText.count)
            }
            tables.append(table)
            rows.append(count)
        }
    }
}

/// Memory reused from chunk to chunk: the batches generated and the scratch they are typed in, and
/// the chunks' typed tables, given back once their row group is encoded (fresh memory for each
/// would be paged in again, row group after row group).
final class TypingPool: Sendable {
    struct Scratch: @unchecked Sendable {
        var batch = SimulationBatch()
        var typing = TypedRows()
    }

    private let scratch = Mutex<[Scratch]>([])
    private let tables = Mutex<[[TypedTable]]>(GeneratedFile.allCases.map { _ in [] })

    func takeScratch() -> Scratch { scratch.withLock { $0.popLast() } ?? Scratch() }

    func giveBack(_ buffers: Scratch) { scratch.withLock { $0.append(buffers) } }

    /// An empty table of `file`, with the memory of one given back when there is one.
    func takeTable(_ file: GeneratedFile) -> TypedTable {
        let f = GeneratedFile.allCases.firstIndex(of: file)!
        guard var table = tables.withLock({ $0[f].popLast() }) else { return TypedTable(kind: file) }
        table.removeAll()
        return table
    }

    /// Tables of one file whose rows are no longer needed.
    func giveBack(_ given: [TypedTable]) {
        guard let file = given.first?.kind, let f = GeneratedFile.allCases.firstIndex(of: file) else { return }
        tables.withLock { $0[f].append(contentsOf: given) }
    }
}

/// Hands a value to a child task as its only owner.
private final class Handoff<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) { self.value = value }

    func take() -> Value {
        defer { value = nil }
        return value!
    }
}

/// The open Parquet files of an export, the rows gathered for each table's next row group, and
/// the row groups being encoded, oldest first.
struct ParquetSink {
    let options: ExportOptions
    let pool: TypingPool
    var writers: [ParquetFileWriter] = []
    var names: [String] = []
    var paths: [String] = []
    /// The chunks' typed tables gathered for each table's next row group (encoded as consecutive
    /// runs of its rows, not joined), and their rows.
    var gathered: [[TypedTable]]
    var gatheredRows: [Int]
    var rejected: [ParquetColumnValues]
    var encoding: [(table: Int, task: Task<EncodedRowGroup, any Error>)] = []
    /// Rows (lines after the header) added so far per dataset file, and rejected of them.
    var rowsOf: [Int]
    var rejectedOf: [Int]
    var rowsAdded: Int { rowsOf.reduce(0, +) }

    init(options: ExportOptions, selection: UserSelection, pool: TypingPool) throws {
        self.options = options
        self.pool = pool
        let files = GeneratedFile.allCases
        gathered = files.map { _ in [] }
        gatheredRows = files.map { _ in 0 }
        rejected = Self.emptyRejected()
        rowsOf = files.map { _ in 0 }
        rejectedOf = rowsOf
        for (t, table) in ParquetExport.tables.enumerated() {
            let (path, name) = ParquetLayout.file(table, in: options.directory, shard: selection.shard, of: selection.shardCount)
            if selection.shardCount > 1 { try Self.makeDirectories(for: path) }
            let schema = t < files.count ? files[t].parquetSchema : RejectedRows.schema
            let metadata = [(key: ParquetLayout.tableKey, value: table), (key: ParquetLayout.shardKey, value: "\(selection.shard)/\(selection.shardCount)")]
            writers.append(try ParquetFileWriter(path: path, schema: schema, keyValueMetadata: metadata))
            names.append(name)
            paths.append(path)
        }
    }

    static func emptyRejected() -> [ParquetColumnValues] {
        RejectedRows.schema.columns.map { ParquetColumnValues(type: $0.type) }
    }

    /// Creates `DIR/table/shard=k` for the file `DIR/table/shard=k/part-0.parquet`.
    static func makeDirectories(for path: String) throws {
        let shardDirectory = String(path[..<path.lastIndex(of: "/")!])
        for directory in [String(shardDirectory[..<shardDirectory.lastIndex(of: "/")!]), shardDirectory]
        where mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw DatasetWriteError.cannotOpen(path: directory, reason: String(cString: strerror(errno)))
        }
    }

    mutating func add(_ chunk: TypedChunk) async throws {
        for f in gathered.indices where chunk.tables[f].rows > 0 {
            gathered[f].append(chunk.tables[f])
            gatheredRows[f] += chunk.tables[f].rows
        }
        var textStart = 0
        for r in chunk.rejectedRow.indices {
            let f = Int(chunk.rejectedFile[r])
            ParquetExport.tables[f].utf8.withContiguousStorageIfAvailable { rejected[0].append(utf8: $0) }
            rejected[1].append(Int64(2 + rowsOf[f] + chunk.rejectedRow[r]))
            chunk.rejectedText.withUnsafeBufferPointer { rejected[2].append(utf8: UnsafeBufferPointer(rebasing: $0[textStart..<chunk.rejectedEnds[r]])) }
            textStart = chunk.rejectedEnds[r]
            rejectedOf[f] += 1
        }
        for f in rowsOf.indices { rowsOf[f] += chunk.rows[f] }
        for f in gathered.indices where gatheredRows[f] >= options.rowGroupRows { try await flush(f) }
        if rejected[0].count >= options.rowGroupRows { try await flush(gathered.count) }
    }

    /// Hands table `t`'s gathered rows to a child task to join and encode, and appends the oldest
    /// encoded groups while more than `jobs` are being encoded.
    mutating func flush(_ t: Int) async throws {
        let compression = options.compression
        let task: Task<EncodedRowGroup, any Error>
        if t < gathered.count {
            let parts = Handoff(gathered[t]), rows = gatheredRows[t], kind = GeneratedFile.allCases[t], pool = pool
            gathered[t] = []
            gatheredRows[t] = 0
            guard rows > 0 else { return }
            task = Task {
                let tables = parts.take()
                let group = try EncodedRowGroup(schema: kind.parquetSchema, runs: tables.map(\.columns), compression: compression)
                pool.giveBack(consume tables)
                return group
            }
        } else {
            let columns = rejected
            rejected = Self.emptyRejected()
            guard columns[0].count > 0 else { return }
            task = Task { try EncodedRowGroup(schema: RejectedRows.schema, columns: columns, compression: compression) }
        }
        encoding.append((t, task))
        while encoding.count > options.jobs { try await appendOldest() }
    }

    mutating func appendOldest() async throws {
        let (t, task) = encoding.removeFirst()
        try writers[t].append(try await task.value)
    }

    /// Encodes what is left, appends every group and closes the files; returns what the manifest says.
    mutating func finish() async throws -> ([GeneratedFile: WrittenFile], ParquetSummary) {
        for t in 0...gathered.count { try await flush(t) }
        while !encoding.isEmpty { try await appendOldest() }
        var written: [WrittenFile] = []
        for t in writers.indices {
            _ = try writers[t].finish()
            let (bytes, crc) = try FileChecksum.of(path: paths[t])
            let rows = t < rowsOf.count ? rowsOf[t] : rejectedOf.reduce(0, +)
            written.append(WrittenFile(path: names[t], rows: rows, bytes: bytes, crc32: crc))
        }
        var files: [GeneratedFile: WrittenFile] = [:]
        var typed: [GeneratedFile: Int] = [:]
        var rejectedRows: [GeneratedFile: Int] = [:]
        for (f, file) in GeneratedFile.allCases.enumerated() {
            files[file] = written[f]
            typed[file] = rowsOf[f] - rejectedOf[f]
            rejectedRows[file] = rejectedOf[f]
        }
        return (files, ParquetSummary(compression: options.compression, typedRows: typed, rejectedRows: rejectedRows, rejectedFile: written[gathered.count]))
    }
}

/// What a Parquet export adds to the manifest: the compression, per file the rows typed and the
/// rows kept in `rejected_rows`, and that table's file.
package struct ParquetSummary: Sendable {
    /// The pages' compression.
    package var compression: ParquetCompression
    /// Rows written to each typed table.
    package var typedRows: [GeneratedFile: Int]
    /// Rows of each file written to `rejected_rows`.
    package var rejectedRows: [GeneratedFile: Int]
    /// The `rejected_rows` file.
    package var rejectedFile: WrittenFile
}
