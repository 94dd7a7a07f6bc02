import PaymentsCore
import Testing
import TestSupport

@Suite("Idempotency (SPEC §4 step 2)")
struct IdempotencyTests {
    /// Charge 1 under key 1: 10.00 USD, approved.
    static let original = PaymentBuilder().id(1).key(1).build()

    @Test(
        "a key seen before with the same kind, amount, currency and refund_of is deduplicated",
        arguments: [
            PaymentBuilder().id(2).key(1),
            PaymentBuilder().id(2).key(1).script("D"),  // the script is not part of the request's identity
            PaymentBuilder().id(2).key(1, length: 30).createdAt(99),
        ]
    )
    func deduplicated(retry: PaymentBuilder) {
        // Given the original charge
        var sut = makeSpiedProcessor()
        // When a retry with the same key and values follows
        let outcomes = sut.processAll([Self.original, retry.build()])
        // Then no gateway call and no ledger change
        #expect(outcomes == [.captured(1), .deduplicated])
        #expect(sut.gateway.submitted.count == 1)
        #expect(sut.ledger.entries == [LedgerEntry(currency: .usd, capturedMinor: 1_000)])
    }

    @Test(
        "the same key with other values is an idempotency_conflict",
        arguments: [
            PaymentBuilder().id(2).key(1).amount(1_001),
            PaymentBuilder().id(2).key(1).currency(.eur),
            PaymentBuilder().id(2).key(1).refund(of: 1),
            PaymentBuilder().id(2).key(1).amount(500).refund(of: 1),
        ]
    )
    func conflict(other: PaymentBuilder) {
        // Given the original charge
        var sut = makeSpiedProcessor()
        // When another payment reuses its key with other values, then a true retry follows
        let outcomes = sut.processAll([Self.original, other.build(), PaymentBuilder().id(3).key(1).build()])
        // Then the conflict changes nothing: the retry still matches the original
        #expect(outcomes == [.captured(1), .rejected(.idempotencyConflict), .deduplicated])
        #expect(sut.gateway.submitted.count == 1)
        #expect(sut.ledger.entries == [LedgerEntry(currency: .usd, capturedMinor: 1_000)])
    }

    @Test(
        "refund_of is part of a refund's identity",
        arguments: [
            (PaymentBuilder().id(4).key(2).amount(300).refund(of: 1), OutcomeRow.deduplicated),
            (PaymentBuilder().id(4).key(2).amount(300).refund(of: 3), .rejected(.idempotencyConflict)),
            (PaymentBuilder().id(4).key(2).amount(300).refund(of: nil), .rejected(.idempotencyConflict)),
        ]
    )
    func refundIdentity(retry: PaymentBuilder, expected: OutcomeRow) {
        // Given charges 1 and 3, and a refund of 3.00 from charge 1 under key 2
        var sut = makeSpiedProcessor()
        let given = sut.processAll([
            Self.original, PaymentBuilder().id(3).key(3).build(), PaymentBuilder().id(2).key(2).amount(300).refund(of: 1).build(),
        ])
        // When
        let outcome = OutcomeRow(sut.process(retry.build()))
        // Then
        #expect(given == [.captured(1), .captured(1), .refunded(1)])
        #expect(outcome == expected)
    }

    @Test(
        "a retry of a payment that did not go through replays its result: deduplicated",
        arguments: [
            (PaymentBuilder().id(1).key(1).script("D"), OutcomeRow.declined(1)),
            (PaymentBuilder().id(1).key(1).script("T"), .failed(3)),
            (PaymentBuilder().id(1).key(1).refund(of: 42), .rejected(.unknownCharge)),
        ]
    )
    func retryAfterFailure(first: PaymentBuilder, firstOutcome: OutcomeRow) {
        // Given a payment that ended without money moving
        var sut = makeSpiedProcessor()
        let firstRequest = first.build()
        // When the client retries it with a script that would succeed
        let outcomes = sut.processAll([firstRequest, first.id(2).script("A").build()])
        // Then the retry never reaches the gateway
        #expect(outcomes == [firstOutcome, .deduplicated])
        #expect(sut.gateway.submitted.count == firstOutcome.attempts)
        #expect(sut.ledger.entries.isEmpty)
    }

    @Test("keys, charges, the ledger and the gateway are per user")
    func perUser() {
        // Given a user whose charge 1 was captured under key 1
        var sut = makeSpiedProcessor()
        let first = sut.processAll([Self.original])
        // When the next user starts and sends key 1, then a refund of charge 1
        sut.startUser()
        let next = sut.processAll([
            PaymentBuilder().id(2).key(1).amount(700).build(),
            PaymentBuilder().id(3).key(3).amount(100).refund(of: 1).build(),
        ])
        // Then the key is new for that user, and the other user's charge is unknown
        #expect(first == [.captured(1)])
        #expect(next == [.captured(1), .rejected(.unknownCharge)])
        #expect(sut.ledger.entries == [LedgerEntry(currency: .usd, capturedMinor: 700)])
        #expect(sut.gateway.resets == 1)
        #expect(sut.gateway.submitted.count == 2)
    }
}
