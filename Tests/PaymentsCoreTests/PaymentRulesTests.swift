import PaymentsCore
import Testing
import TestSupport

@Suite("PaymentRules: SPEC §4 one decision at a time")
struct PaymentRulesTests {
    static let charge = PaymentBuilder().id(1).key(1).amount(1_000)

    @Test("step 1 rejects in SPEC order and takes no key", arguments: [
        (PaymentBuilder().keyLength(0), PaymentRejection.missingKey),
        (PaymentBuilder().keyLength(256), .missingKey),
        (PaymentBuilder().keyLength(0).currency(nil), .missingKey),
        (PaymentBuilder().currency(nil), .unsupportedCurrency),
        (PaymentBuilder().currency(nil).amount(0), .unsupportedCurrency),
        (PaymentBuilder().amount(nil), .invalidAmount),
        (PaymentBuilder().amount(0), .invalidAmount),
        (PaymentBuilder().amount(-5), .invalidAmount),
        (PaymentBuilder().amount(100_000_001), .overLimit),
        (PaymentBuilder().currency(.jpy).amount(1_000_001), .overLimit),
    ])
    func validation(payment: PaymentBuilder, reason: PaymentRejection) {
        // Given a payment that breaks a step-1 rule, whatever its key's history
        let sut = payment.build()
        // When it is admitted
        let admission = PaymentRules.admission(of: sut, recorded: Self.charge.build().fingerprint, charge: nil)
        // Then it is rejected for the first rule it breaks, without taking its key
        #expect(admission == .settled(.rejected(reason), takesKey: false))
    }

    @Test("the limit itself is allowed")
    func limitAllowed() {
        // Given a charge of exactly 1,000,000.00 USD
        let sut = PaymentBuilder().amount(100_000_000).build()
        // When it is admitted with a fresh key
        let admission = PaymentRules.admission(of: sut, recorded: nil, charge: nil)
        // Then it goes to the gateway
        #expect(admission == .callGateway)
    }

    @Test("a recorded key decides before the refund checks, without taking the key again", arguments: [
        (PaymentBuilder().id(2).key(1).amount(1_000), PaymentOutcome(state: .deduplicated)),
        (PaymentBuilder().id(2).key(1).amount(999), .rejected(.idempotencyConflict)),
        (PaymentBuilder().id(2).key(1).amount(1_000).refund(of: 7), .rejected(.idempotencyConflict)),
    ])
    func recordedKey(payment: PaymentBuilder, outcome: PaymentOutcome) {
        // Given key 1 recorded for a charge of 10.00 USD
        let recorded = Self.charge.build().fingerprint
        // When a payment reuses it
        let admission = PaymentRules.admission(of: payment.build(), recorded: recorded, charge: nil)
        // Then it is deduplicated or a conflict
        #expect(admission == .settled(outcome, takesKey: false))
    }

    @Test("refund checks reject after taking the key, in SPEC order", arguments: [
        (nil as CapturedCharge?, PaymentBuilder().refund(of: 1).amount(100), PaymentRejection.unknownCharge),
        (CapturedCharge(amountMinor: 1_000, currency: .usd), PaymentBuilder().refund(of: nil).amount(100), .unknownCharge),
        (CapturedCharge(amountMinor: 1_000, currency: .eur), PaymentBuilder().refund(of: 1).amount(100), .currencyMismatch),
        (CapturedCharge(amountMinor: 1_000, currency: .eur), PaymentBuilder().refund(of: 1).amount(2_000), .currencyMismatch),
        (CapturedCharge(amountMinor: 1_000, currency: .usd, refundedMinor: 950), PaymentBuilder().refund(of: 1).amount(51), .refundExceeds),
    ])
    func refundChecks(charge: CapturedCharge?, refund: PaymentBuilder, reason: PaymentRejection) {
        // Given the charge a refund names (or none)
        let sut = refund.id(2).key(2).build()
        // When the refund is admitted
        let admission = PaymentRules.admission(of: sut, recorded: nil, charge: sut.refundOf == nil ? nil : charge)
        // Then it is rejected, its key taken
        #expect(admission == .settled(.rejected(reason), takesKey: true))
    }

    @Test("a refund that fits what is left of its charge goes to the gateway")
    func refundFits() {
        // Given a charge of 10.00 with 9.50 refunded
        let charge = CapturedCharge(amountMinor: 1_000, currency: .usd, refundedMinor: 950)
        // When a refund of the last 0.50 comes
        let admission = PaymentRules.admission(of: PaymentBuilder().id(2).key(2).refund(of: 1).amount(50).build(), recorded: nil, charge: charge)
        // Then it goes to the gateway
        #expect(admission == .callGateway)
    }

    @Test("after an answer: approve, decline, retry while attempts remain, else reconcile", arguments: [
        (GatewayResponse.approved, 0, 3, PaymentRules.AttemptDecision.approved),
        (.approved, 2, 3, .approved),
        (.declined, 0, 3, .declined),
        (.timedOut, 0, 3, .retry),
        (.lost, 1, 3, .retry),
        (.timedOut, 2, 3, .reconcile),
        (.lost, 2, 3, .reconcile),
        (.timedOut, 0, 1, .reconcile),
    ])
    func decision(response: GatewayResponse, attempt: Int, maxAttempts: Int, expected: PaymentRules.AttemptDecision) {
        // Given an answer to an attempt
        // When step 4 decides
        let sut = PaymentRules.decision(after: response, attempt: attempt, maxAttempts: maxAttempts)
        // Then it approves, declines, retries or reconciles
        #expect(sut == expected)
    }

    @Test("the final state of a payment that went to the gateway", arguments: [
        (PaymentKind.charge, true, false, PaymentState.captured),
        (.refund, true, false, .refunded),
        (.charge, false, true, .declined),
        (.refund, false, true, .declined),
        (.charge, false, false, .failed),
        (.refund, false, false, .failed),
    ])
    func finalState(kind: PaymentKind, approved: Bool, declined: Bool, expected: PaymentState) {
        // Given the gateway's verdict
        // When step 5 names the state
        let sut = PaymentRules.finalState(of: kind, approved: approved, declined: declined)
        // Then it is SPEC's
        #expect(sut == expected)
    }

    @Test("the fingerprint is the request's identity, nil without currency or amount")
    func fingerprint() {
        // Given a refund and two incomplete payments
        let refund = PaymentBuilder().refund(of: 3).amount(250).currency(.gbp).build()
        // When their fingerprints are taken
        // Then they hold kind, amount, currency and refund_of
        #expect(refund.fingerprint == PaymentFingerprint(kind: .refund, amountMinor: 250, currency: .gbp, refundOf: 3))
        #expect(PaymentBuilder().currency(nil).build().fingerprint == nil)
        #expect(PaymentBuilder().amount(nil).build().fingerprint == nil)
    }
}
