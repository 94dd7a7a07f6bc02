import PaymentsCore
import Testing
import TestSupport

@Suite("Gateway attempts, retries and reconciliation (SPEC §4 steps 4–5)")
struct GatewayFlowTests {
    @Test(
        "every script shape: final state, attempts, and whether it reconciled",
        arguments: [
            ("A", 3, OutcomeRow.captured(1), false),
            ("D", 3, .declined(1), false),
            ("T", 3, .failed(3), true),
            ("L", 3, .captured(2), false),
            ("L;D", 3, .captured(2), false),
            ("T;L;D", 3, .captured(3), false),
            ("T;T;T", 3, .failed(3), true),
            ("T;A", 3, .captured(2), false),
            ("T;D", 3, .declined(2), false),
            ("T;T;L", 3, .captured(3), true),  // the last attempt was lost: reconciling finds it acted
            ("T;T;T;A", 3, .failed(3), true),
            ("D;A", 3, .declined(1), false),
            ("A;D", 3, .captured(1), false),
            // max_attempts variations
            ("T", 1, .failed(1), true),
            ("L", 1, .captured(1), true),
            ("A", 1, .captured(1), false),
            ("T;A", 1, .failed(1), true),
            ("T;A", 2, .captured(2), false),
            ("T;T;A", 2, .failed(2), true),
            ("T;L", 2, .captured(2), true),
            ("T;T;T;A", 5, .captured(4), false),
            ("T", 5, .failed(5), true),  // a short script repeats its last token
            ("T;D", 5, .declined(2), false),
            ("T;L", 5, .captured(3), false),
            ("D;T", 5, .declined(1), false),
        ] as [(String, Int, OutcomeRow, Bool)]
    )
    func scriptShape(script: String, maxAttempts: Int, expected: OutcomeRow, reconciled: Bool) {
        // Given a charge with key 7 and its script
        let payment = PaymentBuilder().key(7).script(script).build()
        var sut = makeSpiedProcessor(maxAttempts: maxAttempts)
        // When
        let outcome = OutcomeRow(sut.process(payment))
        // Then attempts are numbered from 0 and reconciling is not an attempt
        #expect(outcome == expected)
        #expect(sut.gateway.submitted.map(\.attempt) == Array(0..<expected.attempts))
        #expect(sut.gateway.submitted.allSatisfy { $0.key == 7 && $0.script == payment.script })
        #expect(sut.gateway.reconciled == (reconciled ? [7] : []))
        #expect(sut.gateway.actions(key: 7) == (expected.state == .captured ? 1 : 0))
        #expect(sut.ledger.entries == (expected.state == .captured ? [LedgerEntry(currency: .usd, capturedMinor: 1_000)] : []))
    }

    @Test(
        "the processor decides from the gateway's answers and its reconciliation alone",
        arguments: [
            ([GatewayResponse.timedOut], true, OutcomeRow.captured(3)),
            ([.timedOut], false, .failed(3)),
            ([.lost], false, .failed(3)),  // a gateway that forgot it acted: the processor trusts reconciliation
            ([.timedOut, .approved], false, .captured(2)),
            ([.timedOut, .timedOut, .declined], true, .declined(3)),
        ] as [([GatewayResponse], Bool, OutcomeRow)]
    )
    func stubbedGateway(answers: [GatewayResponse], reconcileAnswer: Bool, expected: OutcomeRow) {
        // Given a stub that ignores the script (A)
        var sut = PaymentProcessor(
            policy: RetryPolicy(), gateway: StubGateway(answers: answers, reconcileAnswer: reconcileAnswer),
            random: SplitMix64(seed: 3), clock: ManualClock()
        )
        // When
        let outcome = OutcomeRow(sut.process(PaymentBuilder().build()))
        // Then
        #expect(outcome == expected)
        #expect(sut.gateway.calls == expected.attempts)
    }

    /// One advance of the simulated clock: a fixed latency, or a backoff within a range.
    enum Advance: Sendable, CustomStringConvertible {
        case fixed(Int64)
        case backoff(ClosedRange<Int64>)

        func admits(_ millis: Int64) -> Bool {
            switch self {
            case .fixed(let value): millis == value
            case .backoff(let range): range.contains(millis)
            }
        }

        var description: String {
            switch self {
            case .fixed(let value): "\(value)"
            case .backoff(let range): "\(range)"
            }
        }
    }

    @Test(
        "simulated time: response 40 ms, timeout 1000 ms, backoff in [half, full] of 100 × 2^attempt between attempts",
        arguments: [
            ("A", [Advance.fixed(40)]),
            ("D", [.fixed(40)]),
            ("T;A", [.fixed(1_000), .backoff(50...100), .fixed(40)]),
            ("L", [.fixed(1_000), .backoff(50...100), .fixed(40)]),
            ("T;T;D", [.fixed(1_000), .backoff(50...100), .fixed(1_000), .backoff(100...200), .fixed(40)]),
            // no backoff after the last attempt; reconciling takes one response time
            ("T;T;T", [.fixed(1_000), .backoff(50...100), .fixed(1_000), .backoff(100...200), .fixed(1_000), .fixed(40)]),
        ] as [(String, [Advance])]
    )
    func latency(script: String, expected: [Advance]) {
        // Given a processor on a recording clock that starts at 5000 ms
        var sut = PaymentProcessor(policy: RetryPolicy(), gateway: ScriptedGateway(), random: SplitMix64(seed: 11), clock: RecordingClock(nowMillis: 5_000))
        // When
        let outcome = sut.process(PaymentBuilder().script(script).build())
        // Then
        let advances = sut.clock.advances
        #expect(advances.count == expected.count)
        for (index, (advance, want)) in zip(advances, expected).enumerated() {
            #expect(want.admits(advance), "advance \(index): \(advance) ms, expected \(want)")
        }
        #expect(outcome.latencyMillis == advances.reduce(0, +))
        #expect(sut.clock.nowMillis == 5_000 + outcome.latencyMillis)
    }

    @Test("a payment that never reaches the gateway takes no simulated time")
    func noLatency() {
        // Given
        var sut = PaymentProcessor(policy: RetryPolicy(), gateway: ScriptedGateway(), random: SplitMix64(seed: 11), clock: RecordingClock())
        // When a rejected and a deduplicated payment are processed after a captured one
        let outcomes = sut.processAll([
            PaymentBuilder().id(1).key(1).build(), PaymentBuilder().id(2).key(2).amount(0).build(), PaymentBuilder().id(3).key(1).build(),
        ])
        // Then only the first advanced the clock
        #expect(outcomes == [.captured(1), .rejected(.invalidAmount), .deduplicated])
        #expect(sut.clock.advances == [40])
    }

    @Test("the same seed gives the same latencies; the default processor uses the SPEC policy")
    func deterministic() {
        // Given two default processors with one seed and a third with another
        let payments = (1...20).map { PaymentBuilder().id($0).key($0).script("T;T;A").build() }
        var sut = PaymentProcessor(seed: 9)
        var twin = PaymentProcessor(seed: 9)
        var other = PaymentProcessor(seed: 10)
        // When
        let latencies = payments.map { sut.process($0).latencyMillis }
        // Then
        #expect(payments.map { twin.process($0).latencyMillis } == latencies)
        #expect(payments.map { other.process($0).latencyMillis } != latencies)
        #expect(sut.policy == RetryPolicy())
        #expect(sut.clock.nowMillis == latencies.reduce(0, +))
    }
}
