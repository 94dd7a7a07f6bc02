import GRDB
import PaymentsCore

/// The durable store in a SQLite file through GRDB: WAL mode, one transaction per state change
/// (admission, the intent of each attempt, the final outcome with its booking), so a killed process
/// leaves every payment at its last committed step and nothing half-written. Everything read from
/// the file is checked (types, ranges, known cases): a hostile file gives a `StoreFailure` naming
/// the table, row and column, never a trap.
package final class SQLitePaymentStore: DurablePaymentStore {
    package var failpoint: ((StoreWrite) throws -> Void)?
    /// A number the store's owner sets to say where it is (a simulated world: its run and step); each
    /// write transaction from then on stores it with its changes, so `lastMark()` tells where the last
    /// committed write was made, also after a kill. nil: none is stored.
    package var mark: Int64?
    /// The I/O error (a failed sync or read, an unreadable file) after which this store refuses
    /// everything: what it wrote since its last successful sync may be gone, so its owner must open
    /// the file again (restart from what is durable); a sync is never retried. nil: none yet.
    package private(set) var ioFailure: StoreFailure?
    private let database: any DatabaseWriter
    private let countsRefunds: Bool
    /// What must outlive the connection (the simulated disk under it).
    private let owner: AnyObject?

    /// The tables of a store.
    package static let tables = ["payments", "keys", "charges", "ledger", "notes", "mark"]

    /// Opens the store at `path`, creating it (and any missing table) when `create`; otherwise a
    /// file without the store's tables is refused. WAL mode, `synchronous = FULL`: a transaction
    /// that returned is on the medium.
    package init(path: String, create: Bool = true) throws {
        var configuration = Configuration()
        configuration.label = "payments"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        database = try DatabasePool(path: path, configuration: configuration)
        countsRefunds = true
        owner = nil
        try setUp(create: create, path: path)
    }

    /// Opens (or creates) the store at the URI filename `uri` (such as a `SimulatedDisk`'s) on one
    /// connection, which holds the file alone: exclusive locking, so WAL mode needs no shared memory;
    /// `synchronous = FULL`. `owner` (the disk under it) is kept until the connection is closed.
    /// Planted defects (tests): `countsRefunds` false, a refund is not counted against its charge;
    /// `syncsCommits` false, `synchronous = NORMAL`.
    package init(uri: String, owner: AnyObject? = nil, countsRefunds: Bool = true, syncsCommits: Bool = true) throws {
        var configuration = Configuration()
        configuration.label = "payments"
        let synchronous = syncsCommits ? "FULL" : "NORMAL"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE; PRAGMA page_size = 1024; PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous); PRAGMA wal_autocheckpoint = 100; PRAGMA secure_delete = OFF")
        }
        database = try DatabaseQueue(path: uri, configuration: configuration)
        self.countsRefunds = countsRefunds
        self.owner = owner
        try setUp(create: true, path: uri)
    }

    deinit { try? (database as? DatabaseQueue)?.close() }

    /// Closes the connection; the store refuses everything after.
    package func close() {
        if ioFailure == nil { ioFailure = StoreFailure("the store is closed") }
        try? (database as? DatabaseQueue)?.close()
    }

    private func setUp(create: Bool, path: String) throws {
        if !create {
            let present = try reading { db in try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
            if let missing = Self.tables.first(where: { !present.contains($0) }) {
                throw StoreFailure("\(path): no table \(missing): not a payment store of this version")
            }
            return
        }
        try writing { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS payments (
                  id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, user INTEGER NOT NULL, key INTEGER NOT NULL,
                  key_length INTEGER NOT NULL, kind INTEGER NOT NULL, amount INTEGER, currency INTEGER,
                  created_at INTEGER NOT NULL, refund_of INTEGER, script TEXT NOT NULL, admitted_at INTEGER NOT NULL,
                  phase INTEGER NOT NULL, attempt INTEGER NOT NULL, deadline INTEGER NOT NULL,
                  state TEXT, reason TEXT, attempts INTEGER NOT NULL, latency INTEGER NOT NULL);
                CREATE INDEX IF NOT EXISTS payments_unfinished ON payments(phase, seq);
                CREATE INDEX IF NOT EXISTS payments_seq ON payments(seq);
                CREATE INDEX IF NOT EXISTS payments_refund_of ON payments(refund_of) WHERE refund_of IS NOT NULL;
                CREATE TABLE IF NOT EXISTS keys (
                  user INTEGER NOT NULL, key INTEGER NOT NULL, kind INTEGER NOT NULL, amount INTEGER NOT NULL,
                  currency INTEGER NOT NULL, refund_of INTEGER, PRIMARY KEY (user, key));
                CREATE TABLE IF NOT EXISTS charges (
                  id INTEGER PRIMARY KEY, user INTEGER NOT NULL, amount INTEGER NOT NULL, currency INTEGER NOT NULL,
                  refunded INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS ledger (
                  user INTEGER NOT NULL, currency INTEGER NOT NULL, captured INTEGER NOT NULL, refunded INTEGER NOT NULL,
                  PRIMARY KEY (user, currency));
                CREATE TABLE IF NOT EXISTS notes (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS mark (id INTEGER PRIMARY KEY CHECK (id = 0), value INTEGER NOT NULL);
                """)
        }
    }

    /// Runs `body` on the connection outside a transaction (each statement is its own).
    private func reading<T>(_ body: (Database) throws -> T) throws -> T {
        if let ioFailure { throw ioFailure }
        do { return try database.writeWithoutTransaction(body) } catch { throw poisoned(by: error) }
    }

    /// Runs `body` in a write transaction.
    private func writing(_ body: (Database) throws -> Void) throws {
        if let ioFailure { throw ioFailure }
        do { try database.write(body) } catch { throw poisoned(by: error) }
    }

    /// `error`, after which an I/O error or a corrupt file makes the store refuse everything.
    private func poisoned(by error: any Error) -> any Error {
        guard let error = error as? DatabaseError, [.SQLITE_IOERR, .SQLITE_CORRUPT, .SQLITE_CANTOPEN, .SQLITE_NOTADB].contains(error.resultCode) else {
            return error
        }
        let failure = StoreFailure("the store failed (\(error.message ?? "\(error.resultCode)")): restart from what is durable")
        ioFailure = failure
        return failure
    }

    private enum Phase: Int, CaseIterable { case requested = 0, attemptSent = 1, final = 2 }

    package func record(of payment: UInt32) throws -> PaymentRecord? {
        try reading { db in try db.first("SELECT * FROM payments WHERE id = ?", [payment], Self.record(from:)) }
    }

    package func fingerprint(user: UInt32, key: UInt32) throws -> PaymentFingerprint? {
        try reading { db in
            try db.first("SELECT * FROM keys WHERE user = ? AND key = ?", [user, key]) { try Self.key(from: $0).fingerprint }
        }
    }

    package func capturedCharge(user: UInt32, charge: UInt32) throws -> CapturedCharge? {
        try reading { db in
            try db.first("SELECT * FROM charges WHERE id = ? AND user = ?", [charge, user]) { try Self.charge(from: $0).charge }
        }
    }

    package func settledRefunds(of charge: UInt32) throws -> Int64 {
        try reading { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT IFNULL(SUM(amount), 0) AS total FROM payments WHERE refund_of = ? AND kind = ? AND state = ?"),
                arguments: [charge, PaymentKind.refund.rawValue, PaymentState.refunded.rawValue])
        }.map { try StoreRow($0, "payments").integer("total", as: Int64.self) } ?? 0
    }

    package func unfinished() throws -> [PaymentRecord] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT * FROM payments WHERE phase != ? ORDER BY seq", arguments: [Phase.final.rawValue])
        }.map(Self.record(from:))
    }

    package func records() throws -> [PaymentRecord] {
        try reading { db in try Row.fetchAll(db, sql: "SELECT * FROM payments ORDER BY seq") }.map(Self.record(from:))
    }

    package func ledger() throws -> [LedgerRow] {
        try reading { db in try Row.fetchAll(db, sql: "SELECT * FROM ledger") }
            .map(Self.ledgerRow(from:))
            .sorted { $0.user != $1.user ? $0.user < $1.user : $0.entry.currency.code < $1.entry.currency.code }
    }

    package func ledger(of user: UInt32) throws -> [LedgerEntry] {
        try reading { db in
            try db.all("SELECT * FROM ledger WHERE user = ?", [user]) { try Self.ledgerRow(from: $0).entry }
        }.sorted { $0.currency.code < $1.currency.code }
    }

    package func latestInstant() throws -> Int64 {
        try reading { db in
            try Row.fetchOne(db, sql: "SELECT MAX(MAX(admitted_at), MAX(deadline)) AS latest FROM payments")
        }.map { try StoreRow($0, "payments").optionalInteger("latest", as: Int64.self) ?? 0 } ?? 0
    }

    /// Everything the store holds, read in one transaction: what a resumed owner checks before it
    /// trusts the file.
    package func contents() throws -> StoreContents {
        try reading { db in
            StoreContents(
                records: try Row.fetchAll(db, sql: "SELECT * FROM payments ORDER BY seq").map(Self.record(from:)),
                keys: try Row.fetchAll(db, sql: "SELECT * FROM keys ORDER BY user, key").map(Self.key(from:)),
                charges: try Row.fetchAll(db, sql: "SELECT * FROM charges ORDER BY id").map(Self.charge(from:)),
                ledger: try Row.fetchAll(db, sql: "SELECT * FROM ledger ORDER BY user, currency").map(Self.ledgerRow(from:)))
        }
    }

    /// The notes the store's owner keeps beside the payments, by name (a simulated world: the world
    /// that wrote the file and its history).
    package func notes() throws -> [String: String] {
        var notes: [String: String] = [:]
        for row in try reading({ db in try Row.fetchAll(db, sql: "SELECT * FROM notes") }) {
            let checked = StoreRow(row, "notes")
            notes[try checked.text("name")] = try checked.text("value")
        }
        return notes
    }

    /// Sets `notes`, adding or replacing each, in one transaction.
    package func setNotes(_ notes: [String: String]) throws {
        try writing { db in
            for (name, value) in notes.sorted(by: { $0.key < $1.key }) {
                try db.run(
                    sql: "INSERT INTO notes (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value", arguments: [name, value])
            }
        }
    }

    /// The `mark` of the last committed write that stored one, nil when none did.
    package func lastMark() throws -> Int64? {
        try reading { db in try Row.fetchOne(db, sql: "SELECT value FROM mark WHERE id = 0") }
            .map { try StoreRow($0, "mark").integer("value", as: Int64.self) }
    }

    /// Stores `mark`, when one is set, in the transaction of `db`.
    private func stamp(_ db: Database) throws {
        guard let mark else { return }
        try db.run(sql: "INSERT INTO mark (id, value) VALUES (0, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value", arguments: [mark])
    }

    package func admit(_ record: PaymentRecord, takesKey: Bool) throws {
        let request = record.request
        let payment = request.payment
        let outcome = record.outcome
        try writing { db in
            try db.run(
                sql: """
                    INSERT INTO payments (id, seq, user, key, key_length, kind, amount, currency, created_at, refund_of, script,
                      admitted_at, phase, attempt, deadline, state, reason, attempts, latency)
                    VALUES (?, (SELECT IFNULL(MAX(seq), -1) + 1 FROM payments), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, -1, 0, ?, ?, ?, ?)
                    """, arguments: [
                    payment.id, request.user, payment.key, payment.keyLength, payment.kind.rawValue, payment.amountMinor,
                    payment.currency?.rawValue, payment.createdAt, payment.refundOf, payment.script.text, record.admittedAt,
                    (outcome == nil ? Phase.requested : Phase.final).rawValue, outcome?.state.rawValue, outcome?.reason?.rawValue,
                    outcome?.attempts ?? 0, outcome?.latencyMillis ?? 0,
                ])
            try failpoint?(.admit)
            try stamp(db)
            if takesKey, let fingerprint = payment.fingerprint {
                try db.run(
                    sql: "INSERT INTO keys (user, key, kind, amount, currency, refund_of) VALUES (?, ?, ?, ?, ?, ?)", arguments: [request.user, payment.key, fingerprint.kind.rawValue, fingerprint.amountMinor,
                                fingerprint.currency.rawValue, fingerprint.refundOf])
            }
        }
    }

    package func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws {
        try writing { db in
            try db.run(
                sql: "UPDATE payments SET phase = ?, attempt = ?, deadline = ? WHERE id = ?", arguments: [Phase.attemptSent.rawValue, attempt, deadline, payment])
            guard db.changesCount == 1 else { throw StoreFailure("payment \(payment) was never admitted") }
            try failpoint?(.intent)
            try stamp(db)
        }
    }

    package func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        try writing { db in
            guard let record = try db.first("SELECT * FROM payments WHERE id = ?", [payment], Self.record(from:)) else {
                throw StoreFailure("payment \(payment) was never admitted")
            }
            try db.run(
                sql: "UPDATE payments SET phase = ?, state = ?, reason = ?, attempts = ?, latency = ? WHERE id = ?", arguments: [Phase.final.rawValue, outcome.state.rawValue, outcome.reason?.rawValue, outcome.attempts,
                            outcome.latencyMillis, payment])
            try failpoint?(.settle)
            try stamp(db)
            let request = record.request
            guard let amount = request.payment.amountMinor, let currency = request.payment.currency else { return }
            switch outcome.state {
            case .captured:
                try db.run(
                    sql: "INSERT INTO charges (id, user, amount, currency, refunded) VALUES (?, ?, ?, ?, 0)", arguments: [payment, request.user, amount, currency.rawValue])
                try db.run(
                    sql: """
                        INSERT INTO ledger (user, currency, captured, refunded) VALUES (?, ?, ?, 0)
                        ON CONFLICT (user, currency) DO UPDATE SET captured = captured + excluded.captured
                        """, arguments: [request.user, currency.rawValue, amount])
            case .refunded:
                if countsRefunds {
                    try db.run(
                        sql: "UPDATE charges SET refunded = refunded + ? WHERE id = ?", arguments: [amount, request.payment.refundOf])
                }
                try db.run(
                    sql: """
                        INSERT INTO ledger (user, currency, captured, refunded) VALUES (?, ?, 0, ?)
                        ON CONFLICT (user, currency) DO UPDATE SET refunded = refunded + excluded.refunded
                        """, arguments: [request.user, currency.rawValue, amount])
            default: break
            }
        }
    }

    private static func record(from row: Row) throws -> PaymentRecord {
        let first = StoreRow(row, "payments")
        let id = try first.integer("id", as: UInt32.self)
        let row = first.at("payments row \(id)")
        let scriptText = try row.text("script")
        guard let script = GatewayScript(parsing: scriptText) else { throw row.failure("script", "holds '\(scriptText.prefix(40))', not a gateway script") }
        let payment = PaymentRequest(
            id: id, key: try row.integer("key"), keyLength: try row.integer("key_length"), kind: try row.enumCase("kind", PaymentKind.self),
            amountMinor: try row.optionalInteger("amount"), currency: try row.optionalEnumCase("currency", Currency.self),
            createdAt: try row.integer("created_at"), refundOf: try row.optionalInteger("refund_of"), script: script)
        let progress: PaymentProgress
        switch try row.enumCase("phase", Phase.self) {
        case .requested: progress = .requested
        case .attemptSent: progress = .attemptSent(attempt: try row.integer("attempt"), deadline: try row.integer("deadline"))
        case .final:
            progress = .final(PaymentOutcome(
                state: try row.enumCase("state", PaymentState.self), reason: try row.optionalEnumCase("reason", PaymentRejection.self),
                attempts: try row.integer("attempts"), latencyMillis: try row.integer("latency")))
        }
        return PaymentRecord(
            request: ServiceRequest(user: try row.integer("user"), payment: payment), progress: progress, admittedAt: try row.integer("admitted_at"))
    }

    private static func key(from row: Row) throws -> KeyRow {
        let place = StoreRow(row, "keys")
        let user: UInt32 = try place.integer("user"), key: UInt32 = try place.integer("key")
        let checked = place.at("keys row (user \(user), key \(key))")
        return KeyRow(user: user, key: key, fingerprint: PaymentFingerprint(
            kind: try checked.enumCase("kind", PaymentKind.self), amountMinor: try checked.integer("amount"),
            currency: try checked.enumCase("currency", Currency.self), refundOf: try checked.optionalInteger("refund_of")))
    }

    private static func charge(from row: Row) throws -> ChargeRow {
        let first = StoreRow(row, "charges")
        let id: UInt32 = try first.integer("id")
        let checked = first.at("charges row \(id)")
        return ChargeRow(id: id, user: try checked.integer("user"), charge: CapturedCharge(
            amountMinor: try checked.integer("amount"), currency: try checked.enumCase("currency", Currency.self),
            refundedMinor: try checked.integer("refunded")))
    }

    private static func ledgerRow(from row: Row) throws -> LedgerRow {
        let first = StoreRow(row, "ledger")
        let user: UInt32 = try first.integer("user")
        let checked = first.at("ledger row of user \(user)")
        return LedgerRow(user: user, entry: LedgerEntry(
            currency: try checked.enumCase("currency", Currency.self), capturedMinor: try checked.integer("captured"),
            refundedMinor: try checked.integer("refunded")))
    }
}

/// A row of the keys table: what `user`'s `key` was first used for.
package struct KeyRow: Hashable, Sendable {
    package var user: UInt32
    package var key: UInt32
    package var fingerprint: PaymentFingerprint
}

/// A row of the charges table: captured charge `id` of `user`.
package struct ChargeRow: Hashable, Sendable {
    package var id: UInt32
    package var user: UInt32
    package var charge: CapturedCharge
}

/// Everything a store holds.
package struct StoreContents: Hashable, Sendable {
    /// Every payment, in admission order.
    package var records: [PaymentRecord]
    /// The keys table, by user and key.
    package var keys: [KeyRow]
    /// The charges table, by id.
    package var charges: [ChargeRow]
    /// The ledger, by user and currency number.
    package var ledger: [LedgerRow]
}

extension Database {
    /// Runs `sql`, a statement prepared once per connection, with `arguments`.
    fileprivate func run(sql: String, arguments: StatementArguments) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }

    /// The first row of `sql` (prepared once per connection) decoded in place, without a copy. The
    /// cursor, which resets the statement as it goes, ends with this call: an open statement would
    /// keep a failed transaction from rolling back.
    fileprivate func first<T>(_ sql: String, _ arguments: StatementArguments, _ decode: (Row) throws -> T) throws -> T? {
        let rows = try Row.fetchCursor(cachedStatement(sql: sql), arguments: arguments)
        return try rows.next().map(decode)
    }

    /// Every row of `sql` decoded in place, as `first`.
    fileprivate func all<T>(_ sql: String, _ arguments: StatementArguments, _ decode: (Row) throws -> T) throws -> [T] {
        let rows = try Row.fetchCursor(cachedStatement(sql: sql), arguments: arguments)
        var values: [T] = []
        while let row = try rows.next() { values.append(try decode(row)) }
        return values
    }
}
