#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import DatasetText
import Parquet

/// A dataset table in Parquet (`meals.parquet`, or the shards of `meals/shard=k/`) read back as
/// the text of the CSV file of the same seed: its typed rows rendered (`TypedRowText`) and its
/// rejected rows (from the sibling `rejected_rows` table) put back at their lines. So `analyze`
/// applies every SPEC rule with the CSV decoders, and reports CSV line numbers. The text comes in
/// units (a row group each), which tasks may render at once.
package struct ParquetTableText: Sendable {
    struct Part: Sendable {
        let reader: ParquetFileReader
        /// The file's column of each of the kind's columns.
        let columnOfField: [Int]
        /// Its rejected rows, by line: the number of typed rows before each, and the raw text.
        let rejected: [(typedBefore: Int, raw: [UInt8])]
        /// The first typed row of each row group, and the row count after the last.
        let groupStarts: [Int]
    }

    /// The kind of table.
    package let kind: DatasetKind
    let parts: [Part]
    /// The (part, row group) of each unit; a part without row groups has one unit (group -1).
    let units: [(part: Int, group: Int)]
    /// The Parquet type of each of the kind's columns.
    package let types: [ParquetType]

    /// Opens the files of `file` (a `.parquet` file, or a directory of `shard=k` directories) and
    /// checks their columns and shards; refuses a file that is unreadable or not such a table.
    package init(_ file: DatasetFile) throws {
        kind = file.kind
        types = file.kind.typedColumns.map(\.parquetType)
        let shards: [(shard: Int, files: [String])] = file.path.hasSuffix("." + ParquetLayout.fileExtension)
            ? [(0, [file.path])] : ParquetLayout.shards(of: file.path)
        guard !shards.isEmpty else { throw InputRefusal(file: file.name, reason: "no shard=k directory holds a .parquet file") }
        var parts: [Part] = []
        var declaredCounts: Set<String> = []
        for (_, paths) in shards {
            for path in paths {
                let reader = try Self.open(path, name: Self.displayName(path, table: file))
                if let declared = reader.keyValueMetadata[ParquetLayout.shardKey] { declaredCounts.insert(String(declared.split(separator: "/").last ?? "")) }
                let rejected = try Self.rejectedRows(of: kind, besides: path, table: file)
                parts.append(try Part(reader: reader, columnOfField: Self.columns(of: reader, kind: kind, name: Self.displayName(path, table: file)),
                                      rejected: rejected, groupStarts: Self.groupStarts(reader)))
            }
        }
        try Self.checkShards(shards.map(\.shard), declaredCounts: declaredCounts, file: file)
        self.parts = parts
        units = parts.indices.flatMap { p in
            parts[p].reader.rowGroupCount == 0 ? [(p, -1)] : (0..<parts[p].reader.rowGroupCount).map { (p, $0) }
        }
    }

    /// The number of units of text.
    package var unitCount: Int { units.count }

    /// The typed rows of unit `index` (its row group's).
    package func typedRowCount(ofUnit index: Int) -> Int {
        let (p, group) = units[index]
        return group < 0 ? 0 : parts[p].groupStarts[group + 1] - parts[p].groupStarts[group]
    }

    /// The rows of the table, typed and rejected.
    package var rowCount: Int { parts.reduce(0) { $0 + $1.reader.rowCount + $1.rejected.count } }

    /// Appends unit `index`'s lines to `buffer`; unit 0 opens with the canonical CSV header.
    package func appendText(ofUnit index: Int, to buffer: ByteBuffer) throws {
        try appendText(ofUnit: index, to: buffer, rendering: TypedRowsText())
    }

    /// Appends unit `index`'s lines to `buffer`, rendering its rows in `rendering` (reused memory).
    package func appendText(ofUnit index: Int, to buffer: ByteBuffer, rendering: TypedRowsText) throws {
        if index == 0 { buffer.append(kind.columns.joined(separator: ",") + "\n") }
        var rendered = false
        try forEachRun(ofUnit: index, memory: rendering, typed: { run in
            if !rendered {
                rendering.render(run)
                rendered = true
            }
            rendering.appendLines(run.rows, to: buffer)
        }, rejected: { raw in
            buffer.append(raw)
            buffer.append(StaticString("\n"))
        })
    }

    /// Visits the rows of unit `index` (without the header) in the order of their lines: `typed`
    /// gets each run of typed rows of the row group (its columns decoded into the memory of
    /// `memory`), `rejected` the text of each rejected row (without its `\n`) between such runs.
    /// Refuses a column that cannot be decoded.
    package func forEachRun(
        ofUnit index: Int, memory: TypedRowsText, typed: (TypedRun) throws -> Void, rejected: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        let (p, group) = units[index]
        let part = parts[p]
        let first = group < 0 ? 0 : part.groupStarts[group]
        let end = group < 0 ? 0 : part.groupStarts[group + 1]
        let isLast = group < 0 || group == part.reader.rowGroupCount - 1
        var j = group <= 0 ? 0 : Self.firstRejected(atOrAfter: first, in: part.rejected)
        if group >= 0 {
            try read(group: group, of: part, into: &memory.columns, indices: &memory.indices)
            // The memory may hold more columns, left by a table of another kind.
            let count = types.count
            try Array(memory.columns.prefix(count)).withStorage(indices: Array(memory.indices.prefix(count))) { columns in
                func run(_ rows: Range<Int>) throws { try typed(TypedRun(columns: columns, types: types, rows: rows, groupRowCount: end - first)) }
                // The typed rows up to each rejected row that goes before one of them, then that row.
                var row = 0
                while j < part.rejected.count, part.rejected[j].typedBefore < end {
                    let before = max(row, part.rejected[j].typedBefore - first)
                    if before > row { try run(row..<before) }
                    row = before
                    try part.rejected[j].raw.withUnsafeBufferPointer { try rejected($0) }
                    j += 1
                }
                if end - first > row { try run(row..<(end - first)) }
            }
        }
        if isLast {
            while j < part.rejected.count {
                try part.rejected[j].raw.withUnsafeBufferPointer { try rejected($0) }
                j += 1
            }
        }
    }

    /// Decodes the kind's columns of row group `group` into `columns` and `indices` (reusing their memory).
    private func read(group: Int, of part: Part, into columns: inout [ParquetColumnValues], indices: inout [[UInt32]]) throws {
        while columns.count < part.columnOfField.count { columns.append(ParquetColumnValues(type: .int64)) }
        while indices.count < part.columnOfField.count { indices.append([]) }
        do {
            // Dictionary-encoded columns stay encoded: no row's bytes are copied out of the dictionary.
            for (c, column) in part.columnOfField.enumerated() {
                try part.reader.read(rowGroup: group, column: column, into: &columns[c], indices: &indices[c])
            }
        } catch let error as ParquetError {
            throw InputRefusal(file: error.file, reason: error.reason + (error.offset.map { " (at byte \($0))" } ?? ""))
        }
    }

    static func firstRejected(atOrAfter typed: Int, in rejected: [(typedBefore: Int, raw: [UInt8])]) -> Int {
        var low = 0, high = rejected.count
        while low < high {
            let mid = (low + high) / 2
            if rejected[mid].typedBefore < typed { low = mid + 1 } else { high = mid }
        }
        return low
    }

    static func displayName(_ path: String, table file: DatasetFile) -> String {
        path.hasPrefix(file.path + "/") ? file.fileName + path.dropFirst(file.path.count) : file.fileName
    }

    static func open(_ path: String, name: String) throws -> ParquetFileReader {
        do { return try ParquetFileReader(path: path) } catch let error as ParquetError {
            throw InputRefusal(file: name, reason: "unreadable Parquet file: " + error.reason + (error.offset.map { " (at byte \($0))" } ?? ""))
        }
    }

    static func groupStarts(_ reader: ParquetFileReader) -> [Int] {
        var starts = [0]
        for g in 0..<reader.rowGroupCount { starts.append(starts[g] + reader.rowCount(ofRowGroup: g)) }
        return starts
    }

    /// The file's column of each of the kind's columns; refuses a missing column or one of
    /// another type.
    static func columns(of reader: ParquetFileReader, kind: DatasetKind, name: String) throws -> [Int] {
        let present = reader.schema.columns
        return try zip(kind.columns, kind.typedColumns).map { column, type in
            guard let index = present.firstIndex(where: { $0.name == column }) else {
                throw InputRefusal(file: name, reason: "missing required column '\(column)'")
            }
            guard present[index].type == type.parquetType else {
                throw InputRefusal(file: name, reason: "column '\(column)' is \(present[index].type), expected \(type.parquetType)")
            }
            return index
        }
    }

    /// The rejected rows of `kind` in the `rejected_rows` file beside `path` (same shard), by line.
    static func rejectedRows(of kind: DatasetKind, besides path: String, table file: DatasetFile) throws
        -> [(typedBefore: Int, raw: [UInt8])]
    {
        let directory = String(file.path[..<(file.path.lastIndex(of: "/") ?? file.path.startIndex)])
        let inShard = path.dropFirst(file.path.count)
        let name = RejectedRows.name + (inShard.isEmpty ? "." + ParquetLayout.fileExtension : String(inShard))
        let sibling = directory + "/" + name
        guard access(sibling, F_OK) == 0 else { return [] }
        let reader = try open(sibling, name: name)
        let schema = reader.schema.columns
        guard let table = schema.firstIndex(where: { $0.name == "table" && $0.type == .string }),
              let line = schema.firstIndex(where: { $0.name == "line" && $0.type == .int64 }),
              let raw = schema.firstIndex(where: { $0.name == "raw" && $0.type == .string })
        else { throw InputRefusal(file: name, reason: "not a rejected_rows table (columns table STRING, line INT64, raw STRING)") }
        var rows: [(line: Int64, raw: [UInt8])] = []
        let wanted = Array(kind.rawValue.utf8)
        do {
            for g in 0..<reader.rowGroupCount {
                let tables = try reader.read(rowGroup: g, column: table)
                let lines = try reader.read(rowGroup: g, column: line)
                let raws = try reader.read(rowGroup: g, column: raw)
                for r in 0..<tables.count where !tables.isNull(r) && tables.withUTF8(r, { $0.elementsEqual(wanted) }) {
                    rows.append((lines.isNull(r) ? 0 : lines.int64(r), raws.isNull(r) ? [] : raws.withUTF8(r) { Array($0) }))
                }
            }
        } catch let error as ParquetError {
            throw InputRefusal(file: name, reason: "unreadable Parquet file: " + error.reason)
        }
        // Sorted by line, a rejected row at line L has L - 2 - (its rank) typed rows before it.
        return rows.sorted { $0.line < $1.line }.enumerated().map { rank, row in (max(0, Int(row.line) - 2 - rank), row.raw) }
    }

    /// Refuses shards that are not 0, 1, … n − 1 of the n their files declare.
    static func checkShards(_ shards: [Int], declaredCounts: Set<String>, file: DatasetFile) throws {
        guard declaredCounts.count <= 1 else {
            throw InputRefusal(file: file.name, reason: "shards of different runs (shard counts \(declaredCounts.sorted().joined(separator: ", ")))")
        }
        guard let declared = declaredCounts.first.flatMap({ Int($0) }) else { return }
        let present = Set(shards)
        if let missing = (0..<declared).first(where: { !present.contains($0) }) {
            throw InputRefusal(file: file.name, reason: "shard \(missing) of \(declared) is missing")
        }
        if let extra = shards.first(where: { $0 >= declared }) {
            throw InputRefusal(file: file.name, reason: "shard \(extra) is not one of the \(declared) shards")
        }
    }
}
