@_spi(Tooling) import HealthCore
import Testing
import TestSupport

/// The seed guide's own fasting example, worked out by hand from SPEC §2.
@Suite("The seed guide's fasting example")
struct SeedExampleTests {
    @Test("a 16:8 user eating 10:00–10:30, 13:00–13:45 and 18:00–18:30: one fast, an 8 h 30 min window, not compliant",
          arguments: [Int32(0), 330, -300])
    func sixteenEightDay(utcOffsetMinutes: Int32) throws {
        // Given a 16:8 user's three meals on one local day
        let meals = [(10, 0, 1_800), (13, 0, 2_700), (18, 0, 1_800)].map { hour, minute, seconds in
            MealBuilder().at(hour: Int64(hour), minute: Int64(minute), lasting: Int64(seconds), utcOffsetMinutes: utcOffsetMinutes).build()
        }
        let configuration = FastingConfigurationBuilder().offset(utcOffsetMinutes).fastingProtocol(.sixteenEight).build()
        // When they are analyzed
        let sut = FastingAnalyzer.analyze(meals, configuration: configuration)
        // Then, by hand: three episodes (no meal starts before the previous one ends); the gaps are
        // 10:30→13:00 = 9,000 s, under min_fast (10,800 s), and 13:45→18:00 = 15,300 s, a fast that
        // ends on the day; the window is 18:30 − 10:00 = 30,600 s, over 16:8's 28,800 s
        #expect(sut.summary.meals == 3)
        #expect(sut.summary.episodes == 3)
        #expect(sut.summary.fasts == 1)
        #expect(sut.summary.totalFastSeconds == 15_300)
        #expect(sut.summary.longestFastSeconds == 15_300)
        #expect(sut.summary.evaluatedDays == 1)
        #expect(sut.summary.compliantDays == 0)
        let day = try #require(sut.days.first)
        #expect(sut.days.count == 1)
        #expect(day.day.index == TestTime.referenceDay)
        #expect(day.episodes == 3)
        #expect(day.eatingWindowSeconds == 30_600)
        #expect(day.fastsEnded == 1)
        #expect(day.longestFastEndedSeconds == 15_300)
        #expect(day.compliant == false)
        #expect(day.kcalMicros == 3 * 500_000_000)
    }
}
