import PaymentsCore
import Testing

@Suite("Currencies and payment vocabulary (SPEC §0, §4)")
struct MoneyTests {
    @Test(
        "the currency table: code, ISO 4217 exponent, limit of 1,000,000 major units",
        arguments: [
            (Currency.usd, "USD", 2, 100_000_000),
            (.eur, "EUR", 2, 100_000_000),
            (.gbp, "GBP", 2, 100_000_000),
            (.chf, "CHF", 2, 100_000_000),
            (.cad, "CAD", 2, 100_000_000),
            (.aud, "AUD", 2, 100_000_000),
            (.sek, "SEK", 2, 100_000_000),
            (.inr, "INR", 2, 100_000_000),
            (.brl, "BRL", 2, 100_000_000),
            (.jpy, "JPY", 0, 1_000_000),
            (.kwd, "KWD", 3, 1_000_000_000),
            (.bhd, "BHD", 3, 1_000_000_000),
        ] as [(Currency, String, Int, Int64)]
    )
    func currency(sut: Currency, code: String, exponent: Int, limit: Int64) {
        // Given a currency, Then its table entry and both lookups by code agree
        #expect(sut.code == code)
        #expect(sut.exponent == exponent)
        #expect(sut.limitMinor == limit)
        #expect(Currency(code: code) == sut)
    }

    @Test("codes are case-sensitive and exactly three letters", arguments: ["usd", "Usd", "XYZ", "US", "USDX", "", " USD", "JPY "])
    func unsupportedCode(code: String) {
        // Given a code outside the table, When looking it up, Then nothing matches
        #expect(Currency(code: code) == nil)
    }

    @Test("kinds, states and rejection reasons are spelled as in the files")
    func spelling() {
        #expect(PaymentKind.allCases.map(\.name) == ["charge", "refund"])
        #expect(PaymentState.allCases.map(\.rawValue) == ["captured", "refunded", "declined", "failed", "deduplicated", "rejected"])
        #expect(PaymentRejection.allCases.map(\.rawValue) == [
            "malformed", "unknown_user", "missing_key", "unsupported_currency", "invalid_amount", "over_limit",
            "idempotency_conflict", "unknown_charge", "currency_mismatch", "refund_exceeds",
        ])
        #expect(PaymentRejection.maximumKeyLength == 255)
    }

    @Test("a rejected outcome carries its reason and no attempt")
    func rejectedOutcome() {
        let sut = PaymentOutcome.rejected(.overLimit)
        #expect(sut == PaymentOutcome(state: .rejected, reason: .overLimit, attempts: 0, latencyMillis: 0))
    }
}
