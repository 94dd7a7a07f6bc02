import PaymentsCore
import Testing
import TestSupport

@Suite("Payment validation (SPEC §4 step 1)")
struct ValidationTests {
    @Test(
        "missing_key, unsupported_currency, invalid_amount, over_limit, in that order",
        arguments: [
            (0, Currency.usd, 1_000, OutcomeRow.rejected(.missingKey)),
            (256, .usd, 1_000, .rejected(.missingKey)),
            (255, .usd, 1_000, .captured(1)),
            (1, .usd, 1_000, .captured(1)),
            (0, nil, nil, .rejected(.missingKey)),
            (8, nil, nil, .rejected(.unsupportedCurrency)),
            (8, nil, 1_000, .rejected(.unsupportedCurrency)),
            (8, .usd, nil, .rejected(.invalidAmount)),
            (8, .usd, 0, .rejected(.invalidAmount)),
            (8, .usd, -1, .rejected(.invalidAmount)),
            (8, .usd, 100_000_000, .captured(1)),  // the limit itself: 1,000,000.00 USD
            (8, .usd, 100_000_001, .rejected(.overLimit)),
            (8, .usd, Int64.max, .rejected(.overLimit)),
            (8, .jpy, 1_000_000, .captured(1)),
            (8, .jpy, 1_000_001, .rejected(.overLimit)),
            (8, .kwd, 1_000_000_000, .captured(1)),
            (8, .kwd, 1_000_000_001, .rejected(.overLimit)),
            (8, .bhd, 1_000_000_001, .rejected(.overLimit)),
        ] as [(Int, Currency?, Int64?, OutcomeRow)]
    )
    func validation(keyLength: Int, currency: Currency?, amount: Int64?, expected: OutcomeRow) {
        // Given a charge scripted A
        let payment = PaymentBuilder().keyLength(keyLength).currency(currency).amount(amount).build()
        var sut = makeSpiedProcessor()
        // When
        let outcome = OutcomeRow(sut.process(payment))
        // Then a rejected payment never reaches the gateway
        #expect(outcome == expected)
        #expect(sut.gateway.submitted.count == expected.attempts)
    }

    @Test(
        "refunds are validated before their refund checks",
        arguments: [
            (PaymentBuilder().refund(of: 99).amount(100_000_001), OutcomeRow.rejected(.overLimit)),
            (PaymentBuilder().refund(of: 99).amount(0), .rejected(.invalidAmount)),
            (PaymentBuilder().refund(of: 99).currency(nil), .rejected(.unsupportedCurrency)),
            (PaymentBuilder().refund(of: 99).keyLength(0), .rejected(.missingKey)),
            (PaymentBuilder().refund(of: 99), .rejected(.unknownCharge)),
        ]
    )
    func refundValidation(payment: PaymentBuilder, expected: OutcomeRow) {
        var sut = makeSpiedProcessor()
        #expect(OutcomeRow(sut.process(payment.build())) == expected)
    }

    @Test(
        "a payment rejected by validation does not record its key",
        arguments: [
            PaymentBuilder().amount(0),
            PaymentBuilder().amount(nil),
            PaymentBuilder().currency(nil),
            PaymentBuilder().amount(100_000_001),
        ]
    )
    func invalidDoesNotRecordKey(invalid: PaymentBuilder) {
        // Given an invalid payment with key 5, then a valid one with key 5
        var sut = makeSpiedProcessor()
        let payments = [invalid.id(1).key(5).build(), PaymentBuilder().id(2).key(5).build()]
        // When
        let outcomes = sut.processAll(payments)
        // Then the valid one is processed, not deduplicated nor in conflict
        #expect(outcomes[1] == .captured(1))
    }

    @Test(
        "payments of a user are processed in (created_at, payment_id) order",
        arguments: [
            (1, 1, 2, 0, true),  // earlier created_at first, whatever the ids
            (2, 0, 1, 1, false),
            (5, 3, 5, 4, false),  // same created_at: lower id rank first
            (5, 4, 5, 3, true),
            (5, 4, 5, 4, false),
        ] as [(Int64, UInt32, Int64, UInt32, Bool)]
    )
    func order(createdA: Int64, idA: UInt32, createdB: Int64, idB: UInt32, precedes: Bool) {
        // Given ranks that reverse the interned ids
        let a = PaymentBuilder().id(idA).createdAt(createdA).build()
        let b = PaymentBuilder().id(idB).createdAt(createdB).build()
        // When, Then
        #expect(PaymentRequest.precedes(a, b) { 10 - $0 } == precedes)
    }
}
