import Datasets
import Parquet
import PaymentsCore
import Testing
import TestSupport

/// A payment row as `PaymentRowDecoder` makes it, for comparison.
private struct PaymentReading: Equatable {
    var request: PaymentRequest
    var user: UInt32
    var rejection: PaymentRejection?
    var column: Int8
    var line: Int

    init(_ row: DecodedPayment) {
        (request, user, rejection, column, line) = (row.request, row.user, row.rejection, row.column, row.line)
    }
}

/// The rows of a payments table as the typed path takes them (`nil`: left to the text path) and as
/// the text path reads their rendered lines.
private struct PaymentReadings {
    var typed: [PaymentReading?] = []
    var text: [PaymentReading] = []
}

@Suite("The typed path parses a Parquet payment row exactly as the CSV path parses its text, and leaves every other row to it")
struct TypedPaymentsTests {
    static let start: Int64 = 1_743_206_400_000_000

    static let plainRows: [TypedPaymentRowBuilder] = [
        TypedPaymentRowBuilder(),
        TypedPaymentRowBuilder().refund(of: "p0000001-000001").gateway("T;A").user("u0000002"),
        TypedPaymentRowBuilder().key("ké").currency("USD").amount(0),
        TypedPaymentRowBuilder().key("").amount(-1).gateway("D;T;L"),
        TypedPaymentRowBuilder().amount(.max).currency("GBP").created(micros: -86_400_000_000),
        TypedPaymentRowBuilder().amount(.min).id("p").refundOf(""),
        TypedPaymentRowBuilder().user("u0000099"),
        TypedPaymentRowBuilder().refundOf("p0000001-000001"),
        TypedPaymentRowBuilder().id("").key("k"),
        TypedPaymentRowBuilder().id(String(repeating: "p", count: 40)).key(String(repeating: "é", count: 30)),
    ]

    @Test("a row of plain values (rejected by SPEC's reading rules or not) is parsed as the CSV path parses its text", arguments: plainRows)
    func plainRow(row: TypedPaymentRowBuilder) throws {
        // Given a payments table holding the row
        // When both paths read it
        let sut = try Self.readings([row])
        // Then the typed path takes it, with the same request, user, rejection, column and line
        #expect(sut.typed == sut.text.map { $0 })
    }

    static let rowsLeftToText: [TypedPaymentRowBuilder] = [
        TypedPaymentRowBuilder().user(""),
        TypedPaymentRowBuilder().user("u0000001,"),
        TypedPaymentRowBuilder().user(String(repeating: "u", count: 17)),
        TypedPaymentRowBuilder().kind("Charge"),
        TypedPaymentRowBuilder().kind(""),
        TypedPaymentRowBuilder().currency("XYZ"),
        TypedPaymentRowBuilder().currency("EUR,"),
        TypedPaymentRowBuilder().gateway("A;"),
        TypedPaymentRowBuilder().gateway("A\r"),
        TypedPaymentRowBuilder().gateway("A,D"),
        TypedPaymentRowBuilder().created(micros: start + 1),
    ]

    @Test("a row whose values the typed path does not read plainly is left to the text path", arguments: rowsLeftToText)
    func rowLeftToText(row: TypedPaymentRowBuilder) throws {
        // Given a payments table holding the row
        // When the typed path reads it
        let sut = try Self.readings([row])
        // Then it leaves it
        #expect(sut.typed == [nil])
    }

    @Test("a row group whose ids, keys or refunds hold a comma or a line break is read as text",
          arguments: [TypedPaymentRowBuilder().id("p1,p2"), TypedPaymentRowBuilder().key("k\nk"), TypedPaymentRowBuilder().refund(of: "p,")])
    func groupLeftToText(odd: TypedPaymentRowBuilder) throws {
        // Given a row group of a plain row and one whose string splits its line
        let columns = TypedPaymentRowBuilder.columns([TypedPaymentRowBuilder(), odd])
        // When its typed columns are made
        let made = try Self.withRun(columns) { run in TypedPayments.Columns(run, users: twoUsers) != nil }
        // Then there are none
        #expect(made == false)
    }

    @Test("a run of rows: each taken or left on its own, dictionary-encoded strings or not", arguments: [true, false])
    func run(dictionaries: Bool) throws {
        // Given rows of two users, some of which the typed path leaves
        let rows = [TypedPaymentRowBuilder(), TypedPaymentRowBuilder().currency("XYZ"), TypedPaymentRowBuilder().user("u0000002").id("p2"),
                    TypedPaymentRowBuilder().kind("void").id("p3"), TypedPaymentRowBuilder().refund(of: "p2").id("p4")]
        // When both paths read them
        let sut = try Self.readings(rows, dictionaries: dictionaries)
        // Then the typed path takes the plain ones, each as the text path reads it
        #expect(sut.typed.map { $0 == nil } == [false, true, false, true, false])
        for (typed, text) in zip(sut.typed, sut.text) where typed != nil { #expect(typed == text) }
    }

    // MARK: support

    /// Calls `body` with the one run of `columns` written as a payments table and read back.
    static func withRun<R>(_ columns: [ParquetColumnValues], dictionaries: Bool = true, _ body: (TypedRun) throws -> R) throws -> R {
        let directory = try ScratchDirectory(prefix: "typed-payments")
        let path = directory.file("payments.parquet")
        var schema = DatasetKind.payments.parquetSchema
        if !dictionaries { schema = ParquetSchema(columns: schema.columns.map { ParquetColumnSchema(name: $0.name, type: $0.type, nullable: $0.nullable) }) }
        var writer = try ParquetFileWriter(path: path, schema: schema)
        try writer.append(EncodedRowGroup(schema: schema, columns: columns, compression: .none))
        _ = try writer.finish()
        let table = try ParquetTableText(DatasetFile(kind: .payments, path: path, format: .parquet, gzip: false))
        var result: R?
        try table.forEachRun(ofUnit: 0, memory: TypedRowsText(), typed: { result = try body($0) }, rejected: { _ in })
        return try #require(result)
    }

    /// Reads each row of `rows` the typed way and from its rendered line, as line `row + 2`, each
    /// interned by a decoder of its own.
    private static func readings(_ rows: [TypedPaymentRowBuilder], dictionaries: Bool = true) throws -> PaymentReadings {
        let tokenizer = try RowTokenizer.csv(.payments)
        return try withRun(TypedPaymentRowBuilder.columns(rows), dictionaries: dictionaries) { run in
            let columns = try #require(TypedPayments.Columns(run, users: twoUsers))
            var result = PaymentReadings()
            for row in run.rows {
                var typed = ParsedPayments()
                result.typed.append(typed.append(row: row, of: columns, line: row + 2) ? try intern(typed).first : nil)
                let line = ByteBuffer()
                run.appendLine(row, to: line)
                var text = ParsedPayments()
                let verdict = tokenizer.tokenize(UnsafeBufferPointer(rebasing: line.bytes.dropLast()))
                var column: Int?
                if case .malformed(let c) = verdict { column = c }
                text.append(line: row + 2, malformedColumn: column, fields: tokenizer.fields, tokenized: verdict == .row, users: twoUsers)
                result.text.append(try #require(try intern(text).first))
            }
            return result
        }
    }

    private static func intern(_ parsed: ParsedPayments) throws -> [PaymentReading] {
        var decoder = PaymentRowDecoder(users: twoUsers, file: "payments.parquet")
        var rows: [DecodedPayment] = []
        try decoder.intern(parsed, linesBefore: 0, into: &rows)
        return rows.map(PaymentReading.init)
    }
}
