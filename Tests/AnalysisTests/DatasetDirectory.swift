import CZlib
import Foundation
import GRDB

/// A scratch directory for one test, with helpers to write dataset files in every format.
struct DatasetDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("simharness-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    init(existing: URL) { url = existing }

    var path: String { url.path }

    func remove() { try? FileManager.default.removeItem(at: url) }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func read(_ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path) }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    /// Writes `text` gzip-compressed.
    func writeGzip(_ name: String, _ text: String) throws {
        let file = gzopen(url.appendingPathComponent(name).path, "wb")
        defer { gzclose(file) }
        var bytes = Array(text.utf8)
        let written = gzwrite(file, &bytes, UInt32(bytes.count))
        guard written == Int32(bytes.count) else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Copies every file of `source` here.
    func copy(from source: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: url.appendingPathComponent(name))
        }
    }

    /// Writes CSV text as a SQLite table of the same name and columns (all TEXT).
    func writeSQLite(_ file: String, table: String, csv: String) throws {
        let queue = try DatabaseQueue(path: url.appendingPathComponent(file).path)
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
