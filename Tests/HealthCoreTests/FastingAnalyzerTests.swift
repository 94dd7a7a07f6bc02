@_spi(Tooling) import HealthCore
import Testing
import TestSupport

@Suite("Fasting analyzer (SPEC §2)")
struct FastingAnalyzerTests {
    /// 08:00 UTC on 2024-01-01 (day 19723).
    static let eight = TestTime.instant(hour: 8)

    @Test(
        "episodes merge when a meal starts at or before the episode's end",
        arguments: [
            ([(0, 1_800), (1_800, 3_600)], 1, 3_600),  // touching
            ([(0, 1_800), (1_801, 3_600)], 2, 3_600),  // one second apart
            ([(0, 3_600), (600, 1_200)], 1, 3_600),  // contained: the end stays the larger one
            ([(0, 1_000), (500, 2_000), (2_000, 2_500)], 1, 2_500),  // chain
            ([(1_800, 3_600), (0, 1_800)], 1, 3_600),  // input order does not matter
            ([(0, 1_800), (1_800, 1_800)], 1, 1_800),  // zero-length meal at the end
            ([(5_000, 5_000)], 1, 0),  // zero-length meal alone
        ] as [([(Int64, Int64)], Int, Int64)]
    )
    func episodeMerge(meals: [(Int64, Int64)], episodes: Int, window: Int64) throws {
        // Given meals relative to 08:00
        let input = meals.map { MealBuilder().from(Self.eight + $0.0, to: Self.eight + $0.1).build() }
        // When
        let sut = FastingAnalyzer.analyze(input, configuration: FastingConfigurationBuilder().build())
        // Then
        #expect(sut.summary.meals == meals.count)
        #expect(sut.summary.episodes == episodes)
        let day = try #require(sut.days.first)
        #expect(sut.days.count == 1)
        #expect(day.episodes == episodes)
        #expect(day.eatingWindowSeconds == window)
    }

    @Test(
        "a gap between episodes is a fast when it is >= min_fast",
        arguments: [
            (10_800, FastingConfiguration.defaultMinimumFast, 1, 10_800),
            (10_799, FastingConfiguration.defaultMinimumFast, 0, 0),
            (3_600, 3_600, 1, 3_600),
            (3_599, 3_600, 0, 0),
            (14_400, 14_401, 0, 0),
            (1, 0, 1, 1),
        ] as [(Int64, Int64, Int, Int64)]
    )
    func fastThreshold(gap: Int64, minimumFast: Int64, fasts: Int, longest: Int64) throws {
        // Given two 30-minute meals from 06:00 separated by `gap`
        let first = MealBuilder().at(hour: 6).build()
        let second = MealBuilder().from(first.end + gap, to: first.end + gap + 1_800).build()
        let configuration = FastingConfigurationBuilder().minimumFast(minimumFast).build()
        // When
        let sut = FastingAnalyzer.analyze([first, second], configuration: configuration)
        // Then
        #expect(sut.summary.episodes == 2)
        #expect(sut.summary.fasts == fasts)
        #expect(sut.summary.totalFastSeconds == longest)
        #expect(sut.summary.longestFastSeconds == longest)
        let day = try #require(sut.days.first)
        #expect(day.fastsEnded == fasts)
        #expect(day.longestFastEndedSeconds == longest)
    }

    @Test("the default min_fast is 3 hours")
    func defaultMinimumFast() {
        let sut = FastingConfiguration(utcOffsetMinutes: 0, fastingProtocol: .none)
        #expect(sut.minimumFastSeconds == 10_800)
    }

    // 2024-01-01T00:00:00Z = 1_704_067_200.
    @Test(
        "an episode belongs to the local day on which it starts",
        arguments: [
            (-210, 1_704_067_200 + 12_599, 19_722, "2023-12-31"),
            (-210, 1_704_067_200 + 12_600, 19_723, "2024-01-01"),
            (330, 1_704_067_200 + 66_600, 19_724, "2024-01-02"),
            (345, 1_704_067_200 + 65_699, 19_723, "2024-01-01"),
            (345, 1_704_067_200 + 65_700, 19_724, "2024-01-02"),
            (840, 1_704_067_200 - 50_400, 19_723, "2024-01-01"),
            (-720, 1_704_067_200 + 43_199, 19_722, "2023-12-31"),
        ] as [(Int32, Int64, Int64, String)]
    )
    func episodeDay(offset: Int32, start: Int64, day: Int64, iso: String) throws {
        // Given one meal of a user at `offset`
        let meal = MealBuilder().from(start, to: start + 600).build()
        // When
        let sut = FastingAnalyzer.analyze([meal], configuration: FastingConfigurationBuilder().offset(offset).build())
        // Then
        let row = try #require(sut.days.first)
        #expect(sut.days.count == 1)
        #expect(row.day.index == day)
        #expect(row.day.isoString == iso)
    }

    @Test("a meal crossing local midnight stays on its start day; the next fast ends on the next day")
    func mealAcrossMidnight() {
        // Given a +05:30 user: a meal 23:30–00:30 local, another at 12:00 local the next day
        let offset: Int32 = 330
        let late = MealBuilder().at(hour: 23, minute: 30, lasting: 3_600, utcOffsetMinutes: offset).kcalMicros(300_000_000).build()
        let noon = MealBuilder().at(day: 19_724, hour: 12, lasting: 1_800, utcOffsetMinutes: offset).kcalMicros(700_000_000).build()
        // When
        let user = UserProfileBuilder().offset(offset).fastingProtocol(.sixteenEight)
        let sut = FastingAnalyzer.analyze([noon, late], configuration: user.fastingConfiguration())
        // Then the fast 00:30 → 12:00 (11.5 h = 41400 s) ends on the 2nd
        #expect(sut.days.map(DayRow.init) == [
            DayRow(day: 19_723, episodes: 1, kcal: 300_000_000, window: 3_600, fasts: 0, longest: 0, compliant: true),
            DayRow(day: 19_724, episodes: 1, kcal: 700_000_000, window: 1_800, fasts: 1, longest: 41_400, compliant: true),
        ])
        #expect(sut.summary.fasts == 1)
        #expect(sut.summary.totalFastSeconds == 41_400)
    }

    @Test("a meal starting after midnight that joins an episode of the day before adds no row")
    func episodeAcrossMidnight() {
        // Given 23:30–00:30 and 00:15–00:45 local (-03:30)
        let offset: Int32 = -210
        let late = MealBuilder().at(hour: 23, minute: 30, lasting: 3_600, utcOffsetMinutes: offset).build()
        let early = MealBuilder().at(day: 19_724, hour: 0, minute: 15, lasting: 1_800, utcOffsetMinutes: offset).build()
        // When
        let sut = FastingAnalyzer.analyze([late, early], configuration: FastingConfigurationBuilder().offset(offset).build())
        // Then one episode on the 1st, window 23:30 → 00:45 = 4500 s, kcal 500 + 500
        #expect(sut.days.map(DayRow.init) == [
            DayRow(day: 19_723, episodes: 1, kcal: 1_000_000_000, window: 4_500, fasts: 0, longest: 0, compliant: true),
        ])
    }

    @Test(
        "eating window and compliance per protocol (window <= limit × 3600)",
        arguments: [
            (FastingProtocol.sixteenEight, 28_800, true, 1, 1),
            (.sixteenEight, 28_801, false, 1, 0),
            (.eighteenSix, 21_600, true, 1, 1),
            (.eighteenSix, 21_601, false, 1, 0),
            (.twentyFour, 14_400, true, 1, 1),
            (.twentyFour, 14_401, false, 1, 0),
            (.omad, 3_600, true, 1, 1),
            (.omad, 3_601, false, 1, 0),
            (.none, 3_600, nil, 0, 0),
            (.none, 50_000, nil, 0, 0),
        ] as [(FastingProtocol, Int64, Bool?, Int, Int)]
    )
    func compliance(fastingProtocol: FastingProtocol, window: Int64, compliant: Bool?, evaluated: Int, compliantDays: Int) throws {
        // Given a 10-minute meal at 08:00 and one ending `window` seconds after 08:00
        let first = MealBuilder().from(Self.eight, to: Self.eight + 600).build()
        let last = MealBuilder().from(Self.eight + window - 600, to: Self.eight + window).build()
        let configuration = FastingConfigurationBuilder().fastingProtocol(fastingProtocol).build()
        // When
        let sut = FastingAnalyzer.analyze([first, last], configuration: configuration)
        // Then
        let day = try #require(sut.days.first)
        #expect(sut.days.count == 1)
        #expect(day.eatingWindowSeconds == window)
        #expect(day.compliant == compliant)
        #expect(sut.summary.evaluatedDays == evaluated)
        #expect(sut.summary.compliantDays == compliantDays)
    }

    @Test("fasting_daily fields and the summary over two days, worked by hand")
    func dailyFields() {
        // Given six meals of a UTC 16:8 user
        let meals = [
            MealBuilder().at(hour: 8, lasting: 1_800).kcalMicros(450_500_000).build(),  // 08:00–08:30
            MealBuilder().at(hour: 8, minute: 20, lasting: 2_400).kcalMicros(120_250_000).build(),  // 08:20–09:00, joins
            MealBuilder().at(hour: 13, lasting: 2_700).kcalMicros(700_000_000).build(),  // 13:00–13:45, fast of 4 h
            MealBuilder().at(hour: 15, lasting: 600).kcalMicros(100_001_000).build(),  // 15:00–15:10, gap 1h15: no fast
            MealBuilder().at(day: 19_724, hour: 7, lasting: 1_800).kcalMicros(500_000_000).build(),  // fast 15h50 = 57000 s
            MealBuilder().at(day: 19_724, hour: 19, lasting: 1_800).kcalMicros(800_000_000).build(),  // fast 11h30 = 41400 s
        ]
        // When
        let sut = FastingAnalyzer.analyze(meals.reversed(), configuration: FastingConfigurationBuilder().build())
        // Then day 1: 3 episodes, 450.5 + 120.25 + 700 + 100.001 = 1370.751 kcal, window 08:00 → 15:10 = 25800 s;
        // day 2: 2 episodes, 1300 kcal, window 07:00 → 19:30 = 45000 s (> 28800: not compliant)
        #expect(sut.days.map(DayRow.init) == [
            DayRow(day: 19_723, episodes: 3, kcal: 1_370_751_000, window: 25_800, fasts: 1, longest: 14_400, compliant: true),
            DayRow(day: 19_724, episodes: 2, kcal: 1_300_000_000, window: 45_000, fasts: 2, longest: 57_000, compliant: false),
        ])
        var summary = FastingSummary()
        summary.meals = 6
        summary.episodes = 5
        summary.fasts = 3
        summary.totalFastSeconds = 14_400 + 57_000 + 41_400
        summary.longestFastSeconds = 57_000
        summary.evaluatedDays = 2
        summary.compliantDays = 1
        #expect(sut.summary == summary)
    }

    @Test("the first and last days of Int64's range, whose spans do not fit in it, are counted like any other", arguments: [
        // The last day starts 55,807 s before Int64.max and ends past it; the first starts 30,592 s before Int64.min.
        (Int64.max - 20_000, 106_751_991_167_300), (Int64.min + 100, -106_751_991_167_301),
    ] as [(Int64, Int64)])
    func daysAtTheEndsOfTime(start: Int64, day: Int64) throws {
        // Given two episodes on that day, 10,000 s apart (no fast between them)
        let meals = [
            MealBuilder().from(start, to: start + 100).kcalMicros(1_000_000).build(),
            MealBuilder().from(start + 10_000, to: start + 10_100).kcalMicros(2_000_000).build(),
        ]
        // When
        let sut = FastingAnalyzer.analyze(meals, configuration: FastingConfigurationBuilder().build())
        // Then both count on the day
        let row = try #require(sut.days.first)
        #expect(sut.days.count == 1)
        #expect(row.day.index == day)
        #expect(row.episodes == 2)
        #expect(row.kcalMicros == 3_000_000)
        #expect(row.eatingWindowSeconds == 10_100)
    }

    @Test("at the top of Int64, where t + 60 × offset overflows, episodes count on their exact local days")
    func daysWhereTheOffsetOverflows() {
        // Given a user at +14:00 and three meals in the last two local days of Int64's range: the first
        // before the sum overflows, the second after it on the same day, the third after the last midnight
        let top = Int64.max
        let meals = [
            MealBuilder().from(top - 60_000, to: top - 59_900).kcalMicros(1_000_000).build(),
            MealBuilder().from(top - 40_000, to: top - 39_900).kcalMicros(2_000_000).build(),
            MealBuilder().from(top - 15_000, to: top - 14_900).kcalMicros(4_000_000).build(),
        ]
        // When
        let sut = FastingAnalyzer.analyze(meals, configuration: FastingConfigurationBuilder().offset(840).build())
        // Then the first two share the last day but one, and the fasts end on the days of their episodes
        #expect(sut.days == [
            FastingDay(day: LocalDay(index: 106_751_991_167_300), episodes: 2, kcalMicros: 3_000_000, eatingWindowSeconds: 20_100,
                       fastsEnded: 1, longestFastEndedSeconds: 19_900, compliant: true),
            FastingDay(day: LocalDay(index: 106_751_991_167_301), episodes: 1, kcalMicros: 4_000_000, eatingWindowSeconds: 100,
                       fastsEnded: 1, longestFastEndedSeconds: 24_900, compliant: true),
        ])
    }

    @Test("a user without meals has a zero summary and no day")
    func noMeals() {
        // Given no meals, When
        let sut = FastingAnalyzer.analyze([], configuration: FastingConfigurationBuilder().build())
        // Then
        #expect(sut.summary == FastingSummary())
        #expect(sut.days.isEmpty)
    }

    @Test("only days with an episode get a row; a fast over an empty day ends on the next episode's day")
    func dayWithoutEpisode() {
        // Given meals on the 1st and the 3rd at 12:00 (a fast of 2 days − 30 min = 171000 s)
        let meals = [
            MealBuilder().at(hour: 12).build(),
            MealBuilder().at(day: 19_725, hour: 12).build(),
        ]
        // When
        let sut = FastingAnalyzer.analyze(meals, configuration: FastingConfigurationBuilder().fastingProtocol(.none).build())
        // Then
        #expect(sut.days.map(DayRow.init) == [
            DayRow(day: 19_723, episodes: 1, kcal: 500_000_000, window: 1_800, fasts: 0, longest: 0, compliant: nil),
            DayRow(day: 19_725, episodes: 1, kcal: 500_000_000, window: 1_800, fasts: 1, longest: 171_000, compliant: nil),
        ])
    }

    @Test("the accumulator hands out days before finish, in order")
    func accumulatorEmitsEarly() {
        // Given one meal a day for five days
        let meals = (0..<5).map { MealBuilder().at(day: 19_723 + $0, hour: 12).build() }
        var sut = FastingAccumulator(configuration: FastingConfigurationBuilder().build())
        var beforeFinish: [Int64] = []
        // When
        for meal in meals { sut.add(meal) { beforeFinish.append($0.day.index) } }
        var atFinish: [Int64] = []
        let summary = sut.finish { atFinish.append($0.day.index) }
        // Then
        #expect(!beforeFinish.isEmpty)
        #expect(beforeFinish + atFinish == [19_723, 19_724, 19_725, 19_726, 19_727])
        #expect(summary.episodes == 5)
        #expect(sut.summary == summary)
    }

    @Test(
        "meals sort by start, then end, then energy",
        arguments: [
            ((1, 5, 9), (2, 3, 0), true),
            ((2, 3, 0), (1, 5, 9), false),
            ((1, 3, 9), (1, 5, 0), true),
            ((1, 5, 0), (1, 3, 9), false),
            ((1, 5, 1), (1, 5, 2), true),
            ((1, 5, 2), (1, 5, 1), false),
            ((1, 5, 2), (1, 5, 2), false),
        ] as [((Int64, Int64, Int64), (Int64, Int64, Int64), Bool)]
    )
    func mealOrder(a: (Int64, Int64, Int64), b: (Int64, Int64, Int64), precedes: Bool) {
        let first = Meal(start: a.0, end: a.1, kcalMicros: a.2)
        let second = Meal(start: b.0, end: b.1, kcalMicros: b.2)
        #expect(Meal.precedes(first, second) == precedes)
    }
}

/// A row of `fasting_daily.csv` as plain fields, to compare a `FastingDay` with a table.
struct DayRow: Equatable, CustomStringConvertible {
    var day: Int64
    var episodes: Int
    var kcal: Int64
    var window: Int64
    var fasts: Int
    var longest: Int64
    var compliant: Bool?

    init(day: Int64, episodes: Int, kcal: Int64, window: Int64, fasts: Int, longest: Int64, compliant: Bool?) {
        self.day = day
        self.episodes = episodes
        self.kcal = kcal
        self.window = window
        self.fasts = fasts
        self.longest = longest
        self.compliant = compliant
    }

    init(_ row: FastingDay) {
        self.init(
            day: row.day.index, episodes: row.episodes, kcal: row.kcalMicros, window: row.eatingWindowSeconds,
            fasts: row.fastsEnded, longest: row.longestFastEndedSeconds, compliant: row.compliant
        )
    }

    var description: String {
        "day \(day): \(episodes) episodes, \(kcal) µkcal, window \(window), \(fasts) fasts ended (longest \(longest)), compliant \(compliant.map(String.init) ?? "-")"
    }
}
