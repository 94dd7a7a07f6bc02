import PaymentsCore
import Testing
import TestSupport

/// A journal that a store spy and a gateway spy both write to, so the order of their calls shows.
final class Journal {
    var entries: [String] = []
}

/// The in-memory store, recording each state change in a journal.
struct JournalingStore: PaymentStore {
    let journal: Journal
    var inner = InMemoryPaymentStore()

    mutating func startUser() { inner.startUser() }
    func fingerprint(ofKey key: UInt32) -> PaymentFingerprint? { inner.fingerprint(ofKey: key) }
    mutating func record(key: UInt32, _ fingerprint: PaymentFingerprint) {
        journal.entries.append("record key \(key)")
        inner.record(key: key, fingerprint)
    }
    func capturedCharge(_ charge: UInt32) -> CapturedCharge? { inner.capturedCharge(charge) }
    mutating func capture(charge: UInt32, amountMinor: Int64, currency: Currency) {
        journal.entries.append("capture \(charge) \(amountMinor)")
        inner.capture(charge: charge, amountMinor: amountMinor, currency: currency)
    }
    mutating func refund(of charge: UInt32, amountMinor: Int64, currency: Currency) {
        journal.entries.append("refund of \(charge) \(amountMinor)")
        inner.refund(of: charge, amountMinor: amountMinor, currency: currency)
    }
    var ledger: UserLedger { inner.ledger }
}

/// The scripted gateway, recording each attempt in a journal.
struct JournalingGateway: PaymentGateway {
    let journal: Journal
    var inner = ScriptedGateway()

    mutating func submit(_ request: GatewayRequest) -> GatewayResponse {
        journal.entries.append("attempt \(request.attempt) key \(request.key)")
        return inner.submit(request)
    }
    func hasActed(key: UInt32) -> Bool { inner.hasActed(key: key) }
    func actions(key: UInt32) -> Int { inner.actions(key: key) }
    mutating func reset() { inner.reset() }
}

@Suite("PaymentStore: the processor's state behind a seam")
struct PaymentStoreTests {
    static func makeSUT(_ journal: Journal) -> PaymentProcessor<JournalingGateway, SplitMix64, ManualClock, JournalingStore> {
        PaymentProcessor(
            policy: RetryPolicy(), gateway: JournalingGateway(journal: journal), random: SplitMix64(seed: 1), clock: ManualClock(),
            store: JournalingStore(journal: journal)
        )
    }

    @Test("the key is recorded before the gateway is called, and the capture booked after its answer")
    func recordBeforeGateway() {
        // Given a processor over journaling spies
        let journal = Journal()
        var sut = Self.makeSUT(journal)
        // When a charge times out once, then is approved
        _ = sut.process(PaymentBuilder().id(4).key(9).amount(500).script("T;A").build())
        // Then the store took the key first, then the two attempts went out, then the capture was booked
        #expect(journal.entries == ["record key 9", "attempt 0 key 9", "attempt 1 key 9", "capture 4 500"])
    }

    @Test("a refund is checked against the store's captured charge and booked against it")
    func refundAgainstStore() {
        // Given a captured charge of 1000
        let journal = Journal()
        var sut = Self.makeSUT(journal)
        _ = sut.process(PaymentBuilder().id(1).key(1).amount(1_000).build())
        // When two refunds of 600 come, the second would exceed the charge
        let first = sut.process(PaymentBuilder().id(2).key(2).refund(of: 1).amount(600).build())
        let second = sut.process(PaymentBuilder().id(3).key(3).refund(of: 1).amount(600).build())
        // Then the first is booked, the second rejected without a gateway call
        #expect(first.state == .refunded)
        #expect(second == .rejected(.refundExceeds))
        #expect(sut.store.capturedCharge(1) == CapturedCharge(amountMinor: 1_000, currency: .usd, refundedMinor: 600))
        #expect(journal.entries.filter { $0.hasPrefix("attempt") }.count == 2)
        #expect(sut.ledger.entries == [LedgerEntry(currency: .usd, capturedMinor: 1_000, refundedMinor: 600)])
    }

    @Test("a retry with the same key is answered from the store's fingerprint, without a gateway call", arguments: [
        (600 as Int64, PaymentState.deduplicated), (700, .rejected),
    ])
    func retriesFromStore(amount: Int64, state: PaymentState) {
        // Given a declined charge of 600 with key 5
        let journal = Journal()
        var sut = Self.makeSUT(journal)
        _ = sut.process(PaymentBuilder().id(1).key(5).amount(600).script("D").build())
        journal.entries.removeAll()
        // When the same key comes again, with the same or another amount
        let outcome = sut.process(PaymentBuilder().id(2).key(5).amount(amount).build())
        // Then the store answers: deduplicated, or an idempotency conflict; the gateway hears nothing
        #expect(outcome.state == state)
        #expect(journal.entries.isEmpty)
    }

    @Test("the next user starts with an empty store")
    func startUserEmptiesTheStore() {
        // Given a store that saw a capture
        var sut = InMemoryPaymentStore()
        sut.record(key: 1, PaymentFingerprint(kind: .charge, amountMinor: 5, currency: .eur, refundOf: nil))
        sut.capture(charge: 1, amountMinor: 5, currency: .eur)
        // When the next user starts
        sut.startUser()
        // Then nothing is left
        #expect(sut.fingerprint(ofKey: 1) == nil)
        #expect(sut.capturedCharge(1) == nil)
        #expect(sut.ledger.entries.isEmpty)
    }
}
