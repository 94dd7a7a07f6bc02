import CZlib
import Foundation
import GRDB
import TestSupport

/// A directory whose files a test reads: its own scratch directory or a committed fixture one.
protocol FileDirectory {
    var path: String { get }
}

extension FileDirectory {
    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}

/// A committed fixture directory, only read: nothing removes it.
struct FixtureDirectory: FileDirectory {
    let path: String

    init(_ url: URL) { path = url.path }
}

/// Helpers to write dataset files in every format in a test's scratch directory.
extension ScratchDirectory: FileDirectory {
    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    }

    /// Writes `text` gzip-compressed.
    func writeGzip(_ name: String, _ text: String) throws {
        let gz = gzopen(file(name), "wb")
        defer { gzclose(gz) }
        var bytes = Array(text.utf8)
        let written = gzwrite(gz, &bytes, UInt32(bytes.count))
        guard written == Int32(bytes.count) else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Copies every file of `source` here.
    func copy(from source: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(atPath: source.appendingPathComponent(name).path, toPath: file(name))
        }
    }

    /// Writes CSV text as a SQLite table of the same name and columns (all TEXT).
    func writeSQLite(_ name: String, table: String, csv: String) throws {
        let queue = try DatabaseQueue(path: file(name))
        var lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE \(table) (" + header.map { "\"\($0)\" TEXT" }.joined(separator: ", ") + ")")
            for line in lines where !line.isEmpty {
                let given = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0) as String? }
                let values = (given + [String?](repeating: nil, count: header.count)).prefix(header.count)
                try db.execute(
                    sql: "INSERT INTO \(table) VALUES (" + header.map { _ in "?" }.joined(separator: ", ") + ")",
                    arguments: StatementArguments(Array(values))
                )
            }
        }
    }
}

/// Converts CSV text (header + rows) to NDJSON: integers as JSON numbers, the rest as strings,
/// empty values as null.
func ndjson(fromCSV csv: String) -> String {
    var lines = csv.split(separator: "\n").map(String.init)
    let header = lines.removeFirst().split(separator: ",").map(String.init)
    return lines.map { line in
        let values = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let pairs = zip(header, values).map { key, value -> String in
            if value.isEmpty { return "\"\(key)\": null" }
            if Int64(value) != nil, !value.hasPrefix("+") { return "\"\(key)\": \(value)" }
            return "\"\(key)\": \"\(value)\""
        }
        return "{" + pairs.joined(separator: ", ") + "}"
    }.joined(separator: "\n") + "\n"
}
