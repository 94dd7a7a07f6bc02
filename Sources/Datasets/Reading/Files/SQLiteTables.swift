import GRDB

/// Reads dataset tables from a SQLite file written by `generate --format sqlite`: one table per
/// kind, named like the kind, with the same columns as the CSV files.
package enum SQLiteTables {
    /// The table names of a SQLite file.
    package static func names(_ path: String) throws -> [String] {
        do {
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            return try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        } catch {
            throw InputRefusal(file: fileName(path), reason: "unreadable SQLite file: \(error)")
        }
    }

    /// Calls `body` with each row's number (1-based, in rowid order) after pointing the
    /// tokenizer's fields at the row's values; NULL reads as empty.
    package static func forEachRow(_ file: DatasetFile, tokenizer: RowTokenizer, _ body: (Int) throws -> Void) throws {
        let queue: DatabaseQueue
        do { queue = try DatabaseQueue(path: file.path, configuration: readOnly) } catch {
            throw InputRefusal(file: file.fileName, reason: "unreadable SQLite file: \(error)")
        }
        let columns = file.kind.columns
        var number = 0
        do {
            try read(file, queue: queue, columns: columns, number: &number, tokenizer: tokenizer, body)
        } catch let error as DatabaseError {
            // A corrupt file may read well up to some page: the rows before it were handed out, but the
            // table as a whole is refused.
            throw InputRefusal(file: file.name, line: number + 1, reason: "unreadable SQLite table: \(error.message ?? "\(error)")")
        }
    }

    private static func read(
        _ file: DatasetFile, queue: DatabaseQueue, columns: [String], number: inout Int, tokenizer: RowTokenizer,
        _ body: (Int) throws -> Void
    ) throws {
        try queue.read { db in
            let present = try Set(Row.fetchAll(db, sql: "PRAGMA table_info(\(file.kind.rawValue))").map { $0["name"] as String })
            for column in columns where !present.contains(column) && !file.kind.optionalKeys.contains(column) {
                throw InputRefusal(file: file.name, reason: "missing required column '\(column)'")
            }
            let selected = columns.map { present.contains($0) ? "\"\($0)\"" : "NULL" }.joined(separator: ", ")
            let cursor = try Row.fetchCursor(db, sql: "SELECT \(selected) FROM \(file.kind.rawValue) ORDER BY rowid")
            var scratch: [UInt8] = []
            var ends = [Int](repeating: 0, count: columns.count)
            while let row = try cursor.next() {
                number += 1
                scratch.removeAll(keepingCapacity: true)
                for c in 0..<columns.count {
                    switch row[c] as DatabaseValue {
                    case let value where value.isNull: break
                    case let value:
                        switch value.storage {
                        case .int64(let v): scratch.append(contentsOf: String(v).utf8)
                        case .double(let v): scratch.append(contentsOf: String(v).utf8)
                        case .string(let v): scratch.append(contentsOf: v.utf8)
                        case .blob(let v): scratch.append(contentsOf: v)
                        case .null: break
                        }
                    }
                    ends[c] = scratch.count
                }
                try scratch.withUnsafeBufferPointer { bytes in
                    for c in 0..<columns.count {
                        let start = c == 0 ? 0 : ends[c - 1]
                        tokenizer.fields[c] = UnsafeBufferPointer(rebasing: bytes[start..<ends[c]])
                    }
                    try body(number)
                }
            }
        }
    }

    private static var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    private static func fileName(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }
}
