@_spi(Tooling) import PaymentService
import PaymentsCore

/// A store as a service with the planted misuse of it uses it: under `refund-twice` each refund is
/// booked twice; under `skip-refund-checks` every charge reads as never refunded and of unbounded
/// amount, so that the service's checks let any refund of it through. The store below is sound.
final class MisusedStore: DurablePaymentStore {
    private let base: any DurablePaymentStore
    private let booksRefundsTwice: Bool
    private let hidesCharges: Bool

    init(base: any DurablePaymentStore, flaws: Set<PlantedFlaw>) {
        self.base = base
        booksRefundsTwice = flaws.contains(.refundTwice)
        hidesCharges = flaws.contains(.skipRefundChecks)
    }

    var failpoint: ((StoreWrite) throws -> Void)? {
        get { base.failpoint }
        set { base.failpoint = newValue }
    }

    func record(of payment: UInt32) throws -> PaymentRecord? { try base.record(of: payment) }
    func fingerprint(user: UInt32, key: UInt32) throws -> PaymentFingerprint? { try base.fingerprint(user: user, key: key) }
    func capturedCharge(user: UInt32, charge: UInt32) throws -> CapturedCharge? {
        let captured = try base.capturedCharge(user: user, charge: charge)
        guard hidesCharges, let captured else { return captured }
        return CapturedCharge(amountMinor: .max, currency: captured.currency)
    }
    func settledRefunds(of charge: UInt32) throws -> Int64 { try base.settledRefunds(of: charge) }
    func unfinished() throws -> [PaymentRecord] { try base.unfinished() }
    func records() throws -> [PaymentRecord] { try base.records() }
    func ledger() throws -> [LedgerRow] { try base.ledger() }
    func ledger(of user: UInt32) throws -> [LedgerEntry] { try base.ledger(of: user) }
    func latestInstant() throws -> Int64 { try base.latestInstant() }

    func admit(_ record: PaymentRecord, takesKey: Bool) throws { try base.admit(record, takesKey: takesKey) }
    func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws { try base.writeIntent(payment: payment, attempt: attempt, deadline: deadline) }
    func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        try base.settle(payment: payment, outcome)
        if booksRefundsTwice, outcome.state == .refunded { try base.settle(payment: payment, outcome) }
    }
}
