@testable import Datasets
@_spi(Tooling) import HealthCore
import Testing

/// Every decimal SPEC §0's grammar allows, printed without a trap (issue 45): the writers of the
/// output files take any `Int64` and any `Double`, and the decimal parser any number of digits.
@Suite("Extreme values: the output writers and the decimal parser at the ends of their types")
struct ExtremeValuesTests {
    static let greatestFinite = "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"
    static let tenToThe300 = "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160"

    static func written(_ fill: (inout ByteCursor) -> Void) -> String {
        let sut = ByteBuffer()
        sut.row(maxBytes: ByteCursor.decimal3Bytes) { fill(&$0) }
        return String(decoding: sut.bytes, as: UTF8.self)
    }

    static let doubles: [(Double, String)] = [
        (12_345_678_901_234_567.0, "12345678901234568.000"), (9_007_199_254_740_994.0, "9007199254740994.000"), (9_007_199_254_740.993, "9007199254740.992"),
        (-123_456_789_012_345.67, "-123456789012345.672"),
        (9_300_000_000_000_000.0, "9300000000000000.000"), (-9_300_000_000_000_000.0, "-9300000000000000.000"),
        (0x1p63, "9223372036854775808.000"), (1e300, tenToThe300 + ".000"),
        (Double.greatestFiniteMagnitude, greatestFinite + ".000"), (-Double.greatestFiniteMagnitude, "-" + greatestFinite + ".000"),
        (Double.infinity, "inf"), (-Double.infinity, "-inf"), (Double.nan, "nan"), (-0.0, "0.000"),
        (Double.leastNonzeroMagnitude, "0.000"), (0.0005, "0.001"), (-0.0005, "-0.001"),
    ]

    static let micros: [(Int64, String)] = [
        (Int64.max, "9223372036854.776"), (Int64.min, "-9223372036854.776"), (Int64.max - 500, "9223372036854.775"),
        (Int64.min + 1, "-9223372036854.776"), (1_500, "0.002"), (-1_500, "-0.002"), (499, "0.000"), (-499, "0.000"),
    ]

    static let longDecimals: [(String, Double)] = [
        ("1" + String(repeating: "0", count: 400), Double.infinity), ("-1" + String(repeating: "0", count: 400), -.infinity),
        ("1" + String(repeating: "0", count: 22), 1e22), ("12345678901234567", 12_345_678_901_234_568),
        ("0." + String(repeating: "0", count: 400) + "1", .leastNonzeroMagnitude),
        ("-0." + String(repeating: "0", count: 400) + "1", -.leastNonzeroMagnitude),
        ("0." + String(repeating: "0", count: 400), 0), (String(repeating: "0", count: 400), 0), ("-0", -0.0),
        ("0." + String(repeating: "0", count: 21) + "1", 1e-22),
    ]

    @Test("decimal3 prints every Double: exact digits past 2^53 thousandths; inf, -inf, nan; -0 as 0", arguments: doubles)
    func decimal3(value: Double, expected: String) {
        // Given any Double, finite or not
        // When it is printed with 3 decimals
        let sut = Self.written { $0.decimal3(value) }
        // Then it reads as its exact value (a whole number past 2^53), or as a named non-finite value
        #expect(sut == expected)
        #expect(sut.utf8.count <= ByteCursor.decimal3Bytes)
    }

    @Test("micros3 rounds every Int64 half away from zero without overflowing, its ends included", arguments: micros)
    func micros3(value: Int64, expected: String) {
        // Given millionths at and near both ends of Int64
        // When they are printed with 3 decimals
        let sut = Self.written { $0.micros3(value) }
        // Then the rounding is exact and nothing traps
        #expect(sut == expected)
    }

    @Test("a steps_daily row of the largest finite Doubles and infinities fits the room the writer reserves")
    func stepDayRowOfExtremes() {
        // Given a day whose total and average are as long as a Double's text gets
        var sut = SpecRowWriter(capacity: 16)
        // When both rows are written one after the other
        sut.stepDayFields(StepDay(day: LocalDay(index: 0), steps: -.greatestFiniteMagnitude, average7: .greatestFiniteMagnitude))
        sut.stepDayFields(StepDay(day: LocalDay(index: 1), steps: .infinity, average7: .nan))
        // Then each field is whole
        let text = String(decoding: sut.buffer.bytes, as: UTF8.self)
        #expect(text == ",1970-01-01,-\(Self.greatestFinite).000,\(Self.greatestFinite).000\n,1970-01-02,inf,nan\n")
    }

    @Test("a fasting_daily and a fasting_summary row at the ends of Int64 are written whole")
    func fastingRowsOfExtremes() {
        // Given a day and a summary whose every number is Int64.max or .min
        var sut = SpecRowWriter(capacity: 16)
        let day = FastingDay(
            day: LocalDay(index: 0), episodes: .max, kcalMicros: .min, eatingWindowSeconds: .min, fastsEnded: .min, longestFastEndedSeconds: .max, compliant: true
        )
        var summary = FastingSummary()
        summary.totalFastSeconds = .max
        summary.longestFastSeconds = .min
        // When they are written
        sut.fastingDayFields(day)
        sut.fastingSummaryFields(summary, rejected: .max)
        // Then every field is there, exactly
        let text = String(decoding: sut.buffer.bytes, as: UTF8.self)
        let max = "9223372036854775807", min = "-9223372036854775808"
        #expect(text == ",1970-01-01,\(max),-9223372036854.776,\(min),\(min),\(max),1\n,0,\(max),0,0,\(max),\(min),0,0\n")
    }

    @Test("decimal reads any number of digits: past a Double's range as infinity, below it keeping its sign, -0 as -0.0", arguments: longDecimals)
    func decimalAnyLength(text: String, expected: Double) throws {
        // Given a decimal of the grammar, of any length
        // When it is parsed
        let sut = try #require(Array(text.utf8).withUnsafeBufferPointer { FieldParsing.decimal($0) })
        // Then its value is the Double of its digits, an infinity or the smallest Double of its sign, never NaN
        #expect(sut == expected)
        #expect(sut.sign == expected.sign)
    }
}
