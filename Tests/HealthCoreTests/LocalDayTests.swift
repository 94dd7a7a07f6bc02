@_spi(Tooling) import HealthCore
import Testing

@Suite("LocalDay (SPEC §0)")
struct LocalDayTests {
    // 2024-01-01T00:00:00Z is 1_704_067_200 s = day 19723.
    @Test(
        "local day of an instant is floor((t + 60 × offset) / 86400)",
        arguments: [
            // -03:30: 03:00 UTC is 23:30 the day before; 03:30 UTC is local midnight.
            (1_704_067_200 + 10_800, -210, 19_722),
            (1_704_067_200 + 12_600, -210, 19_723),
            // +05:30: 18:29:59 UTC is 23:59:59; 18:30 UTC is the next local day.
            (1_704_067_200 + 66_599, 330, 19_723),
            (1_704_067_200 + 66_600, 330, 19_724),
            // +05:45
            (1_704_067_200 + 65_699, 345, 19_723),
            (1_704_067_200 + 65_700, 345, 19_724),
            // +14:00: 10:00 UTC the day before is local midnight.
            (1_704_067_200 - 50_400, 840, 19_723),
            (1_704_067_200 - 50_401, 840, 19_722),
            // -12:00: 12:00 UTC is local midnight.
            (1_704_067_200 + 43_199, -720, 19_722),
            (1_704_067_200 + 43_200, -720, 19_723),
            // Around the epoch, where truncating division would differ from floor.
            (0, 0, 0),
            (-1, 0, -1),
            (-86_400, 0, -1),
            (-86_401, 0, -2),
            (-3_600, 60, 0),
            (-3_601, 60, -1),
            (0, -1, -1),
            // At the ends of Int64, where t + 60 × offset lies outside its range: still the floor of the true sum.
            (Int64.max, 840, 106_751_991_167_301),
            (Int64.max - 40_000, 840, 106_751_991_167_300),
            (Int64.max, -720, 106_751_991_167_300),
            (Int64.min, -720, -106_751_991_167_302),
            (Int64.min, 840, -106_751_991_167_301),
        ] as [(Int64, Int32, Int64)]
    )
    func dayOfInstant(instant: Int64, offset: Int32, expected: Int64) {
        // Given an instant and a user's offset
        // When
        let sut = LocalDay(instant: instant, utcOffsetMinutes: offset)
        // Then
        #expect(sut.index == expected)
    }

    @Test(
        "a local day starts at index × 86400 − 60 × offset",
        arguments: [
            (19_723, 330, 1_704_047_400),
            (19_723, -720, 1_704_110_400),
            (-1, 0, -86_400),
            (0, 840, -50_400),
        ] as [(Int64, Int32, Int64)]
    )
    func startInstant(index: Int64, offset: Int32, expected: Int64) {
        // Given
        let sut = LocalDay(index: index)
        // When
        let start = sut.startInstant(utcOffsetMinutes: offset)
        // Then the start is the first second of the day, and the second before is the previous day
        #expect(start == expected)
        #expect(LocalDay(instant: start, utcOffsetMinutes: offset) == sut)
        #expect(LocalDay(instant: start - 1, utcOffsetMinutes: offset).index == index - 1)
    }

    @Test(
        "a day's exact start is nil only where it lies outside Int64's range",
        arguments: [
            (19_723, 330, 1_704_047_400),
            // index × 86400 overflows, but the start of the day is still an Int64.
            (106_751_991_167_301, 840, 9_223_372_036_854_756_000),
            (106_751_991_167_301, 0, nil),
            (-106_751_991_167_300, 0, -9_223_372_036_854_720_000),
            (-106_751_991_167_301, 0, nil),
            (-106_751_991_167_302, -720, nil),
        ] as [(Int64, Int32, Int64?)]
    )
    func exactStartInstant(index: Int64, offset: Int32, expected: Int64?) {
        // Given
        let sut = LocalDay(index: index)
        // When
        let start = sut.exactStartInstant(utcOffsetMinutes: offset)
        // Then
        #expect(start == expected)
    }

    @Test(
        "civil date of a day index, leap years and days before 1970 included",
        arguments: [
            (0, 1970, 1, 1, "1970-01-01"),
            (-1, 1969, 12, 31, "1969-12-31"),
            (-365, 1969, 1, 1, "1969-01-01"),
            (-366, 1968, 12, 31, "1968-12-31"),
            (789, 1972, 2, 29, "1972-02-29"),
            (19_723, 2024, 1, 1, "2024-01-01"),
            (19_782, 2024, 2, 29, "2024-02-29"),
            (19_783, 2024, 3, 1, "2024-03-01"),
            (11_016, 2000, 2, 29, "2000-02-29"),  // divisible by 400: leap
            (11_017, 2000, 3, 1, "2000-03-01"),
            (-25_509, 1900, 2, 28, "1900-02-28"),  // divisible by 100 only: not leap
            (-25_508, 1900, 3, 1, "1900-03-01"),
            (47_540, 2100, 2, 28, "2100-02-28"),
            (47_541, 2100, 3, 1, "2100-03-01"),
            (-719_468, 0, 3, 1, "0000-03-01"),
            (-719_469, 0, 2, 29, "0000-02-29"),
            (-719_529, -1, 12, 31, "-0001-12-31"),
        ] as [(Int64, Int64, Int, Int, String)]
    )
    func civilDate(index: Int64, year: Int64, month: Int, day: Int, iso: String) {
        // Given
        let sut = LocalDay(index: index)
        // When
        let civil = sut.civil
        // Then
        #expect(civil.year == year)
        #expect(civil.month == month)
        #expect(civil.day == day)
        #expect(sut.isoString == iso)
    }

    @Test("days order by index")
    func ordering() {
        // Given
        let sut = [LocalDay(index: 3), LocalDay(index: -2), LocalDay(index: 0)]
        // When
        let sorted = sut.sorted()
        // Then
        #expect(sorted.map(\.index) == [-2, 0, 3])
        #expect(LocalDay.secondsPerDay == 86_400)
    }
}
