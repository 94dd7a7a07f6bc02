@_spi(Tooling) import SimulationCore
import Foundation
import GRDB
@_spi(Tooling) import PaymentService
@_spi(Tooling) @testable import PaymentSimulation
import TestSupport
import Testing

/// A `--resume` meets whatever is on disk: every hostile store or truth file is refused with a
/// `SimulationError` that names the file, the row and what is wrong, never a trap.
@Suite("Resuming a hostile store", .budget(minutes: 2))
struct HostileStoreTests {
    static let configuration = WorldConfiguration(seed: 4, payments: 80, clients: 4, faults: try? FaultMix(parsing: "timeout=0.2,lost=0.2,decline=0.1"))

    /// A store of `configuration`'s world run to its end; returns its path.
    static func store(in scratch: ScratchDirectory) throws -> String {
        let path = scratch.file("hostile.sqlite")
        let report = try PaymentWorldSimulator.run(configuration, store: .init(kind: .sqlite, database: path))
        try #require(report.violation == nil)
        return path
    }

    /// Runs `sql` on the store at `path`.
    static func tamper(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }

    static func resume(_ path: String, _ configuration: WorldConfiguration = configuration) throws -> PaymentWorldReport {
        try PaymentWorldSimulator.run(configuration, store: .init(kind: .sqlite, database: path, resume: true))
    }

    @Test("a tampered store is refused, naming the row and the column", arguments: [
        ("UPDATE payments SET kind = 7 WHERE id = 3", "payments row 3: column kind holds 7, no PaymentKind (known: 0, 1)"),
        ("UPDATE payments SET phase = 9 WHERE id = 3", "payments row 3: column phase holds 9, no Phase"),
        ("UPDATE payments SET state = 'stolen' WHERE id = 3", "payments row 3: column state holds 'stolen', no PaymentState"),
        ("UPDATE payments SET currency = 200 WHERE id = 3", "payments row 3: column currency holds 200, no Currency"),
        ("UPDATE payments SET amount = 'lots' WHERE id = 3", "payments row 3: column amount holds the text 'lots', not an integer"),
        ("UPDATE payments SET user = 5000000000 WHERE id = 3", "payments row 3: column user holds 5000000000, outside 0...4294967295"),
        ("UPDATE payments SET script = 'A;Z' WHERE id = 3", "payments row 3: column script holds 'A;Z', not a gateway script"),
        ("UPDATE payments SET attempts = 1.5 WHERE id = 3", "payments row 3: column attempts holds the real 1.5, not an integer"),
        ("UPDATE payments SET state = NULL WHERE phase = 2 AND id = 3", "payments row 3: column state is NULL, not a PaymentState"),
        ("UPDATE payments SET admitted_at = 9223372036854775807 WHERE id = 3", "payments row 3: admitted_at is 9223372036854775807, not in 0..."),
        ("UPDATE payments SET phase = 1, attempt = 99 WHERE id = 3", "payments row 3: attempt is 99, not in 0...2"),
        ("UPDATE payments SET amount = amount + 1 WHERE id = 3", "payments row 3: amount is "),
        ("UPDATE payments SET user = user + 1 WHERE id = 3", "payments row 3: user is "),
        ("UPDATE payments SET id = 5000 WHERE id = 3", "payments row 5000: the world has 80 payments"),
        ("UPDATE keys SET currency = 99 WHERE rowid = 1", "column currency holds 99, no Currency"),
        ("UPDATE keys SET amount = amount + 1 WHERE rowid = 1", "no payment of the store has this key and fingerprint"),
        ("UPDATE ledger SET currency = 'usd' WHERE rowid = 1", "column currency holds the text 'usd', not an integer"),
        ("DELETE FROM charges WHERE rowid = 1", "is captured, but the charges table has no row for it"),
        ("INSERT INTO charges SELECT id, user, 5, 0, 0 FROM payments WHERE state = 'declined' LIMIT 1", ": not a charge the store captured"),
        ("DELETE FROM ledger WHERE rowid = 1", "but no ledger row"),
        ("UPDATE ledger SET refunded = -5 WHERE rowid = 1", "may not be negative"),
        ("INSERT INTO ledger (user, currency, captured, refunded) VALUES (999, 0, 5, 0)", "ledger row (user 999, USD): no payment of the store booked it"),
        ("DELETE FROM payments WHERE id = (SELECT MIN(id) FROM payments WHERE state = 'captured')", "no payment of the store has this key and fingerprint"),
        ("DROP TABLE charges", "no table charges: not a payment store of this version"),
        ("DELETE FROM notes", "records no world"),
        ("UPDATE notes SET value = '2' WHERE name = 'format'", "format version 2, this simharness reads version 1"),
        ("UPDATE notes SET value = 'many' WHERE name = 'payments'", "the world's note 'payments' is 'many'"),
        ("UPDATE notes SET value = '1,x' WHERE name = 'kills'", "the world's note 'kills' is '1,x'"),
        ("DELETE FROM notes WHERE name = 'clients'", "the world's note 'clients' is missing"),
    ])
    func tamperedStore(sql: String, message: String) throws {
        // Given a store a world wrote, then tampered with
        let scratch = try ScratchDirectory(prefix: "hostile-tests")
        let path = try Self.store(in: scratch)
        try Self.tamper(path, sql)
        // When the world resumes it
        // Then it is refused, naming what is wrong
        let error = #expect(throws: SimulationError.self) { try Self.resume(path) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("a store that claims a smaller world than its rows is refused at the first row beyond it")
    func smallerWorldClaimed() throws {
        // Given a store of 80 payments whose notes were changed to claim 20
        let scratch = try ScratchDirectory(prefix: "hostile-tests")
        let path = try Self.store(in: scratch)
        try Self.tamper(path, "UPDATE notes SET value = '20' WHERE name = 'payments'")
        var smaller = Self.configuration
        smaller.payments = 20
        // When a world of 20 payments resumes it
        // Then the rows of payments 20 and beyond are refused, not indexed
        let error = #expect(throws: SimulationError.self) { try Self.resume(path, smaller) }
        #expect(error?.description.contains("the world has 20 payments (ids 0...19)") == true, "\(String(describing: error))")
    }

    @Test("a hostile truth file is refused, naming its line", arguments: [
        ("TRUNCATE", "truncated: its last line has no end of line"),
        ("1 2 3\n", ":1: not a gateway action (8 numbers"),
        ("0 0 0 9 100 0 0 1\n", ":1: kind 9 is no payment kind"),
        ("0 0 0 0 100 77 0 1\n", ":1: currency 77 is no currency"),
        ("0 0 0 0 100 0 0 x\n", ":1: step is 'x', not an integer"),
        ("0 99999999999 0 0 100 0 0 1\n", ":1: user is '99999999999', not an integer in 0...4294967295"),
        ("80 0 0 0 100 0 0 1\n", ":1: the gateway acted for payment 80, which the store never admitted"),
        ("79 0 0 0 100 0 0 1\n", ":1: the action is not payment 79's"),
    ])
    func hostileTruth(content: String, message: String) throws {
        // Given a store whose truth file was cut mid-line, or replaced by a bad line
        let scratch = try ScratchDirectory(prefix: "hostile-tests")
        let path = try Self.store(in: scratch)
        let truth = path + ".gateway"
        if content == "TRUNCATE" {
            let data = try #require(FileManager.default.contents(atPath: truth))
            try #require(data.count > 4)
            try data.dropLast(3).write(to: URL(fileURLWithPath: truth))
        } else {
            try content.write(toFile: truth, atomically: true, encoding: .utf8)
        }
        // When the world resumes it
        // Then it is refused, naming the line
        let error = #expect(throws: SimulationError.self) { try Self.resume(path) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("a file that is not a SQLite database is refused")
    func notADatabase() throws {
        // Given a file of text where the store should be
        let scratch = try ScratchDirectory(prefix: "hostile-tests")
        let path = scratch.file("text.sqlite")
        try "not a database at all, but long enough to look like a header of one".write(toFile: path, atomically: true, encoding: .utf8)
        try "".write(toFile: path + ".gateway", atomically: true, encoding: .utf8)
        // When a world resumes it
        // Then it is refused as unusable
        let error = #expect(throws: SimulationError.self) { try Self.resume(path) }
        #expect(error?.description.contains(path) == true, "\(String(describing: error))")
    }
}
