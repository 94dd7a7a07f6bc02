import PaymentsCore
import Testing
import TestSupport

@Suite("Refunds (SPEC §4 step 3)")
struct RefundTests {
    /// Charge 1: 100.00 USD, captured.
    static let charge = PaymentBuilder().id(1).key(1).amount(10_000).build()

    /// A refund with id and key `n` of `amount` from charge 1.
    static func refund(_ n: UInt32, _ amount: Int64) -> PaymentBuilder {
        PaymentBuilder().id(n).key(n).amount(amount).refund(of: 1)
    }

    @Test(
        "refunds against a captured charge, up to exactly its amount",
        arguments: [
            ([refund(2, 4_000)], [OutcomeRow.refunded(1)], 4_000),
            ([refund(2, 4_000), refund(3, 6_000)], [.refunded(1), .refunded(1)], 10_000),
            ([refund(2, 10_000)], [.refunded(1)], 10_000),
            ([refund(2, 10_001)], [.rejected(.refundExceeds)], 0),
            ([refund(2, 4_000), refund(3, 6_000), refund(4, 1)], [.refunded(1), .refunded(1), .rejected(.refundExceeds)], 10_000),
            ([refund(2, 4_000), refund(3, 6_001), refund(4, 6_000)], [.refunded(1), .rejected(.refundExceeds), .refunded(1)], 10_000),
            // a declined or failed refund returns nothing, so it does not use up the charge
            ([refund(2, 6_000).script("D"), refund(3, 10_000)], [.declined(1), .refunded(1)], 10_000),
            ([refund(2, 6_000).script("T"), refund(3, 10_000)], [.failed(3), .refunded(1)], 10_000),
            // a lost answer: the gateway acted, the retry is approved
            ([refund(2, 2_500).script("L")], [.refunded(2)], 2_500),
        ] as [([PaymentBuilder], [OutcomeRow], Int64)]
    )
    func refunds(refunds: [PaymentBuilder], expected: [OutcomeRow], refunded: Int64) {
        // Given the captured charge
        var sut = makeSpiedProcessor()
        // When
        let outcomes = sut.processAll([Self.charge] + refunds.map { $0.build() })
        // Then
        #expect(outcomes == [.captured(1)] + expected)
        #expect(sut.ledger.entries == [LedgerEntry(currency: .usd, capturedMinor: 10_000, refundedMinor: refunded)])
    }

    @Test(
        "refund_of must name a captured charge of this user processed earlier",
        arguments: [
            // unknown id, or no refund_of
            ([PaymentBuilder().id(2).key(2).refund(of: 99)], OutcomeRow.rejected(.unknownCharge)),
            ([PaymentBuilder().id(2).key(2).refund(of: nil)], .rejected(.unknownCharge)),
            // a refund of a refund
            ([refund(2, 100), PaymentBuilder().id(3).key(3).amount(50).refund(of: 2)], .rejected(.unknownCharge)),
            // of a declined, a failed, a rejected or a deduplicated charge
            ([PaymentBuilder().id(2).key(2).script("D"), PaymentBuilder().id(3).key(3).refund(of: 2)], .rejected(.unknownCharge)),
            ([PaymentBuilder().id(2).key(2).script("T"), PaymentBuilder().id(3).key(3).refund(of: 2)], .rejected(.unknownCharge)),
            ([PaymentBuilder().id(2).key(2).amount(0), PaymentBuilder().id(3).key(3).refund(of: 2)], .rejected(.unknownCharge)),
            ([PaymentBuilder().id(2).key(1).amount(10_000), PaymentBuilder().id(3).key(3).refund(of: 2)], .rejected(.unknownCharge)),
            // in another currency, checked before the amount
            ([PaymentBuilder().id(2).key(2).currency(.eur).refund(of: 1)], .rejected(.currencyMismatch)),
            ([PaymentBuilder().id(2).key(2).currency(.jpy).amount(20_000).refund(of: 1)], .rejected(.currencyMismatch)),
        ] as [([PaymentBuilder], OutcomeRow)]
    )
    func refundChecks(payments: [PaymentBuilder], expected: OutcomeRow) throws {
        // Given the captured charge and the payments before the last
        var sut = makeSpiedProcessor()
        let outcomes = sut.processAll([Self.charge] + payments.map { $0.build() })
        // When the last refund is processed, Then it is rejected before the gateway
        let last = try #require(outcomes.last)
        #expect(last == expected)
        #expect(sut.gateway.submitted.allSatisfy { $0.key != payments.last!.key })
    }

    @Test("a refund processed before its charge is an unknown charge")
    func refundBeforeCharge() {
        // Given a refund of charge 2 that comes first
        var sut = makeSpiedProcessor()
        // When
        let outcomes = sut.processAll([
            PaymentBuilder().id(1).key(1).refund(of: 2).build(),
            PaymentBuilder().id(2).key(2).build(),
        ])
        // Then
        #expect(outcomes == [.rejected(.unknownCharge), .captured(1)])
    }
}
