import PaymentsCore

/// The write a failpoint interrupts.
package enum StoreWrite: String, CaseIterable, Sendable {
    /// Admission: the payment's record and, when it takes it, its key.
    case admit
    /// The intent of an attempt, written before the attempt is sent.
    case intent
    /// The final outcome and its booking in the ledger.
    case settle
}

/// A write or read that did not happen; its transaction was rolled back.
package struct StoreFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, and why.
    package var message: String

    /// A failure described by `message`.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}

/// One ledger row: a user's money in one currency.
package struct LedgerRow: Hashable, Sendable {
    /// The user.
    package var user: UInt32
    /// The currency and its sums.
    package var entry: LedgerEntry

    /// A row of all its fields.
    package init(user: UInt32, entry: LedgerEntry) {
        self.user = user
        self.entry = entry
    }
}

/// The payment service's durable state: what survives a crash. Every write is one transaction
/// that happens entirely or not at all; `failpoint` runs inside each, between its statements, and
/// when it throws the transaction rolls back and the error reaches the caller.
package protocol DurablePaymentStore: AnyObject {
    /// Runs inside every write transaction, after its first statement; throwing aborts it.
    var failpoint: ((StoreWrite) throws -> Void)? { get set }

    /// The record of `payment`, nil when it was never admitted.
    func record(of payment: UInt32) throws -> PaymentRecord?
    /// What `user`'s `key` was first used for.
    func fingerprint(user: UInt32, key: UInt32) throws -> PaymentFingerprint?
    /// `user`'s captured charge `charge`, nil when there is none.
    func capturedCharge(user: UInt32, charge: UInt32) throws -> CapturedCharge?
    /// The sum of the refunds settled against `charge`, from the payments' own records (not the
    /// charge's running count): what a checker compares that count with.
    func settledRefunds(of charge: UInt32) throws -> Int64
    /// Every payment not settled yet, in admission order (what recovery resumes).
    func unfinished() throws -> [PaymentRecord]
    /// Every payment, in admission order.
    func records() throws -> [PaymentRecord]
    /// The ledger, sorted by user and currency code.
    func ledger() throws -> [LedgerRow]
    /// `user`'s rows of the ledger, sorted by currency code.
    func ledger(of user: UInt32) throws -> [LedgerEntry]
    /// The latest instant any record names (monotonic milliseconds): where a restarted clock resumes.
    func latestInstant() throws -> Int64

    /// Admits `record`; takes its key for its fingerprint when `takesKey`.
    func admit(_ record: PaymentRecord, takesKey: Bool) throws
    /// Writes the intent of attempt `attempt` of `payment`, due by `deadline`.
    func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws
    /// Writes the final outcome of `payment` and books a capture or a refund in the ledger.
    func settle(payment: UInt32, _ outcome: PaymentOutcome) throws
}

/// A store in front of another (`forwarded`), passing on what it does not change: a watched store, a
/// store with a planted defect, a store that notes its writes. It implements only what it changes.
package protocol ForwardingPaymentStore: DurablePaymentStore {
    /// The store everything not implemented here goes to.
    var forwarded: any DurablePaymentStore { get }
}

extension ForwardingPaymentStore {
    package var failpoint: ((StoreWrite) throws -> Void)? {
        get { forwarded.failpoint }
        set { forwarded.failpoint = newValue }
    }

    package func record(of payment: UInt32) throws -> PaymentRecord? { try forwarded.record(of: payment) }
    package func fingerprint(user: UInt32, key: UInt32) throws -> PaymentFingerprint? { try forwarded.fingerprint(user: user, key: key) }
    package func capturedCharge(user: UInt32, charge: UInt32) throws -> CapturedCharge? { try forwarded.capturedCharge(user: user, charge: charge) }
    package func settledRefunds(of charge: UInt32) throws -> Int64 { try forwarded.settledRefunds(of: charge) }
    package func unfinished() throws -> [PaymentRecord] { try forwarded.unfinished() }
    package func records() throws -> [PaymentRecord] { try forwarded.records() }
    package func ledger() throws -> [LedgerRow] { try forwarded.ledger() }
    package func ledger(of user: UInt32) throws -> [LedgerEntry] { try forwarded.ledger(of: user) }
    package func latestInstant() throws -> Int64 { try forwarded.latestInstant() }
    package func admit(_ record: PaymentRecord, takesKey: Bool) throws { try forwarded.admit(record, takesKey: takesKey) }
    package func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws {
        try forwarded.writeIntent(payment: payment, attempt: attempt, deadline: deadline)
    }
    package func settle(payment: UInt32, _ outcome: PaymentOutcome) throws { try forwarded.settle(payment: payment, outcome) }
}

/// A durable store kept in memory: it stands for a disk in simulated worlds (the service that
/// crashes loses its own memory, not this) and is the fastest store to simulate with. Used from one
/// thread at a time, so its state skips the runtime's exclusivity checks.
package final class MemoryDurableStore: DurablePaymentStore {
    private struct UserKey: Hashable {
        var user: UInt32
        var key: UInt32
    }

    private struct UserCurrency: Hashable, Comparable {
        var user: UInt32
        var currency: Currency

        static func < (a: Self, b: Self) -> Bool {
            a.user != b.user ? a.user < b.user : a.currency.code < b.currency.code
        }
    }

    package var failpoint: ((StoreWrite) throws -> Void)?
    @exclusivity(unchecked) private var payments: [UInt32: PaymentRecord] = [:]
    @exclusivity(unchecked) private var admissionOrder: [UInt32] = []
    @exclusivity(unchecked) private var keys: [UserKey: PaymentFingerprint] = [:]
    @exclusivity(unchecked) private var charges: [UInt32: (user: UInt32, charge: CapturedCharge)] = [:]
    @exclusivity(unchecked) private var entries: [UserCurrency: LedgerEntry] = [:]
    @exclusivity(unchecked) private var latest: Int64 = 0
    @exclusivity(unchecked) private var refundsOfCharge: [UInt32: [UInt32]] = [:]

    /// An empty store.
    package init() {}

    package func record(of payment: UInt32) -> PaymentRecord? { payments[payment] }

    package func fingerprint(user: UInt32, key: UInt32) -> PaymentFingerprint? { keys[UserKey(user: user, key: key)] }

    package func capturedCharge(user: UInt32, charge: UInt32) -> CapturedCharge? {
        guard let found = charges[charge], found.user == user else { return nil }
        return found.charge
    }

    package func settledRefunds(of charge: UInt32) -> Int64 {
        (refundsOfCharge[charge] ?? []).reduce(0) { sum, id in
            guard let record = payments[id], record.outcome?.state == .refunded else { return sum }
            return sum + (record.request.payment.amountMinor ?? 0)
        }
    }

    package func unfinished() -> [PaymentRecord] { records().filter { $0.outcome == nil } }

    package func records() -> [PaymentRecord] { admissionOrder.map { payments[$0]! } }

    package func ledger() -> [LedgerRow] {
        entries.keys.sorted().map { LedgerRow(user: $0.user, entry: entries[$0]!) }
    }

    package func ledger(of user: UInt32) -> [LedgerEntry] {
        Currency.inCodeOrder.compactMap { entries[UserCurrency(user: user, currency: $0)] }
    }

    package func latestInstant() -> Int64 { latest }

    package func admit(_ record: PaymentRecord, takesKey: Bool) throws {
        let id = record.request.payment.id
        payments[id] = record
        admissionOrder.append(id)
        do { try failpoint?(.admit) } catch {
            payments[id] = nil
            admissionOrder.removeLast()
            throw error
        }
        if takesKey, let fingerprint = record.request.payment.fingerprint {
            keys[UserKey(user: record.request.user, key: record.request.payment.key)] = fingerprint
        }
        if record.request.payment.kind == .refund, let target = record.request.payment.refundOf { refundsOfCharge[target, default: []].append(id) }
        latest = max(latest, record.admittedAt)
    }

    package func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws {
        guard let before = payments[payment] else { throw StoreFailure("payment \(payment) was never admitted") }
        payments[payment]!.progress = .attemptSent(attempt: attempt, deadline: deadline)
        do { try failpoint?(.intent) } catch {
            payments[payment] = before
            throw error
        }
        latest = max(latest, deadline)
    }

    package func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        guard let before = payments[payment] else { throw StoreFailure("payment \(payment) was never admitted") }
        payments[payment]!.progress = .final(outcome)
        do { try failpoint?(.settle) } catch {
            payments[payment] = before
            throw error
        }
        let request = before.request
        let payment = request.payment
        guard let amount = payment.amountMinor, let currency = payment.currency else { return }
        let slot = UserCurrency(user: request.user, currency: currency)
        switch outcome.state {
        case .captured:
            entries[slot, default: LedgerEntry(currency: currency)].capturedMinor += amount
            charges[payment.id] = (request.user, CapturedCharge(amountMinor: amount, currency: currency))
        case .refunded:
            entries[slot, default: LedgerEntry(currency: currency)].refundedMinor += amount
            if let target = payment.refundOf { charges[target]?.charge.refundedMinor += amount }
        default: break
        }
    }
}
