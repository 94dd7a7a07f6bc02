import Datasets
import PaymentsCore
import Testing

/// Payment lines as the readers give them: text, tokenized under the standard header.
private let lines: [String] = [
    CSVRowBuilder.payment.with("payment_id", "p1").line,
    CSVRowBuilder.payment.with("payment_id", "p2").with("user_id", "u0000002").with("idempotency_key", "ké").line,
    CSVRowBuilder.payment.with("payment_id", "p3").with("kind", "refund").with("refund_of", "p1").with("gateway", "T;A").line,
    CSVRowBuilder.payment.with("payment_id", "p4").with("user_id", "u0000009").line,
    CSVRowBuilder.payment.with("payment_id", "").line,
    "p5,k5,u0000001",
    CSVRowBuilder.payment.with("payment_id", "p6").with("kind", "refund").with("refund_of", "p9").line,
    CSVRowBuilder.payment.with("payment_id", "p7").with("idempotency_key", "ké").with("amount_minor", "").line,
]

/// Tokenizes `line` and hands its fields on as `PaymentsStage` does: with the tokenizer's verdict.
private func withFields<R>(
    _ line: String, _ body: (_ malformedColumn: Int?, UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, _ tokenized: Bool) throws -> R
) throws -> R {
    let tokenizer = try RowTokenizer.csv(.payments)
    return try withBytes(line) { bytes in
        let verdict = tokenizer.tokenize(bytes)
        var column: Int?
        if case .malformed(let c) = verdict { column = c }
        return try body(column, tokenizer.fields, verdict == .row)
    }
}

extension ParsedPayments {
    /// `lines`, parsed as lines 1, 2, … of their part.
    init(_ lines: ArraySlice<String>) throws {
        self.init()
        for (n, line) in lines.enumerated() {
            try withFields(line) { append(line: n + 1, malformedColumn: $0, fields: $1, tokenized: $2, users: twoUsers) }
        }
    }
}

@Suite("ParsedPayments: payment rows parsed apart, then interned in file order")
struct ParsedPaymentsTests {
    static func decoder() -> PaymentRowDecoder { PaymentRowDecoder(users: twoUsers, file: "payments.csv") }

    @Test("rows parsed in two parts and interned in order equal the rows decoded one by one", arguments: 0...lines.count)
    func sameAsDecoded(split: Int) throws {
        // Given the lines decoded one by one as lines 2, 3, …
        var expected = Self.decoder()
        let decoded = try lines.enumerated().map { n, line in
            try withFields(line) { try expected.decode(line: n + 2, malformedColumn: $0, fields: $1, tokenized: $2) }
        }
        // When they are parsed in two parts and interned, the second part after the first's lines
        var sut = Self.decoder()
        var rows: [DecodedPayment] = []
        try sut.intern(ParsedPayments(lines[..<split]), linesBefore: 1, into: &rows)
        try sut.intern(ParsedPayments(lines[split...]), linesBefore: 1 + split, into: &rows)
        // Then every row, and every id and key, is the same
        #expect(rows.map(\.request) == decoded.map(\.request))
        #expect(rows.map(\.user) == decoded.map(\.user))
        #expect(rows.map(\.rejection) == decoded.map(\.rejection))
        #expect(rows.map(\.column) == decoded.map(\.column))
        #expect(rows.map(\.line) == Array(2..<2 + lines.count))
        #expect((0..<sut.ids.count).map { sut.ids.strings.string($0) } == (0..<expected.ids.count).map { expected.ids.strings.string($0) })
        #expect((0..<sut.keys.count).map { sut.keys.strings.string($0) } == (0..<expected.keys.count).map { expected.keys.strings.string($0) })
    }

    @Test("a repeated payment_id in a later part is refused at its line in the file")
    func repeatedAcrossParts() throws {
        // Given p1 and p2 interned as lines 2 and 3
        var sut = Self.decoder()
        var rows: [DecodedPayment] = []
        try sut.intern(ParsedPayments(lines[0..<2]), linesBefore: 1, into: &rows)
        // When a part that starts after line 10 repeats p1 on its second line
        let later = try ParsedPayments([CSVRowBuilder.payment.with("payment_id", "p8").line, lines[0]])
        // Then the file is refused at line 12, naming line 2, and the rows before it are kept
        #expect(throws: InputRefusal(file: "payments.csv", line: 12, reason: "repeated payment_id 'p1' (first at line 2)")) {
            try sut.intern(later, linesBefore: 10, into: &rows)
        }
        #expect(rows.map(\.line) == [2, 3, 11])
    }
}
