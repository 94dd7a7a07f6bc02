import Foundation
import GRDB
@_spi(Tooling) import ServiceSimulation

/// Where `LedgerService` keeps its records.
@_spi(Tooling) public enum LedgerStorage: Sendable {
    /// The simulation's durable store (`ServiceEnvironment.store`).
    case records
    /// A SQLite database on the simulation's disk (`ServiceEnvironment.disk`), through GRDB.
    case sqlite
}

/// Records in one SQLite table, each write a transaction of its own: durable at its commit with
/// `synchronous = FULL` (WAL, the connection holding the database alone, as the simulated disk needs).
final class SQLiteRecords: RecordStore, @unchecked Sendable {
    private let database: DatabaseQueue

    /// Opens (or creates) the records at `uri`; `syncsCommits` false plants `synchronous = OFF`.
    init(uri: String, syncsCommits: Bool) throws {
        var configuration = Configuration()
        let synchronous = syncsCommits ? "FULL" : "OFF"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous)")
        }
        database = try DatabaseQueue(path: uri, configuration: configuration)
        try database.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, value BLOB NOT NULL)") }
    }

    func read(_ key: String) async throws -> Data? {
        try blocking { db in try Data.fetchOne(db, sql: "SELECT value FROM records WHERE key = ?", arguments: [key]) }
    }

    func write(_ key: String, _ value: Data) async throws {
        try blocking { db in try db.execute(sql: "INSERT OR REPLACE INTO records (key, value) VALUES (?, ?)", arguments: [key, value]) }
    }

    func remove(_ key: String) async throws {
        try blocking { db in try db.execute(sql: "DELETE FROM records WHERE key = ?", arguments: [key]) }
    }

    func commit(writing records: [String: Data], removing keys: [String]) async throws {
        try database.inTransaction { db in
            for (key, value) in records.sorted(by: { $0.key < $1.key }) { try db.execute(sql: "INSERT OR REPLACE INTO records (key, value) VALUES (?, ?)", arguments: [key, value]) }
            for key in keys { try db.execute(sql: "DELETE FROM records WHERE key = ?", arguments: [key]) }
            return .commit
        }
    }

    /// Runs `body` on the calling thread (each statement its own transaction): GRDB's async variants would
    /// run it on a thread of their own, outside the simulated world.
    private func blocking<T>(_ body: (Database) throws -> T) throws -> T {
        try database.inDatabase(body)
    }

    /// Nothing to do: each write was synced at its commit.
    func sync() async throws {}

    /// Keys in byte order (SQLite's BINARY collation compares UTF-8 bytes).
    func keys(withPrefix prefix: String) async throws -> [String] {
        try blocking { db in
            try String.fetchAll(db, sql: "SELECT key FROM records WHERE substr(key, 1, ?) = ? ORDER BY key", arguments: [prefix.count, prefix])
        }
    }
}
