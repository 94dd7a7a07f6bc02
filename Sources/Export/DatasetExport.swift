import Datasets
import ParallelWork
import Parquet
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// How `generate` writes a dataset.
@_spi(Tooling) public struct ExportOptions: Sendable {
    /// The file format of a dataset (the one enum `analyze` reads by, too).
    @_spi(Tooling) public typealias Format = DatasetFormat

    /// The directory written to.
    @_spi(Tooling) public var directory: String
    /// The version of the tool writing, for `manifest.json` (the CLI's, `simharness --version`).
    @_spi(Tooling) public var toolVersion: String
    /// The file format.
    @_spi(Tooling) public var format: Format
    /// Whether CSV and NDJSON files are gzip-compressed.
    @_spi(Tooling) public var gzip: Bool
    /// Formatting tasks; the output is the same for any value.
    @_spi(Tooling) public var jobs: Int
    /// The compression of Parquet files' pages.
    @_spi(Tooling) public var compression: ParquetCompression
    /// Rows a Parquet row group gathers (whole chunks of users) before it is encoded.
    @_spi(Tooling) public var rowGroupRows = ParquetExport.rowGroupRows

    /// The options of one export.
    @_spi(Tooling) public init(
        directory: String, toolVersion: String, format: Format = .csv, gzip: Bool = false, jobs: Int = 1, compression: ParquetCompression = .zstd
    ) {
        self.directory = directory
        self.toolVersion = toolVersion
        self.format = format
        self.gzip = gzip
        self.jobs = max(1, jobs)
        self.compression = compression
    }

    /// The SQLite file `--format sqlite` writes (one table per dataset file).
    @_spi(Tooling) public static let sqliteFileName = "dataset.sqlite"

    func fileName(_ file: GeneratedFile) -> String {
        Self.fileName(file, format: format, gzip: gzip)
    }

    static func fileName(_ file: GeneratedFile, format: Format, gzip: Bool) -> String {
        file.rawValue + "." + format.rawValue + (gzip ? ".gz" : "")
    }

    /// The dataset files an export in another format (or an unsharded Parquet export) would have
    /// written here: an export replaces them, so that the directory holds one dataset (`analyze`
    /// refuses a file in two formats).
    var otherFormatsFiles: [String] {
        let text = GeneratedFile.allCases.flatMap { file in
            [Format.csv, .ndjson].flatMap { f in [false, true].map { Self.fileName(file, format: f, gzip: $0) } }
        }
        let parquet = ParquetExport.tables.map { $0 + "." + ParquetLayout.fileExtension }
        let mine = format == .sqlite ? [Self.sqliteFileName] : format == .parquet ? [] : GeneratedFile.allCases.map(fileName)
        return (text + [Self.sqliteFileName] + parquet).filter { !mine.contains($0) }
    }
}

/// Progress of an export, reported after each chunk is written.
package struct ExportProgress: Sendable {
    /// Users written so far.
    package var usersDone: Int
    /// Users to write.
    package var usersTotal: Int
    /// Rows written so far.
    package var rowsWritten: Int
}

/// Writes a simulated dataset: the selected users are cut into fixed ranges (independent of
/// `jobs`), each range is generated and formatted by a child task into its own buffers (and
/// deflated when gzip), and the writer appends the ranges in user order. So the bytes are the
/// same whatever `jobs`, and memory holds only the ranges in flight.
package enum DatasetExport {
    /// Users per formatting chunk, from the scenario's expected rows per user (~64k rows a chunk).
    package static func usersPerChunk(_ scenario: Scenario) -> Int {
        let s = scenario.steps
        let perDay = 4 + s.boutsPerDay * (s.phoneCarry + s.watchShare * 2.2) + scenario.payments.perUserPerDay * 1.2
        return max(1, min(4096, Int(65_536 / max(1, perDay * Double(scenario.days)))))
    }

    /// Generates and writes the files; returns the manifest (also written as `manifest.json`).
    package static func run(
        _ simulator: Simulator, selection: UserSelection, options: ExportOptions,
        progress: @Sendable (ExportProgress) -> Void = { _ in }
    ) async throws -> Manifest {
        if options.format == .parquet { return try await ParquetExport.run(simulator, selection: selection, options: options, progress: progress) }
        let chunks = selection.ranges(size: usersPerChunk(simulator.scenario))
        var sink = try ExportSink(options: options)
        var tally = FaultTally()
        var usersDone = 0
        var rowsWritten = 0
        let pool = ChunkPool()
        try await OrderedParallel.run(count: chunks.count, window: options.jobs * 2, job: { index in
            try EncodedChunk(simulator: simulator, selection: chunks[index], options: options, pool: pool)
        }, consume: { index, chunk in
            try sink.write(chunk)
            pool.giveBack(chunk.buffers)
            tally.add(chunk.tally)
            usersDone += chunks[index].count
            rowsWritten += chunk.rows
            progress(ExportProgress(usersDone: usersDone, usersTotal: selection.count, rowsWritten: rowsWritten))
        })
        let files = try sink.finish()
        let manifest = Manifest(scenario: simulator.scenario, seed: simulator.seed, selection: selection, options: options, files: files, faults: tally)
        try manifest.write(to: options.directory + "/manifest.json")
        return manifest
    }
}

/// Buffers reused from chunk to chunk, so memory is not mapped and unmapped for each.
final class ChunkPool: Sendable {
    struct Buffers: @unchecked Sendable {
        var batch = SimulationBatch()
        var text = GeneratedFile.allCases.map { _ in ByteBuffer(capacity: 1 << 20) }
    }

    private let free = Mutex<[Buffers]>([])

    func take() -> Buffers { free.withLock { $0.popLast() } ?? Buffers() }

    func giveBack(_ buffers: Buffers) { free.withLock { $0.append(buffers) } }
}

/// One range of users, generated and encoded for every file.
struct EncodedChunk: Sendable {
    var parts: [GeneratedFile: PreparedChunk] = [:]
    var tally = FaultTally()
    var rows = 0
    /// The pooled buffers the parts point into.
    let buffers: ChunkPool.Buffers

    init(simulator: Simulator, selection: UserSelection, options: ExportOptions, pool: ChunkPool) throws {
        var buffers = pool.take()
        simulator.fill(&buffers.batch, with: selection)
        let batch = buffers.batch
        tally.add(batch)
        let textFormat: TextRecordFormat = options.format == .ndjson ? .ndjson : .csv
        let level: Int32? = options.gzip && options.format != .sqlite ? DatasetFileWriter.gzipLevel : nil
        for (i, file) in GeneratedFile.allCases.enumerated() {
            let buffer = buffers.text[i]
            buffer.removeAll()
            var encoder = RecordEncoder(format: textFormat, columns: file.columns, buffer: buffer)
            let count = RowRendering.encode(file, of: batch, into: &encoder)
            parts[file] = try PreparedChunk(encoded: buffer, rows: count, compressionLevel: level)
            rows += count
        }
        self.buffers = buffers
    }
}

/// The open output files of an export.
struct ExportSink {
    let options: ExportOptions
    var files: [GeneratedFile: DatasetFileWriter] = [:]
    var sqlite: SQLiteDatasetWriter?

    init(options: ExportOptions) throws {
        self.options = options
        ParquetExport.removeOtherDatasets(options: options, shard: nil)
        if options.format == .sqlite {
            let writer = try SQLiteDatasetWriter(path: options.directory + "/" + ExportOptions.sqliteFileName)
            for file in GeneratedFile.allCases { try writer.createTable(file.rawValue, columns: file.columns) }
            sqlite = writer
            return
        }
        for file in GeneratedFile.allCases {
            var writer = try DatasetFileWriter(path: options.directory + "/" + options.fileName(file), gzip: options.gzip)
            let header = ByteBuffer(capacity: 256)
            RecordEncoder(format: options.format == .ndjson ? .ndjson : .csv, columns: file.columns, buffer: header).writeHeader()
            try writer.write(PreparedChunk(encoded: header, rows: 0, compressionLevel: options.gzip ? DatasetFileWriter.gzipLevel : nil))
            files[file] = writer
        }
    }

    mutating func write(_ chunk: EncodedChunk) throws {
        for file in GeneratedFile.allCases {
            guard let part = chunk.parts[file] else { continue }
            if let sqlite {
                try sqlite.insert(csv: part.output.bytes, into: file.rawValue, columns: file.columns.count)
            } else {
                try files[file]!.write(part)
            }
        }
    }

    mutating func finish() throws -> [GeneratedFile: WrittenFile] {
        var result: [GeneratedFile: WrittenFile] = [:]
        if let sqlite {
            let rows = try sqlite.finish()
            let path = options.directory + "/" + ExportOptions.sqliteFileName
            let (bytes, crc) = try FileChecksum.of(path: path)
            for file in GeneratedFile.allCases {
                result[file] = WrittenFile(path: path, rows: rows[file.rawValue] ?? 0, bytes: bytes, crc32: crc)
            }
            return result
        }
        for file in GeneratedFile.allCases { result[file] = try files[file]!.finish() }
        return result
    }
}

extension ExportOptions {
    /// The names `--compression` accepts.
    @_spi(Tooling) public static var compressionNames: [String] { ParquetCompression.allCases.map(\.rawValue) }

    /// Sets the Parquet compression by name (one of `compressionNames`; another leaves it as it is).
    @_spi(Tooling) public mutating func setCompression(named name: String) {
        compression = ParquetCompression(rawValue: name) ?? compression
    }
}
