import GRDB
import PaymentsCore

/// The durable store in a SQLite file through GRDB: WAL mode, one transaction per state change
/// (admission, the intent of each attempt, the final outcome with its booking), so a killed process
/// leaves every payment at its last committed step and nothing half-written.
public final class SQLitePaymentStore: DurablePaymentStore {
    public var failpoint: ((StoreWrite) throws -> Void)?
    private let database: DatabasePool

    /// Opens (or creates) the store at `path`.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.label = "payments"
        database = try DatabasePool(path: path, configuration: configuration)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS payments (
                  id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, user INTEGER NOT NULL, key INTEGER NOT NULL,
                  key_length INTEGER NOT NULL, kind INTEGER NOT NULL, amount INTEGER, currency INTEGER,
                  created_at INTEGER NOT NULL, refund_of INTEGER, script TEXT NOT NULL, admitted_at INTEGER NOT NULL,
                  phase INTEGER NOT NULL, attempt INTEGER NOT NULL, deadline INTEGER NOT NULL,
                  state TEXT, reason TEXT, attempts INTEGER NOT NULL, latency INTEGER NOT NULL);
                CREATE INDEX IF NOT EXISTS payments_unfinished ON payments(phase, seq);
                CREATE INDEX IF NOT EXISTS payments_seq ON payments(seq);
                CREATE TABLE IF NOT EXISTS keys (
                  user INTEGER NOT NULL, key INTEGER NOT NULL, kind INTEGER NOT NULL, amount INTEGER NOT NULL,
                  currency INTEGER NOT NULL, refund_of INTEGER, PRIMARY KEY (user, key));
                CREATE TABLE IF NOT EXISTS charges (
                  id INTEGER PRIMARY KEY, user INTEGER NOT NULL, amount INTEGER NOT NULL, currency INTEGER NOT NULL,
                  refunded INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS ledger (
                  user INTEGER NOT NULL, currency INTEGER NOT NULL, captured INTEGER NOT NULL, refunded INTEGER NOT NULL,
                  PRIMARY KEY (user, currency));
                """)
        }
    }

    private enum Phase: Int { case requested = 0, attemptSent = 1, final = 2 }

    public func record(of payment: UInt32) throws -> PaymentRecord? {
        try database.read { db in try Row.fetchOne(db, sql: "SELECT * FROM payments WHERE id = ?", arguments: [payment]) }
            .map(Self.record(from:))
    }

    public func fingerprint(user: UInt32, key: UInt32) throws -> PaymentFingerprint? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM keys WHERE user = ? AND key = ?", arguments: [user, key])
        }.map { row in
            PaymentFingerprint(
                kind: PaymentKind(rawValue: row["kind"])!, amountMinor: row["amount"], currency: Currency(rawValue: row["currency"])!,
                refundOf: row["refund_of"])
        }
    }

    public func capturedCharge(user: UInt32, charge: UInt32) throws -> CapturedCharge? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM charges WHERE id = ? AND user = ?", arguments: [charge, user])
        }.map { row in
            CapturedCharge(amountMinor: row["amount"], currency: Currency(rawValue: row["currency"])!, refundedMinor: row["refunded"])
        }
    }

    public func unfinished() throws -> [PaymentRecord] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM payments WHERE phase != ? ORDER BY seq", arguments: [Phase.final.rawValue])
        }.map(Self.record(from:))
    }

    public func records() throws -> [PaymentRecord] {
        try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM payments ORDER BY seq") }.map(Self.record(from:))
    }

    public func ledger() throws -> [LedgerRow] {
        try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM ledger") }
            .map { row in
                LedgerRow(user: row["user"], entry: LedgerEntry(
                    currency: Currency(rawValue: row["currency"])!, capturedMinor: row["captured"], refundedMinor: row["refunded"]))
            }
            .sorted { $0.user != $1.user ? $0.user < $1.user : $0.entry.currency.code < $1.entry.currency.code }
    }

    public func ledger(of user: UInt32) throws -> [LedgerEntry] {
        try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM ledger WHERE user = ?", arguments: [user]) }
            .map { row in
                LedgerEntry(currency: Currency(rawValue: row["currency"])!, capturedMinor: row["captured"], refundedMinor: row["refunded"])
            }
            .sorted { $0.currency.code < $1.currency.code }
    }

    public func latestInstant() throws -> Int64 {
        try database.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(MAX(admitted_at), MAX(deadline)) FROM payments") ?? 0
        }
    }

    public func admit(_ record: PaymentRecord, takesKey: Bool) throws {
        let request = record.request
        let payment = request.payment
        let outcome = record.outcome
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO payments (id, seq, user, key, key_length, kind, amount, currency, created_at, refund_of, script,
                      admitted_at, phase, attempt, deadline, state, reason, attempts, latency)
                    VALUES (?, (SELECT IFNULL(MAX(seq), -1) + 1 FROM payments), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, -1, 0, ?, ?, ?, ?)
                    """,
                arguments: [
                    payment.id, request.user, payment.key, payment.keyLength, payment.kind.rawValue, payment.amountMinor,
                    payment.currency?.rawValue, payment.createdAt, payment.refundOf, payment.script.text, record.admittedAt,
                    (outcome == nil ? Phase.requested : Phase.final).rawValue, outcome?.state.rawValue, outcome?.reason?.rawValue,
                    outcome?.attempts ?? 0, outcome?.latencyMillis ?? 0,
                ])
            try failpoint?(.admit)
            if takesKey, let fingerprint = payment.fingerprint {
                try db.execute(
                    sql: "INSERT INTO keys (user, key, kind, amount, currency, refund_of) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [request.user, payment.key, fingerprint.kind.rawValue, fingerprint.amountMinor,
                                fingerprint.currency.rawValue, fingerprint.refundOf])
            }
        }
    }

    public func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE payments SET phase = ?, attempt = ?, deadline = ? WHERE id = ?",
                arguments: [Phase.attemptSent.rawValue, attempt, deadline, payment])
            guard db.changesCount == 1 else { throw StoreFailure("payment \(payment) was never admitted") }
            try failpoint?(.intent)
        }
    }

    public func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        try database.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM payments WHERE id = ?", arguments: [payment]) else {
                throw StoreFailure("payment \(payment) was never admitted")
            }
            try db.execute(
                sql: "UPDATE payments SET phase = ?, state = ?, reason = ?, attempts = ?, latency = ? WHERE id = ?",
                arguments: [Phase.final.rawValue, outcome.state.rawValue, outcome.reason?.rawValue, outcome.attempts,
                            outcome.latencyMillis, payment])
            try failpoint?(.settle)
            let request = Self.record(from: row).request
            guard let amount = request.payment.amountMinor, let currency = request.payment.currency else { return }
            switch outcome.state {
            case .captured:
                try db.execute(
                    sql: "INSERT INTO charges (id, user, amount, currency, refunded) VALUES (?, ?, ?, ?, 0)",
                    arguments: [payment, request.user, amount, currency.rawValue])
                try db.execute(
                    sql: """
                        INSERT INTO ledger (user, currency, captured, refunded) VALUES (?, ?, ?, 0)
                        ON CONFLICT (user, currency) DO UPDATE SET captured = captured + excluded.captured
                        """,
                    arguments: [request.user, currency.rawValue, amount])
            case .refunded:
                try db.execute(
                    sql: "UPDATE charges SET refunded = refunded + ? WHERE id = ?", arguments: [amount, request.payment.refundOf])
                try db.execute(
                    sql: """
                        INSERT INTO ledger (user, currency, captured, refunded) VALUES (?, ?, 0, ?)
                        ON CONFLICT (user, currency) DO UPDATE SET refunded = refunded + excluded.refunded
                        """,
                    arguments: [request.user, currency.rawValue, amount])
            default: break
            }
        }
    }

    private static func record(from row: Row) -> PaymentRecord {
        let payment = PaymentRequest(
            id: row["id"], key: row["key"], keyLength: row["key_length"], kind: PaymentKind(rawValue: row["kind"])!,
            amountMinor: row["amount"], currency: (row["currency"] as UInt8?).flatMap(Currency.init(rawValue:)),
            createdAt: row["created_at"], refundOf: row["refund_of"], script: GatewayScript(parsing: row["script"]))
        let progress: PaymentProgress
        switch Phase(rawValue: row["phase"])! {
        case .requested: progress = .requested
        case .attemptSent: progress = .attemptSent(attempt: row["attempt"], deadline: row["deadline"])
        case .final:
            progress = .final(PaymentOutcome(
                state: PaymentState(rawValue: row["state"])!, reason: (row["reason"] as String?).flatMap(PaymentRejection.init(rawValue:)),
                attempts: row["attempts"], latencyMillis: row["latency"]))
        }
        return PaymentRecord(request: ServiceRequest(user: row["user"], payment: payment), progress: progress, admittedAt: row["admitted_at"])
    }
}

extension GatewayScript {
    /// The script written as `script.text` (`T;L;D`); an empty text is an empty script.
    init(parsing text: String) {
        self.init(text.split(separator: ";").compactMap { token in GatewayResponse.allCases.first { String($0.token) == token } })
    }
}
