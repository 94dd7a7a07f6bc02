import DatasetText
import GRDB
import GRDBSQLite

/// Writes dataset tables into one SQLite file through GRDB: a table per dataset file with the same
/// columns, every value stored as TEXT holding exactly the CSV field (so malformed values survive
/// and a reader applies the SPEC grammars as for CSV; an empty field is the empty string), an
/// index on `user_id` created after the rows, and typed views (`meals_typed`, `SQLiteTypedViews`).
package final class SQLiteDatasetWriter {
    /// The database file.
    package let path: String
    private let queue: DatabaseQueue
    private var rowsPerTable: [String: Int] = [:]

    /// Opens (or creates) the database file at `path` for fast bulk writing (no journal, no sync).
    package init(path: String) throws {
        self.path = path
        do {
            var configuration = Configuration()
            configuration.journalMode = .default
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.inDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            }
        } catch {
            throw DatasetWriteError.sqlite("\(path): \(error)")
        }
    }

    /// Creates a table with TEXT columns (dropping any table of that name).
    package func createTable(_ name: String, columns: [String]) throws {
        let list = columns.map { "\"\($0)\" TEXT" }.joined(separator: ", ")
        try run("DROP TABLE IF EXISTS \"\(name)\"; CREATE TABLE \"\(name)\" (\(list))")
        rowsPerTable[name] = 0
    }

    /// Inserts the rows of a CSV chunk (no header, `\n` line ends, no quoting) into `table`, in one
    /// transaction.
    package func insert(csv: UnsafeBufferPointer<UInt8>, into table: String, columns: Int) throws {
        let placeholders = Array(repeating: "?", count: columns).joined(separator: ",")
        var inserted = 0
        try queue.inDatabase { db in try db.inTransaction {
            let statement = try db.cachedStatement(sql: "INSERT INTO \"\(table)\" VALUES (\(placeholders))")
            let raw = statement.sqliteStatement
            var lineStart = 0
            let base = csv.baseAddress
            while lineStart < csv.count {
                var column: Int32 = 1
                var fieldStart = lineStart
                var i = lineStart
                while true {
                    let byte = csv[i]
                    if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\n") {
                        sqlite3_bind_text(raw, column, UnsafeRawPointer(base! + fieldStart).assumingMemoryBound(to: CChar.self), Int32(i - fieldStart), nil)
                        column += 1
                        fieldStart = i + 1
                        if byte == UInt8(ascii: "\n") { break }
                    }
                    i += 1
                }
                let status = sqlite3_step(raw)
                guard status == SQLITE_DONE else {
                    throw DatasetWriteError.sqlite("\(path): inserting into \(table): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
                }
                sqlite3_reset(raw)
                inserted += 1
                lineStart = i + 1
            }
            sqlite3_clear_bindings(raw)
            return .commit
        } }
        rowsPerTable[table, default: 0] += inserted
    }

    /// Indexes every table by `user_id`, adds the typed view of each dataset table
    /// (`SQLiteTypedViews`) and closes; returns the rows per table.
    package func finish() throws -> [String: Int] {
        for table in rowsPerTable.keys.sorted() {
            try run("CREATE INDEX \"\(table)_user_id\" ON \"\(table)\" (user_id)")
        }
        for kind in DatasetKind.allCases where rowsPerTable[kind.rawValue] != nil {
            try run(SQLiteTypedViews.createStatement(kind))
        }
        try queue.close()
        return rowsPerTable
    }

    private func run(_ sql: String) throws {
        do {
            try queue.inDatabase { try $0.execute(sql: sql) }
        } catch {
            throw DatasetWriteError.sqlite("\(path): \(error)")
        }
    }
}
