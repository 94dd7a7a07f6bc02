import Datasets
import Testing

@Suite("FieldParsing: the SPEC §0 field grammars on raw bytes")
struct FieldParsingTests {
    // MARK: integers `-?[0-9]+` within Int64

    @Test("int64 reads -?[0-9]+ within the signed 64-bit range", arguments: [
        ("0", Int64(0)), ("42", 42), ("-42", -42), ("007", 7), ("-0", 0), ("1700000000", 1_700_000_000),
        ("9223372036854775807", .max), ("-9223372036854775808", .min),
    ])
    func int64Valid(text: String, expected: Int64) {
        // Given the bytes of a well-formed integer
        // When they are parsed
        let sut = withBytes(text) { FieldParsing.int64($0) }
        // Then the value is exact
        #expect(sut == expected)
    }

    @Test("int64 refuses anything else, and values one past Int64's ends", arguments: [
        "", "-", "--5", "+5", " 5", "5 ", "3.0", "1e2", "5-", "0x10", "１", "٣", "1_000",
        "9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999999",
    ])
    func int64Malformed(text: String) {
        // Given text outside the grammar or the range
        // When it is parsed
        let sut = withBytes(text) { FieldParsing.int64($0) }
        // Then there is no value: the field is malformed
        #expect(sut == nil)
    }

    // MARK: decimals `-?[0-9]+(\.[0-9]+)?`

    @Test("decimalMicros reads millionths, negative only when the value is below zero", arguments: [
        ("0", Int64(0), false), ("12", 12_000_000, false), ("12.5", 12_500_000, false), ("007.50", 7_500_000, false),
        ("650.25", 650_250_000, false), ("0.000001", 1, false), ("-0", 0, false), ("-0.000", 0, false),
        ("-0.001", -1_000, true), ("-12.5", -12_500_000, true),
        ("9223372036854", 9_223_372_036_854_000_000, false),
        ("9223372036854.775807", .max, false),
    ])
    func decimalMicrosValid(text: String, micros: Int64, negative: Bool) throws {
        // Given a well-formed decimal
        // When it is parsed to millionths
        let sut = try #require(withBytes(text) { FieldParsing.decimalMicros($0) })
        // Then value and sign are exact
        #expect(sut.micros == micros)
        #expect(sut.negative == negative)
    }

    @Test("decimalMicros rounds half away from zero past the 6th fraction digit", arguments: [
        ("0.0000004", Int64(0), false), ("0.00000049999", 0, false), ("0.0000005", 1, false),
        ("0.1234564999", 123_456, false), ("0.1234565", 123_457, false), ("1.9999995", 2_000_000, false),
        ("-0.0000005", -1, true), ("-0.0000001", 0, true), ("-2.0000004", -2_000_000, true),
    ])
    func decimalMicrosRounding(text: String, micros: Int64, negative: Bool) throws {
        // Given a decimal with more than 6 fraction digits
        // When it is parsed to millionths
        let sut = try #require(withBytes(text) { FieldParsing.decimalMicros($0) })
        // Then the 7th digit rounds it, and a value below zero stays negative even when it rounds to 0
        #expect(sut.micros == micros)
        #expect(sut.negative == negative)
    }

    @Test("decimalMicros saturates values past Int64.max millionths instead of trapping", arguments: [
        ("9223372036854.775808", Int64.max, false), ("9999999999999", .max, false), ("10000000000000", .max, false),
        ("99999999999999999999999.5", .max, false), ("-99999999999999999999", -.max, true),
    ])
    func decimalMicrosSaturates(text: String, micros: Int64, negative: Bool) throws {
        // Given a decimal too large for Int64 millionths (SPEC §0: one bad row never stops the run)
        // When it is parsed
        let sut = try #require(withBytes(text) { FieldParsing.decimalMicros($0) })
        // Then it saturates at the largest magnitude
        #expect(sut.micros == micros)
        #expect(sut.negative == negative)
    }

    static let malformedDecimals = [
        "", "-", ".5", "-.5", "5.", "-5.", "1e2", "1E2", "+1", " 1", "1 ", "1.2.3", "--1", "1.-2", "1..2", "NaN", "inf", "0x1", "½",
    ]

    @Test("decimalMicros refuses text outside the grammar", arguments: malformedDecimals)
    func decimalMicrosMalformed(text: String) {
        // Given text outside `-?[0-9]+(\.[0-9]+)?`
        // When it is parsed
        let sut = withBytes(text) { FieldParsing.decimalMicros($0) }
        // Then the field is malformed
        #expect(sut == nil)
    }

    @Test("int64 is exact at the edge of its 18-digit fast path", arguments: [
        ("999999999999999999", Int64(999_999_999_999_999_999)), ("-999999999999999999", -999_999_999_999_999_999),
        ("1000000000000000000", 1_000_000_000_000_000_000), ("000000000000000000001", 1),
    ])
    func int64FastPathEdge(text: String, expected: Int64) {
        // Given integers of 18 digits and just above
        // When they are parsed
        let sut = withBytes(text) { FieldParsing.int64($0) }
        // Then both paths agree on the exact value
        #expect(sut == expected)
    }

    @Test("decimalIsNegative tells the sign of a well-formed decimal", arguments: [
        ("0", false), ("12.5", false), ("-0", false), ("-0.000", false), ("-0.001", true), ("-3", true), ("007.10", false),
    ])
    func decimalIsNegative(text: String, negative: Bool) {
        // Given a decimal
        // When only its sign is read
        let sut = withBytes(text) { FieldParsing.decimalIsNegative($0) }
        // Then it is below zero exactly when a minus sign precedes a non-zero digit
        #expect(sut == negative)
    }

    @Test("decimalIsNegative refuses text outside the grammar", arguments: malformedDecimals)
    func decimalIsNegativeMalformed(text: String) {
        // Given text outside `-?[0-9]+(\.[0-9]+)?`
        // When its sign is read
        let sut = withBytes(text) { FieldParsing.decimalIsNegative($0) }
        // Then the field is malformed
        #expect(sut == nil)
    }

    @Test("decimal reads the value as a Double", arguments: [
        ("0", 0.0), ("12", 12), ("12.5", 12.5), ("-12.5", -12.5), ("0.1", 0.1), ("1234.5", 1234.5), ("007.25", 7.25),
        ("0.000001", 0.000001), ("-0.001", -0.001), ("61.50", 61.5), ("0.0000000000000000000001", 1e-22),
    ])
    func decimalValid(text: String, expected: Double) {
        // Given a well-formed decimal
        // When it is parsed
        let sut = withBytes(text) { FieldParsing.decimal($0) }
        // Then it is the nearest Double
        #expect(sut == expected)
    }

    @Test("decimal keeps 18 significant digits of a long value")
    func decimalLongMantissa() throws {
        // Given 21 integer digits and 3 fraction digits
        let text = "123456789012345678901.999"
        // When parsed
        let sut = try #require(withBytes(text) { FieldParsing.decimal($0) })
        // Then the value is 1.23456789012345678e20 to within Double precision
        #expect(abs(sut - 1.2345678901234568e20) <= 1.2345678901234568e20 * 1e-15)
    }

    @Test("decimal of -0 is zero, not below zero")
    func decimalMinusZero() throws {
        // Given "-0" and "-0.0"
        // When parsed
        let a = try #require(withBytes("-0") { FieldParsing.decimal($0) })
        let b = try #require(withBytes("-0.0") { FieldParsing.decimal($0) })
        // Then neither is below zero (SPEC §3: negative_value is count < 0)
        #expect(a == 0 && !(a < 0))
        #expect(b == 0 && !(b < 0))
    }

    @Test("decimal refuses text outside the grammar", arguments: malformedDecimals)
    func decimalMalformed(text: String) {
        // Given text outside `-?[0-9]+(\.[0-9]+)?`
        // When it is parsed
        let sut = withBytes(text) { FieldParsing.decimal($0) }
        // Then the field is malformed
        #expect(sut == nil)
    }

    // MARK: ids

    @Test("scalarCount counts Unicode scalars, not bytes", arguments: [
        ("", 0), ("abc", 3), ("é", 1), ("e\u{301}", 2), ("€", 1), ("😀", 1), ("k€😀é", 4),
        (String(repeating: "é", count: 255), 255), (String(repeating: "é", count: 256), 256),
        (String(repeating: "😀", count: 255), 255), (String(repeating: "a", count: 254) + "€", 255),
    ])
    func scalarCount(text: String, expected: Int) {
        // Given UTF-8 text with 1- to 4-byte scalars
        // When its scalars are counted
        let sut = withBytes(text) { FieldParsing.scalarCount($0) }
        // Then each scalar counts once (SPEC §4: a key of 256 scalars is too long, 255 is not)
        #expect(sut == expected)
    }

    @Test("equal compares bytes: no Unicode normalization, case-sensitive", arguments: [
        ("u0000001", "u0000001", true), ("", "", true), ("é", "é", true),
        ("é", "e\u{301}", false), ("u1", "U1", false), ("a", "ab", false), ("ab", "a", false), ("a", "", false),
        ("abcdefghijklmnopq", "abcdefghijklmnopr", false),
    ])
    func equal(a: String, b: String, expected: Bool) {
        // Given two ids
        // When compared
        let sut = withBytes(a, b) { FieldParsing.equal($0, $1) }
        // Then they are equal exactly when their bytes are (SPEC §0)
        #expect(sut == expected)
    }

    @Test("less sorts by bytes, shorter prefix first", arguments: [
        ("Z", "a", true), ("a", "Z", false), ("u10", "u9", true), ("u9", "u10", false),
        ("ab", "abc", true), ("abc", "ab", false), ("abc", "abc", false), ("", "a", true), ("", "", false),
        ("f", "é", true), ("e\u{301}", "é", true), ("é", "e\u{301}", false), ("u0000009", "u0000010", true),
    ])
    func less(a: String, b: String, expected: Bool) {
        // Given two ids
        // When ordered
        let sut = withBytes(a, b) { FieldParsing.less($0, $1) }
        // Then the order is the bytes' order (SPEC §0 "sorted")
        #expect(sut == expected)
    }

    @Test("hash depends only on the bytes, not on where they lie in memory", arguments: ["", "a", "u0000001", "abcdefghijklmnopqrstuvwxy"])
    func hashIsAPureFunctionOfBytes(text: String) {
        // Given the same bytes alone and at an odd offset of a larger buffer
        let alone = withBytes(text) { FieldParsing.hash($0) }
        // When hashed at the offset
        let sut = withBytes("x" + text + "yz") { FieldParsing.hash(UnsafeBufferPointer(rebasing: $0[1..<(1 + text.utf8.count)])) }
        // Then the hashes agree
        #expect(sut == alone)
    }

    @Test("hash tells apart ids that differ in normalization, length or one byte")
    func hashSeparates() {
        // Given ids that differ slightly
        let ids = ["é", "e\u{301}", "", "\0", "\0\0", "a", "a\0", "abcdefgh", "abcdefgi", "abcdefghi", "abcdefghij", "bbcdefghij"]
        // When hashed
        let sut = Set(ids.map { id in withBytes(id) { FieldParsing.hash($0) } })
        // Then every hash differs
        #expect(sut.count == ids.count)
    }

    @Test("hash(low:high:count:) of an id held in two zero-padded words is hash of its bytes", arguments: 0...16)
    func hashOfWords(count: Int) throws {
        // Given the first `count` bytes of a 16-byte id (bytes above 0x7F and a zero included), as two little-endian words
        let id = Array(Array("a\u{0}cdéfghijklmno".utf8).prefix(count))
        try #require(Array("a\u{0}cdéfghijklmno".utf8).count == 16)
        var words: (low: UInt64, high: UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyBytes(from: id) }
        // When hashed from the words
        let sut = FieldParsing.hash(low: UInt64(littleEndian: words.low), high: UInt64(littleEndian: words.high), count: count)
        // Then it is the hash of the bytes
        #expect(sut == id.withUnsafeBufferPointer { FieldParsing.hash($0) })
    }

    @Test("hash has no collision over 100,000 simulator-style ids")
    func hashSpreads() {
        // Given zero-padded ids as the simulator writes them
        // When each is hashed
        let sut = Set((0..<100_000).map { n in withBytes("u" + String(repeating: "0", count: 7 - String(n).count) + String(n)) { FieldParsing.hash($0) } })
        // Then all 100,000 hashes are distinct
        #expect(sut.count == 100_000)
    }
}
