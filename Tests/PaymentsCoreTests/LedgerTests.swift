import PaymentsCore
import Testing
import TestSupport

@Suite("Ledger (SPEC §4 outputs)")
struct LedgerTests {
    @Test("one entry per currency with a captured charge, in code order, balance = captured − refunded")
    func entries() {
        // Given
        var sut = UserLedger()
        // When USD 5.00 captured and 2.00 refunded, EUR 1.00 captured, JPY only refunded
        sut.capture(500, in: .usd)
        sut.refund(200, in: .usd)
        sut.capture(100, in: .eur)
        sut.refund(300, in: .jpy)
        // Then
        #expect(sut.entries == [
            LedgerEntry(currency: .eur, capturedMinor: 100, refundedMinor: 0),
            LedgerEntry(currency: .usd, capturedMinor: 500, refundedMinor: 200),
        ])
        #expect(sut.entries.map(\.balanceMinor) == [100, 300])
    }

    @Test("a fully refunded currency keeps its row with balance 0")
    func fullyRefunded() {
        var sut = UserLedger()
        sut.capture(1_000, in: .kwd)
        sut.refund(400, in: .kwd)
        sut.refund(600, in: .kwd)
        #expect(sut.entries == [LedgerEntry(currency: .kwd, capturedMinor: 1_000, refundedMinor: 1_000)])
        #expect(sut.entries.first?.balanceMinor == 0)
    }

    @Test("reset empties the ledger")
    func reset() {
        // Given a ledger with money in it
        var sut = UserLedger()
        sut.capture(1_000, in: .chf)
        sut.refund(10, in: .chf)
        // When
        sut.reset()
        // Then
        #expect(sut.entries.isEmpty)
        #expect(sut == UserLedger())
    }

    @Test("the processor's ledger sums captured charges and refunds per currency")
    func processorLedger() {
        // Given charges in USD (approved), EUR (approved), USD (declined), JPY (approved), refunds of USD and JPY
        var sut = makeSpiedProcessor()
        // When
        let outcomes = sut.processAll([
            PaymentBuilder().id(1).key(1).amount(2_500).build(),
            PaymentBuilder().id(2).key(2).amount(900).currency(.eur).build(),
            PaymentBuilder().id(3).key(3).amount(4_000).script("D").build(),
            PaymentBuilder().id(4).key(4).amount(1_200).currency(.jpy).script("L").build(),
            PaymentBuilder().id(5).key(5).amount(500).refund(of: 1).build(),
            PaymentBuilder().id(6).key(6).amount(1_200).currency(.jpy).refund(of: 4).build(),
        ])
        // Then
        #expect(outcomes == [.captured(1), .captured(1), .declined(1), .captured(2), .refunded(1), .refunded(1)])
        #expect(sut.ledger.entries == [
            LedgerEntry(currency: .eur, capturedMinor: 900, refundedMinor: 0),
            LedgerEntry(currency: .jpy, capturedMinor: 1_200, refundedMinor: 1_200),
            LedgerEntry(currency: .usd, capturedMinor: 2_500, refundedMinor: 500),
        ])
    }
}
