import PaymentsCore
import Testing
import TestSupport

@Suite("Payment invariants (SPEC §4)")
struct PaymentInvariantsTests {
    /// Runs one random case: 1–3 users with random payments and a random `max_attempts`; returns
    /// each user's violations and all outcomes.
    static func runRandomCase(seed: UInt64) -> (violations: [[String]], outcomes: [PaymentOutcome]) {
        var random = SplitMix64(seed: seed)
        var sut = PaymentProcessor(policy: RetryPolicy(maxAttempts: Int.random(in: 1...5, using: &random)), seed: seed)
        var violations: [[String]] = []
        var outcomes: [PaymentOutcome] = []
        for user in 0..<Int.random(in: 1...3, using: &random) {
            let payments = RandomInputs.userPayments(firstId: UInt32(user) * 100_000, using: &random)
            sut.startUser()
            let userOutcomes = payments.map { sut.process($0) }
            outcomes += userOutcomes
            violations.append(PaymentInvariants.violations(
                payments: zip(payments, userOutcomes).map { ($0, Optional($1)) }, ledger: sut.ledger, gateway: sut.gateway
            ))
        }
        return (violations, outcomes)
    }

    @Test("random payment sequences with random scripts keep every invariant", arguments: 0..<300 as Range<UInt64>)
    func randomSequences(seed: UInt64) {
        // Given random users' payments (retries reusing keys, conflicting keys, refunds, invalid rows)
        // When they are processed
        let sut = Self.runRandomCase(seed: seed)
        // Then
        #expect(sut.violations.flatMap { $0 } == [])
    }

    @Test("the random sequences reach every final state and every processor rejection reason")
    func randomSequencesCoverTheRules() {
        // Given the 300 cases above
        // When
        let outcomes = (0..<300 as Range<UInt64>).flatMap { Self.runRandomCase(seed: $0).outcomes }
        // Then the property above is not vacuous
        #expect(Set(outcomes.map(\.state)) == Set(PaymentState.allCases))
        #expect(Set(outcomes.compactMap(\.reason)) == Set(PaymentRejection.allCases).subtracting([.malformed, .unknownUser]))
        #expect(Set(outcomes.map(\.attempts)) == Set(0...5))
    }

    /// Charge 1 (10.00 USD, captured) and refund 2 of 3.00 from it (refunded).
    static let charge = PaymentBuilder().id(1).key(1).build()
    static let refund = PaymentBuilder().id(2).key(2).amount(300).refund(of: 1).build()

    static func ledger(captured: Int64, refunded: Int64, in currency: Currency = .usd) -> UserLedger {
        var ledger = UserLedger()
        ledger.capture(captured, in: currency)
        ledger.refund(refunded, in: currency)
        return ledger
    }

    @Test("a consistent run has no violation")
    func consistent() {
        // Given
        let payments: [(request: PaymentRequest, outcome: PaymentOutcome?)] = [
            (Self.charge, PaymentOutcome(state: .captured, attempts: 1)),
            (Self.refund, PaymentOutcome(state: .refunded, attempts: 1)),
            (PaymentBuilder().id(3).key(3).amount(nil).build(), .rejected(.invalidAmount)),
        ]
        // When
        let sut = PaymentInvariants.violations(payments: payments, ledger: Self.ledger(captured: 1_000, refunded: 300), gateway: ScriptedGateway())
        // Then
        #expect(sut.isEmpty)
    }

    @Test(
        "broken runs are reported",
        arguments: [
            // a payment without an outcome
            ([(charge, nil)] as [(PaymentRequest, PaymentOutcome?)], UserLedger(), ["payment 1 has no final state"]),
            // a rejection without a reason, a reason without a rejection
            ([(charge, PaymentOutcome(state: .rejected))], UserLedger(), ["payment 1 is rejected with reason none"]),
            ([(charge, PaymentOutcome(state: .declined, reason: .overLimit))], UserLedger(), ["payment 1 is declined with reason over_limit"]),
            // the ledger misses a capture, or holds one no outcome explains
            ([(charge, PaymentOutcome(state: .captured, attempts: 1))], UserLedger(), ["USD ledger captured 0 refunded 0, outcomes sum to 1000 and 0"]),
            ([], ledger(captured: 500, refunded: 0, in: .eur), ["EUR ledger captured 500 refunded 0, outcomes sum to 0 and 0"]),
            ([(charge, PaymentOutcome(state: .captured)), (refund, PaymentOutcome(state: .refunded))], ledger(captured: 1_000, refunded: 0),
             ["USD ledger captured 1000 refunded 0, outcomes sum to 1000 and 300"]),
            // more refunded than captured
            ([(PaymentBuilder().amount(100).build(), PaymentOutcome(state: .captured)), (refund, PaymentOutcome(state: .refunded))],
             ledger(captured: 100, refunded: 300), ["USD balance -200 < 0"]),
        ] as [([(PaymentRequest, PaymentOutcome?)], UserLedger, [String])]
    )
    func brokenRuns(payments: [(PaymentRequest, PaymentOutcome?)], ledger: UserLedger, expected: [String]) {
        // Given a run broken as described, When checking it
        let sut = PaymentInvariants.violations(payments: payments.map { ($0.0, $0.1) }, ledger: ledger, gateway: ScriptedGateway())
        // Then
        #expect(sut == expected)
    }

    @Test("a gateway that acts twice for one key is reported; the scripted gateway is not")
    func doubleAction() {
        // Given a charge scripted L;L: lost, so retried
        let payment = PaymentBuilder().key(9).script("L;L").build()
        var faulty = PaymentProcessor(policy: RetryPolicy(maxAttempts: 2), gateway: NonIdempotentGateway(), random: SplitMix64(seed: 1), clock: ManualClock())
        var sound = PaymentProcessor(policy: RetryPolicy(maxAttempts: 2), seed: 1)
        // When both process it
        let faultyOutcome = faulty.process(payment)
        let soundOutcome = sound.process(payment)
        // Then the faulty gateway charged twice (two lost answers, reconciled as approved)
        #expect(OutcomeRow(faultyOutcome) == .captured(2))
        #expect(PaymentInvariants.violations(payments: [(payment, faultyOutcome)], ledger: faulty.ledger, gateway: faulty.gateway)
            == ["gateway acted 2 times for key 9"])
        #expect(faulty.gateway.actions(key: 9) == 2)
        // and the idempotent one answered approved on the retry
        #expect(OutcomeRow(soundOutcome) == .captured(2))
        #expect(PaymentInvariants.violations(payments: [(payment, soundOutcome)], ledger: sound.ledger, gateway: sound.gateway).isEmpty)
    }

    @Test("the faulty gateway forgets on reset")
    func faultyReset() {
        var sut = NonIdempotentGateway()
        _ = sut.submit(GatewayRequest(key: 1, attempt: 0, script: GatewayScript([.approved])))
        let before = sut.hasActed(key: 1)
        sut.reset()
        #expect(before)
        #expect(!sut.hasActed(key: 1))
    }
}
