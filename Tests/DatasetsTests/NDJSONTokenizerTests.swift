import Datasets
@_spi(Tooling) import HealthCore
import Testing

@Suite("RowTokenizer on NDJSON: one flat JSON object per line (SPEC §0)")
struct NDJSONTokenizerTests {
    static let payment = NDJSONRowBuilder(.payment)

    @Test("strings give their text and numbers their literal text")
    func stringsAndNumbers() {
        // Given a payments NDJSON tokenizer
        let sut = RowTokenizer(kind: .payments, format: .ndjson)
        // When the default payment (numbers for integers, strings otherwise) is tokenized
        let result = sut.tokenizing(Self.payment.line)
        // Then every column holds its text
        #expect(result == TokenizedLine(line: .row, fields: [
            "payment_id": "p0000001", "idempotency_key": "k0000001", "user_id": "u0000001", "kind": "charge",
            "amount_minor": "1999", "currency": "USD", "created_at": "1700000000", "refund_of": "", "gateway": "A",
        ]))
    }

    @Test("a value is judged by its literal text: a number keeps its spelling, a string its content", arguments: [
        ("12.50", "12.50"), ("3.0", "3.0"), ("1e2", "1e2"), ("-1E+2", "-1E+2"), ("-0", "-0"), ("007", "007"),
        ("\"1999\"", "1999"), ("\"+5\"", "+5"), ("\" 5\"", " 5"), ("null", ""), ("\"\"", ""),
    ])
    func literalText(json: String, text: String) {
        // Given a payments NDJSON tokenizer
        let sut = RowTokenizer(kind: .payments, format: .ndjson)
        // When amount_minor is given as this JSON value
        let result = sut.tokenizing(Self.payment.with("amount_minor", json: json).line)
        // Then the field holds its literal text, for the decoder to judge with the SPEC grammar
        #expect(result.line == .row)
        #expect(result.fields["amount_minor"] == text)
    }

    static func decodeMeal(_ row: NDJSONRowBuilder) -> (line: RowTokenizer.Line, verdict: Decoded<MealCandidate>) {
        let sut = RowTokenizer(kind: .meals, format: .ndjson)
        return withBytes(row.line) { line in
            (sut.tokenize(line), RowDecoders.meal(sut.fields, users: twoUsers).named(
                reasons: MealRejection.allCases.map(\.rawValue), columns: DatasetKind.meals.columns))
        }
    }

    @Test("through the meal decoder, a JSON string or number in the grammar is accepted", arguments: [
        ("start", "\"1700000000\""), ("start", "1700000000"), ("kcal", "650.5"), ("kcal", "\"650.5\""), ("kcal", "650.50"),
    ])
    func acceptedByText(key: String, json: String) {
        // Given the default meal with this JSON value
        // When tokenized and decoded
        let sut = Self.decodeMeal(NDJSONRowBuilder(.meal).with(key, json: json))
        // Then it is the default meal: start 1700000000 and 650.5 kcal
        #expect(sut.line == .row)
        #expect(sut.verdict.accepted?.start == 1_700_000_000)
        #expect(sut.verdict.accepted?.kcalMicros == 650_500_000)
    }

    @Test("through the meal decoder, a JSON string or number outside the grammar is malformed on its column", arguments: [
        ("start", "1700000000.0"), ("start", "1.7e9"), ("start", "\"+1700000000\""), ("kcal", "6.505e2"), ("kcal", "\" 650.5\""),
        ("type", "null"), ("meal_id", "null"), ("meal_id", "\"\""),
    ])
    func malformedByText(key: String, json: String) {
        // Given the default meal with this JSON value
        // When tokenized and decoded
        let sut = Self.decodeMeal(NDJSONRowBuilder(.meal).with(key, json: json))
        // Then the decoder finds that column malformed
        #expect(sut.line == .row)
        #expect(sut.verdict == .rejected("malformed", column: key, user: 0))
    }

    @Test("a missing refund_of is empty; a row without it after one with it has no stale value")
    func missingRefundOf() {
        // Given a payments tokenizer that read a refund naming p0000000
        let sut = RowTokenizer(kind: .payments, format: .ndjson)
        _ = sut.tokenizing(Self.payment.with("kind", json: "\"refund\"").with("refund_of", json: "\"p0000000\"").line)
        // When a row without refund_of is tokenized
        let result = sut.tokenizing(Self.payment.without("refund_of").line)
        // Then it is a row whose refund_of is empty
        #expect(result.line == .row)
        #expect(result.fields["refund_of"] == "")
    }

    static let requiredKeys: [(DatasetKind, Int)] = DatasetKind.allCases.flatMap { kind in
        kind.columns.indices.filter { !kind.optionalKeys.contains(kind.columns[$0]) }.map { (kind, $0) }
    }

    @Test("any other missing key makes the row malformed, naming the column", arguments: requiredKeys)
    func missingKey(kind: DatasetKind, column: Int) {
        // Given a tokenizer of the kind
        let sut = RowTokenizer(kind: kind, format: .ndjson)
        let full: CSVRowBuilder = switch kind {
        case .users: .user
        case .meals: .meal
        case .steps: .step
        case .payments: .payment
        }
        // When a row without that key is tokenized
        let result = sut.tokenizing(NDJSONRowBuilder(full).without(kind.columns[column]).line)
        // Then it is malformed on that column
        #expect(result.line == .malformed(column: column))
    }

    @Test("an empty object is malformed on the first column")
    func emptyObject() {
        // Given a steps tokenizer
        let sut = RowTokenizer(kind: .steps, format: .ndjson)
        // When {} is tokenized
        // Then sample_id is missing
        #expect(sut.tokenizing("{}").line == .malformed(column: 0))
        #expect(sut.tokenizing(" { } ").line == .malformed(column: 0))
    }

    @Test("true, false, an object or an array as a column's value is malformed on that column", arguments: [
        "true", "false", "{\"a\": 1}", "[1, 2]", "[]", "{}",
    ])
    func nonScalarValues(json: String) {
        // Given a meals tokenizer
        let sut = RowTokenizer(kind: .meals, format: .ndjson)
        // When kcal has this value
        let result = sut.tokenizing(NDJSONRowBuilder(.meal).with("kcal", json: json).line)
        // Then the row is malformed on kcal, column 5 of meal_id,user_id,start,end,type,kcal,…
        #expect(result.line == .malformed(column: 5))
    }

    @Test("extra keys are ignored whatever their JSON value", arguments: [
        "\"text\"", "42", "-1.5e3", "true", "false", "null", "{\"nested\": {\"deep\": [1, \"]}\", {\"x\": null}]}}", "[1, [2, 3], \"a\\\"b\"]", "[]",
    ])
    func extraKeys(json: String) {
        // Given a meals tokenizer
        let sut = RowTokenizer(kind: .meals, format: .ndjson)
        // When a row has an extra key before and after the columns
        let row = NDJSONRowBuilder(.meal)
        let result = sut.tokenizing("{\"app\": \(json), " + row.line.dropFirst().dropLast() + ", \"z\": \(json)}")
        // Then it is the same row as without them
        #expect(result == sut.tokenizing(row.line))
        #expect(result.line == .row)
    }

    @Test("string escapes are decoded", arguments: [
        ("\"a\\\"b\"", "a\"b"), ("\"a\\\\b\"", "a\\b"), ("\"a\\/b\"", "a/b"), ("\"\\u00e9\"", "é"), ("\"\\u00E9t\\u00e9\"", "été"),
        ("\"e\\u0301\"", "e\u{301}"), ("\"\\u20ac\"", "€"), ("\"\\ud83d\\ude00\"", "😀"), ("\"x\\uD83D\\uDE00y\"", "x😀y"),
        ("\"\\b\\f\\n\\r\\t\"", "\u{8}\u{C}\n\r\t"), ("\"\\u0000\"", "\0"), ("\"k\\u00e9y-\\\\-\\\"\"", "kéy-\\-\""),
    ])
    func escapes(json: String, text: String) {
        // Given a payments tokenizer
        let sut = RowTokenizer(kind: .payments, format: .ndjson)
        // When idempotency_key is a string with escapes
        let result = sut.tokenizing(Self.payment.with("idempotency_key", json: json).line)
        // Then its field holds the decoded UTF-8
        #expect(result.line == .row)
        #expect(result.fields["idempotency_key"] == text)
    }

    @Test("a key spelled with escapes names its column")
    func escapedKey() {
        // Given a payments tokenizer
        let sut = RowTokenizer(kind: .payments, format: .ndjson)
        // When user_id is written as "user\u005fid"
        let row = Self.payment.without("user_id").line.dropLast() + ", \"user\\u005fid\": \"u0000009\"}"
        let result = sut.tokenizing(String(row))
        // Then it fills user_id
        #expect(result.line == .row)
        #expect(result.fields["user_id"] == "u0000009")
    }

    @Test("long rows with many escapes decode in full, and a short row after them too")
    func longEscapedRows() {
        // Given a payments tokenizer and a 2,000-scalar key written as \u00e9 escapes (12,000 bytes)
        let sut = RowTokenizer(kind: .payments, format: .ndjson)
        let key = "\"" + String(repeating: "\\u00e9", count: 2_000) + "\""
        // When the long row and then a short row are tokenized
        let long = sut.tokenizing(Self.payment.with("idempotency_key", json: key).with("refund_of", json: "\"r\\u00e9f\"").line)
        let short = sut.tokenizing(Self.payment.with("idempotency_key", json: "\"k\\u00e9\"").line)
        // Then each key is decoded whole
        #expect(long.fields["idempotency_key"] == String(repeating: "é", count: 2_000))
        #expect(long.fields["refund_of"] == "réf")
        #expect(short.fields["idempotency_key"] == "ké")
    }

    @Test("a bad escape makes the row malformed", arguments: [
        "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\ud83d\"", "\"\\ud83dx\"", "\"\\ud83d\\u0041\"", "\"\\ude00\"", "\"abc\\",
    ])
    func badEscapes(json: String) {
        // Given a payments tokenizer
        let sut = RowTokenizer(kind: .payments, format: .ndjson)
        // When a value has a bad escape
        let result = sut.tokenizing(Self.payment.with("idempotency_key", json: json).line)
        // Then the row is malformed
        #expect(result.line == .malformed(column: nil))
    }

    @Test("text that is not one JSON object is malformed", arguments: [
        "not json", "[1, 2]", "\"a string\"", "42", "{\"payment_id\": \"p1\"", "{\"payment_id\" \"p1\"}", "{\"payment_id\": }",
        "{\"payment_id\": \"p1\",}", "{\"payment_id\": \"p1\"} trailing", "{\"payment_id\": \"p1}", "{\"payment_id\": tru}",
        "{\"payment_id\": +5}", "{payment_id: \"p1\"}", "{\"payment_id\": \"p1\" \"kind\": \"charge\"}", "{\"a\": 1}}",
        "{\"a\": {\"b\": 1}", "{\"a\": [1, 2}", "{\"a\": [\"\\x\"]}", "{\"a\": [1, {\"b\": 2}", "{\"payment_id\": \"p\\u00e9",
    ])
    func invalidJSON(line: String) {
        // Given a payments tokenizer
        let sut = RowTokenizer(kind: .payments, format: .ndjson)
        // When the line is tokenized
        // Then it is malformed with no culprit column
        #expect(sut.tokenizing(line).line == .malformed(column: nil))
    }

    @Test("whitespace between tokens is tolerated, and a CRLF end")
    func whitespace() {
        // Given a steps tokenizer
        let sut = RowTokenizer(kind: .steps, format: .ndjson)
        // When a row has spaces, tabs and a CR around its tokens
        let line = " \t{ \"sample_id\" :\t\"s1\" ,\"user_id\":\"u1\",  \"source\" : \"phone\", \"start\" : 10 ,\"end\":20,\"count\":\t1.5\t} \r"
        let result = sut.tokenizing(line)
        // Then it is a row
        #expect(result == TokenizedLine(line: .row, fields: [
            "sample_id": "s1", "user_id": "u1", "source": "phone", "start": "10", "end": "20", "count": "1.5",
        ]))
    }

    @Test("a blank line is blank", arguments: ["", "\r"])
    func blank(line: String) {
        // Given a users tokenizer
        let sut = RowTokenizer(kind: .users, format: .ndjson)
        // When an empty line is tokenized
        // Then it is blank
        #expect(sut.tokenizing(line).line == .blank)
    }

    @Test("a repeated key takes its last value")
    func repeatedKey() {
        // Given a payments tokenizer
        let sut = RowTokenizer(kind: .payments, format: .ndjson)
        // When gateway appears twice
        let result = sut.tokenizing(String(Self.payment.line.dropLast()) + ", \"gateway\": \"T;A\"}")
        // Then the later value stands
        #expect(result.fields["gateway"] == "T;A")
    }
}
