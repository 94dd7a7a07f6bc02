@_spi(Tooling) import PaymentService
import PaymentsCore

/// A store as a service with the planted misuse of it uses it: under `refund-twice` each refund is
/// booked twice; under `skip-refund-checks` every charge reads as never refunded and of unbounded
/// amount, so that the service's checks let any refund of it through. The store below is sound.
final class MisusedStore: ForwardingPaymentStore {
    let forwarded: any DurablePaymentStore
    private let booksRefundsTwice: Bool
    private let hidesCharges: Bool

    init(base: any DurablePaymentStore, flaws: Set<PlantedFlaw>) {
        forwarded = base
        booksRefundsTwice = flaws.contains(.refundTwice)
        hidesCharges = flaws.contains(.skipRefundChecks)
    }

    func capturedCharge(user: UInt32, charge: UInt32) throws -> CapturedCharge? {
        let captured = try forwarded.capturedCharge(user: user, charge: charge)
        guard hidesCharges, let captured else { return captured }
        return CapturedCharge(amountMinor: .max, currency: captured.currency)
    }

    func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        try forwarded.settle(payment: payment, outcome)
        if booksRefundsTwice, outcome.state == .refunded { try forwarded.settle(payment: payment, outcome) }
    }
}
