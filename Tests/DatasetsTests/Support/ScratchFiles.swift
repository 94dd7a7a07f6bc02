import CZlib
import Foundation
import GRDB
import TestSupport

/// Writers for plain, gzip and SQLite files in a test's scratch directory.
extension ScratchDirectory {
    /// Writes `bytes` as file `name` and returns its path.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, bytes: Array(text.utf8)) }

    /// Writes `text` gzip-compressed with zlib and returns the path.
    @discardableResult
    func writeGzip(_ name: String, _ text: String) throws -> String {
        guard let gz = gzopen(file(name), "wb") else { throw CocoaError(.fileWriteUnknown) }
        var bytes = Array(text.utf8)
        let written = bytes.isEmpty ? 0 : gzwrite(gz, &bytes, UInt32(bytes.count))
        guard gzclose(gz) == Z_OK, written == Int32(bytes.count) else { throw CocoaError(.fileWriteUnknown) }
        return file(name)
    }

    func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: file(name)))) }

    func makeDirectory(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: false)
    }

    /// Creates SQLite file `name` and runs `sql` in it; returns the path.
    @discardableResult
    func writeSQLite(_ name: String, _ sql: String) throws -> String {
        let queue = try DatabaseQueue(path: file(name))
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
        return file(name)
    }
}
