import Datasets
import PaymentsCore
import Testing

extension PaymentRowDecoder {
    /// Decodes `row` tokenized under the standard payments header, as line `line`.
    mutating func decode(_ row: CSVRowBuilder, line: Int = 2) throws -> DecodedPayment {
        let tokenizer = try RowTokenizer.csv(.payments)
        return try withBytes(row.line) { bytes in
            try #require(tokenizer.tokenize(bytes) == .row)
            return try decode(line: line, malformedColumn: nil, fields: tokenizer.fields, tokenized: true)
        }
    }
}

@Suite("PaymentRowDecoder: payments.csv rows (SPEC §0, §4)")
struct PaymentRowDecoderTests {
    static func column(_ name: String) -> Int8 { Int8(DatasetKind.payments.columns.firstIndex(of: name)!) }

    static func decoder() -> PaymentRowDecoder { PaymentRowDecoder(users: twoUsers, file: "payments.csv") }

    @Test("a valid charge becomes a request with interned ids and no rejection")
    func valid() throws {
        // Given the default charge of u0000001: 1999 USD cents, gateway A
        var sut = Self.decoder()
        // When decoded at line 2
        let row = try sut.decode(.payment)
        // Then the request holds its values and ids 0
        #expect(row.request == PaymentRequest(
            id: 0, key: 0, keyLength: 8, kind: .charge, amountMinor: 1999, currency: .usd,
            createdAt: 1_700_000_000, refundOf: nil, script: GatewayScript([.approved])
        ))
        #expect(row.user == 0)
        #expect(row.rejection == nil)
        #expect(row.column == -1)
        #expect(row.line == 2)
        #expect(sut.ids.strings.string(0) == "p0000001")
        #expect(sut.keys.strings.string(0) == "k0000001")
        #expect(sut.file == "payments.csv")
    }

    @Test("a refund names the interned id of its charge")
    func refund() throws {
        // Given a charge p1 then a refund p2 of p1 by u0000002
        var sut = Self.decoder()
        let charge = try sut.decode(CSVRowBuilder.payment.with("payment_id", "p1").with("user_id", "u0000002"), line: 2)
        // When the refund is decoded
        let refund = try sut.decode(CSVRowBuilder.payment.with("payment_id", "p2").with("user_id", "u0000002")
            .with("kind", "refund").with("refund_of", "p1").with("gateway", "T;L;D"), line: 3)
        // Then it refers to the charge's id, with its own script
        #expect(refund.rejection == nil)
        #expect(refund.user == 1)
        #expect(refund.request.kind == .refund)
        #expect(refund.request.refundOf == charge.request.id)
        #expect(refund.request.id == 1)
        #expect(refund.request.script == GatewayScript([.timedOut, .lost, .declined]))
    }

    @Test("each malformed cause names its column and keeps the user", arguments: [
        ("payment_id", ""), ("user_id", ""), ("kind", ""), ("kind", "Charge"), ("kind", "payment"),
        ("created_at", ""), ("created_at", "1700000000.0"), ("created_at", "+1"), ("created_at", "9223372036854775808"),
        ("gateway", ""), ("gateway", "X"), ("gateway", "a"), ("gateway", "A;"), ("gateway", ";A"), ("gateway", "A;;T"), ("gateway", "AT"),
        ("gateway", "A T"), ("refund_of", "p0000000"),
    ])
    func malformed(column: String, text: String) throws {
        // Given the charge of u0000002 with one bad column
        var sut = Self.decoder()
        // When decoded
        let row = try sut.decode(CSVRowBuilder.payment.with("user_id", "u0000002").with(column, text))
        // Then it is malformed on that column, and names user 1 unless its user_id is empty
        #expect(row.rejection == .malformed)
        #expect(row.column == Self.column(column))
        #expect(row.user == (column == "user_id" ? .max : 1))
    }

    @Test("an unknown user is unknown_user; malformed comes first")
    func unknownUser() throws {
        // Given a row of an unknown user, and one that is also malformed
        var sut = Self.decoder()
        // When decoded
        let unknown = try sut.decode(CSVRowBuilder.payment.with("payment_id", "p1").with("user_id", "u0000009"))
        let both = try sut.decode(CSVRowBuilder.payment.with("payment_id", "p2").with("user_id", "u0000009").with("kind", "x"))
        // Then the first is unknown_user, the second malformed
        #expect(unknown.rejection == .unknownUser)
        #expect(unknown.column == Self.column("user_id"))
        #expect(unknown.user == .max)
        #expect(both.rejection == .malformed)
        #expect(both.column == Self.column("kind"))
    }

    @Test("malformed causes are checked in a fixed order", arguments: [
        (CSVRowBuilder.payment.with("payment_id", "").with("user_id", ""), "payment_id"),
        (CSVRowBuilder.payment.with("user_id", "").with("kind", "x"), "user_id"),
        (CSVRowBuilder.payment.with("kind", "x").with("created_at", "x"), "kind"),
        (CSVRowBuilder.payment.with("created_at", "x").with("gateway", "x"), "created_at"),
        (CSVRowBuilder.payment.with("gateway", "x").with("refund_of", "p0"), "gateway"),
    ])
    func malformedOrder(row: CSVRowBuilder, column: String) throws {
        // Given a row with two malformed columns
        var sut = Self.decoder()
        // When decoded
        let decoded = try sut.decode(row)
        // Then the first cause names the column
        #expect(decoded.rejection == .malformed)
        #expect(decoded.column == Self.column(column))
    }

    @Test("a row the tokenizer found malformed stays malformed, with the tokenizer's column or none", arguments: [nil, 3] as [Int?])
    func untokenized(column: Int?) throws {
        // Given fields of a row that did not tokenize
        var sut = Self.decoder()
        let tokenizer = try RowTokenizer.csv(.payments)
        // When decoded as not tokenized (while its bytes live: the fields point into them; AddressSanitizer
        // caught this test reading them after they were freed)
        let (line, row) = try withBytes("p1,k1,u0000001") { bytes in
            let line = tokenizer.tokenize(bytes)
            return (line, try sut.decode(line: 7, malformedColumn: column, fields: tokenizer.fields, tokenized: false))
        }
        // Then it is malformed on that column (-1 when none) and still names its user
        #expect(line == .malformed(column: nil))
        #expect(row.rejection == .malformed)
        #expect(row.column == Int8(column ?? -1))
        #expect(row.user == 0)
        #expect(row.line == 7)
    }

    @Test("an amount that is not an integer is kept as nil, not rejected here (invalid_amount comes later)", arguments: [
        "12.5", "", "1e3", "+5", " 5", "9223372036854775808", "ten",
    ])
    func amountNotInteger(text: String) throws {
        // Given a charge with this amount
        var sut = Self.decoder()
        // When decoded
        let row = try sut.decode(CSVRowBuilder.payment.with("amount_minor", text))
        // Then the amount is nil and the row not rejected
        #expect(row.request.amountMinor == nil)
        #expect(row.rejection == nil)
    }

    @Test("integer amounts are kept as written, zero and negative included", arguments: [
        ("0", Int64(0)), ("-5", -5), ("100000000", 100_000_000), ("9223372036854775807", .max),
    ])
    func amountInteger(text: String, expected: Int64) throws {
        // Given a charge with this amount
        var sut = Self.decoder()
        // When decoded
        let row = try sut.decode(CSVRowBuilder.payment.with("amount_minor", text))
        // Then the amount is read exactly
        #expect(row.request.amountMinor == expected)
        #expect(row.rejection == nil)
    }

    @Test("currency codes are case-sensitive; unknown ones are nil, not rejected here", arguments: [
        ("USD", Currency.usd as Currency?), ("JPY", .jpy), ("KWD", .kwd), ("BHD", .bhd), ("usd", nil), ("Usd", nil),
        ("XYZ", nil), ("", nil), ("USDX", nil), ("US", nil),
    ])
    func currency(text: String, expected: Currency?) throws {
        // Given a charge in this currency
        var sut = Self.decoder()
        // When decoded
        let row = try sut.decode(CSVRowBuilder.payment.with("currency", text))
        // Then the currency is read exactly as spelled (unsupported_currency comes later)
        #expect(row.request.currency == expected)
        #expect(row.rejection == nil)
    }

    @Test("the key length counts Unicode scalars; an empty key is not rejected here", arguments: [
        ("", 0), ("k", 1), (String(repeating: "é", count: 255), 255), (String(repeating: "é", count: 256), 256), ("e\u{301}", 2),
    ])
    func keyLength(key: String, scalars: Int) throws {
        // Given a charge with this key
        var sut = Self.decoder()
        // When decoded
        let row = try sut.decode(CSVRowBuilder.payment.with("idempotency_key", key))
        // Then its length is in scalars (missing_key comes later)
        #expect(row.request.keyLength == scalars)
        #expect(row.rejection == nil)
    }

    @Test("equal keys share an id, keys differing in bytes do not")
    func keys() throws {
        // Given three payments keyed "é", "é" and "e\u{301}"
        var sut = Self.decoder()
        // When decoded
        let keys = try ["é", "é", "e\u{301}"].enumerated().map { n, key in
            try sut.decode(CSVRowBuilder.payment.with("payment_id", "p\(n)").with("idempotency_key", key), line: n + 2).request.key
        }
        // Then the first two share an id
        #expect(keys == [0, 0, 1])
    }

    @Test("a repeated payment_id refuses the file, naming both lines")
    func repeatedPaymentId() throws {
        // Given p0000001 at line 2 and another row at line 3
        var sut = Self.decoder()
        _ = try sut.decode(.payment, line: 2)
        _ = try sut.decode(CSVRowBuilder.payment.with("payment_id", "p0000002"), line: 3)
        // When p0000001 appears again at line 5, even as a refund
        // Then the file is refused
        #expect(throws: InputRefusal(file: "payments.csv", line: 5, reason: "repeated payment_id 'p0000001' (first at line 2)")) {
            try sut.decode(CSVRowBuilder.payment.with("kind", "refund").with("refund_of", "p0000002"), line: 5)
        }
    }

    @Test("ids that differ only in normalization are not repeats")
    func normalizationIsNotRepeat() throws {
        // Given payment "pé" (precomposed)
        var sut = Self.decoder()
        _ = try sut.decode(CSVRowBuilder.payment.with("payment_id", "pé"), line: 2)
        // When "pe\u{301}" (decomposed) is decoded
        let row = try sut.decode(CSVRowBuilder.payment.with("payment_id", "pe\u{301}"), line: 3)
        // Then it is a new payment
        #expect(row.request.id == 1)
    }

    @Test("a refund_of naming a payment that comes later is not a repeat of it")
    func forwardReference() throws {
        // Given a refund p2 of p3 at line 2, before p3 exists
        var sut = Self.decoder()
        let refund = try sut.decode(CSVRowBuilder.payment.with("payment_id", "p2").with("kind", "refund").with("refund_of", "p3"), line: 2)
        // When the charge p3 comes at line 3
        let charge = try sut.decode(CSVRowBuilder.payment.with("payment_id", "p3"), line: 3)
        // Then it is accepted and is the payment the refund names
        #expect(charge.rejection == nil)
        #expect(refund.request.refundOf == charge.request.id)
        #expect(sut.ids.count == 2)
    }

    @Test("rows with an empty payment_id are malformed, never repeats")
    func emptyIdsAreNotRepeats() throws {
        // Given two rows without payment_id
        var sut = Self.decoder()
        let first = try sut.decode(CSVRowBuilder.payment.with("payment_id", ""), line: 2)
        // When the second is decoded
        let second = try sut.decode(CSVRowBuilder.payment.with("payment_id", ""), line: 3)
        // Then both are malformed and the file is not refused
        #expect(first.rejection == .malformed)
        #expect(second.rejection == .malformed)
        #expect(second.column == Self.column("payment_id"))
    }
}
