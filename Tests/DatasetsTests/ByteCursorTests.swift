@testable import Datasets
@testable import DatasetText
@_spi(Tooling) import HealthCore
import PaymentsCore
import Testing

@Suite("ByteCursor and SpecRowWriter: the number and date formats of the output files")
struct ByteCursorTests {
    static func text(_ fill: (inout ByteCursor, inout DayTexts) -> Void) -> String {
        let sut = ByteBuffer()
        var days = DayTexts()
        sut.row(maxBytes: 1024) { fill(&$0, &days) }
        return String(decoding: sut.bytes, as: UTF8.self)
    }

    @Test("texts are written byte for byte, whatever their length and script", arguments: [
        "", "a", "meals.csv", "idempotency_conflict", "dataset.sqlite:payments", "é", "naïve-ünïcode-📈-over-sixteen-bytes",
    ])
    func texts(value: String) {
        // Given a text, empty, short, longer than a word or two, or not ASCII
        // When it is written between two commas
        let sut = Self.text { cursor, _ in
            cursor.comma()
            cursor.text(value)
            cursor.comma()
        }
        // Then it reads back unchanged
        #expect(sut == ",\(value),")
    }

    @Test("days are YYYY-MM-DD; days that share a cache slot and years past 9999 or before 0 too", arguments: [
        // day index, text: 1970-01-01, its slot's neighbours 64 and 128 days on, a leap day, the last 4-digit year, beyond both ends
        ([0, 64, 128, 0], "1970-01-01 1970-03-06 1970-05-09 1970-01-01"),
        ([11_016, 2_932_896, -719_528], "2000-02-29 9999-12-31 0000-01-01"),
        ([2_932_897, -719_529], "10000-01-01 -0001-12-31"),
    ])
    func days(indices: [Int64], expected: String) {
        // Given day indices, some written twice or in the same cache slot
        // When each is written, separated by spaces
        let sut = Self.text { cursor, days in
            for (i, index) in indices.enumerated() {
                if i > 0 { cursor.byte(UInt8(ascii: " ")) }
                cursor.day(LocalDay(index: index), text: days.text(of: LocalDay(index: index)))
            }
        }
        // Then each reads as its own date
        #expect(sut == expected)
    }

    @Test("integers, and thousandths and millionths with 3 decimals, rounded half away from zero", arguments: [
        (Int64(0), "0 0.000 0.000 0.000"), (7, "7 0.007 0.000 7.000"), (-7, "-7 -0.007 0.000 -7.000"),
        (1_234_500, "1234500 1234.500 1.235 1234500.000"), (-1_234_500, "-1234500 -1234.500 -1.235 -1234500.000"),
        (-1_234_499, "-1234499 -1234.499 -1.234 -1234499.000"), (999_999_999_999, "999999999999 999999999.999 1000000.000 999999999999.000"),
    ])
    func numbers(value: Int64, expected: String) {
        // Given a value
        // When written as an integer, as thousandths, as millionths and as a Double with 3 decimals
        let sut = Self.text { cursor, _ in
            cursor.int(value)
            cursor.byte(UInt8(ascii: " "))
            cursor.milli(value)
            cursor.byte(UInt8(ascii: " "))
            cursor.micros3(value)
            cursor.byte(UInt8(ascii: " "))
            cursor.decimal3(Double(value))
        }
        // Then each reads as worked out by hand
        #expect(sut == expected)
    }

    /// Values around every power of ten and both ends of `UInt64`, and seeded random ones of every length.
    static let paddedValues: [UInt64] = {
        var values: [UInt64] = [0, 1, 9, UInt64.max, UInt64.max - 1, 1_772_409_600]
        var power: UInt64 = 10
        for _ in 1...19 {
            values += [power - 1, power, power + 1]
            if power <= UInt64.max / 10 { power *= 10 }
        }
        var random = SplitMix64(seed: 42)
        for bits in 1...64 { for _ in 0..<20 { values.append(random.next() >> UInt64(64 - bits)) } }
        return values
    }()

    @Test("padded numbers: exactly as wide as asked or as the number, zero filled, no byte written past them", arguments: [0, 1, 2, 3, 4, 7, 8, 9, 12, 16, 17, 20])
    func padded(width: Int) {
        for value in Self.paddedValues {
            // Given a value and a buffer full of a marker byte
            var bytes = [UInt8](repeating: 0xEE, count: 48)
            // When the value is written padded to `width`
            let written = bytes.withUnsafeMutableBufferPointer { NumberWriter.padded(value, width: width, at: $0.baseAddress!) - $0.baseAddress! }
            // Then the digits read as the number zero filled to the width, and the rest is untouched
            let plain = String(value)
            #expect(String(decoding: bytes[..<written], as: UTF8.self) == String(repeating: "0", count: max(0, width - plain.count)) + plain)
            #expect(bytes[written...].allSatisfy { $0 == 0xEE }, "value \(value) width \(width)")
        }
    }

    @Test("unsigned numbers, ten-digit instants among them: as many digits as they take, no byte written past them")
    func unsigned() {
        for value in Self.paddedValues + [12_345, 46_380, 123_456, 908_172, 1_000_000_000, 1_736_168_887, 9_999_999_999, 4_102_444_800] {
            // Given a value and a buffer full of a marker byte
            var bytes = [UInt8](repeating: 0xEE, count: 48)
            // When the value is written in decimal
            let written = bytes.withUnsafeMutableBufferPointer { NumberWriter.unsigned(value, at: $0.baseAddress!) - $0.baseAddress! }
            // Then the digits read as the number, and the rest is untouched
            #expect(String(decoding: bytes[..<written], as: UTF8.self) == String(value))
            #expect(bytes[written...].allSatisfy { $0 == 0xEE }, "value \(value)")
        }
    }

    @Test("thousandths with every fraction print as the decimal without trailing zeros, no byte written past them",
          arguments: [Int64(0), 7, -42, 999, 12_345, -9_999_999_999])
    func shortMilli(whole: Int64) {
        for fraction in Int64(0)..<1000 {
            // Given a value in thousandths and a buffer full of a marker byte
            let value = whole < 0 ? whole * 1000 - fraction : whole * 1000 + fraction
            var bytes = [UInt8](repeating: 0xEE, count: 48)
            // When it is written
            let written = bytes.withUnsafeMutableBufferPointer { NumberWriter.milli(value, at: $0.baseAddress!) - $0.baseAddress! }
            // Then it reads as the whole part and the fraction's significant digits
            var digits = String(String(fraction + 1000).dropFirst())
            while digits.hasSuffix("0") { digits.removeLast() }
            #expect(String(decoding: bytes[..<written], as: UTF8.self) == String(whole) + (digits.isEmpty ? "" : "." + digits))
            #expect(bytes[written...].allSatisfy { $0 == 0xEE }, "value \(value)")
        }
    }

    @Test("raw bytes of every length are copied exactly, no byte written past them", arguments: Array(0...20) + [64, 1000])
    func bytes(count: Int) {
        // Given `count` distinct bytes and a buffer full of a marker byte
        let source = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        var bytes = [UInt8](repeating: 0xEE, count: count + 16)
        // When they are written through a cursor
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var sut = ByteCursor(buffer.baseAddress!)
            source.withUnsafeBufferPointer { sut.bytes($0) }
            return sut.position - buffer.baseAddress!
        }
        // Then the cursor moved past exactly them, and the rest is untouched
        #expect(written == count)
        #expect(Array(bytes[..<count]) == source)
        #expect(bytes[count...].allSatisfy { $0 == 0xEE })
    }

    @Test("a rejection is one line: file, line, reason and column")
    func rejection() {
        // Given a log
        let sut = RejectionLog()
        // When two rejections are added, one without a column
        sut.add(file: "meals.csv", line: 12, reason: "malformed", column: "kcal")
        sut.add(file: "steps.csv.gz", line: 3, reason: "duplicate", column: "")
        // Then the file holds the header and two lines
        #expect(String(decoding: sut.buffer.bytes, as: UTF8.self)
            == "file,line,reason,column\nmeals.csv,12,malformed,kcal\nsteps.csv.gz,3,duplicate,\n")
    }
}

