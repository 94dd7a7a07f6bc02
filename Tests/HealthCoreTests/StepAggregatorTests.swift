@_spi(Tooling) import HealthCore
import Testing
import TestSupport

@Suite("Step aggregator (SPEC §3)")
struct StepAggregatorTests {
    /// 10:00 on the reference day, in seconds after local midnight.
    static let ten: Int64 = 36_000

    @Test(
        "watch over phone: only the highest-ranked covering source counts, one source adds up",
        arguments: [
            // phone fully under a watch counts 0
            ([(StepSource.phone, 1_000, 2_000, 100.0), (.watch, 500, 3_000, 50)], 50.0),
            // partial overlap: phone [0, 600) of [0, 1000) counts 60
            ([(.phone, 0, 1_000, 100), (.watch, 600, 1_600, 30)], 90),
            // a watch with count 0 still covers
            ([(.watch, 0, 1_000, 0), (.phone, 0, 1_000, 100)], 0),
            ([(.phone, 0, 1_000, 100), (.watch, 250, 750, 0)], 50),
            // two phones add, two watches add
            ([(.phone, 0, 1_000, 100), (.phone, 500, 1_500, 40)], 140),
            ([(.watch, 0, 1_000, 100), (.watch, 500, 1_500, 40)], 140),
            // a phone across two watches: 1000 − 100 − 200 uncovered seconds at 1 step/s, plus 7 + 3
            ([(.phone, 0, 1_000, 1_000), (.watch, 100, 200, 7), (.watch, 500, 700, 3)], 710),
            // same start: the phone's second half counts
            ([(.phone, 0, 1_000, 10), (.watch, 0, 500, 5)], 10),
            // a phone starting under a watch: [600, 1300) counts 70
            ([(.watch, 0, 600, 60), (.phone, 300, 1_300, 100)], 130),
            // two phones half under a watch: 50 + 100, plus the watch's 1
            ([(.phone, 0, 1_000, 100), (.phone, 0, 1_000, 200), (.watch, 500, 1_000, 1)], 151),
            // [start, end) intervals that only touch do not overlap
            ([(.watch, 0, 100, 10), (.phone, 100, 200, 20)], 30),
            // overlapping watches, then the phone's uncovered tail [300, 400)
            ([(.watch, 0, 100, 10), (.watch, 50, 300, 25), (.phone, 0, 400, 400)], 135),
        ] as [([(StepSource, Int64, Int64, Double)], Double)]
    )
    func overlap(samples: [(StepSource, Int64, Int64, Double)], expected: Double) throws {
        // Given samples from 10:00 on the reference day (UTC)
        let input = samples.map {
            StepSampleBuilder().source($0.0).seconds(Self.ten + $0.1, to: Self.ten + $0.2).count($0.3).build()
        }
        // When
        let sut = StepAggregator.aggregate(input, utcOffsetMinutes: 0)
        // Then
        expectDays(sut, [(19_723, expected, expected / 7)])
    }

    @Test(
        "a sample is split pro rata across local midnight",
        arguments: [
            // +05:30: 23:00 → 01:00 local, 120 steps
            (330, StepSource.watch, 82_800, 90_000, 120.0, [(19_723, 60.0, 60.0 / 7), (19_724, 60.0, 120.0 / 7)]),
            (330, .phone, 82_800, 90_000, 120, [(19_723, 60, 60.0 / 7), (19_724, 60, 120.0 / 7)]),
            // -12:00: a whole day from 18:00 local, 240 steps: 6 h then 18 h
            (-720, .phone, 64_800, 151_200, 240, [(19_723, 60, 60.0 / 7), (19_724, 180, 240.0 / 7)]),
            // +05:45: ends exactly at local midnight, so it touches one day only
            (345, .watch, 82_800, 86_400, 50, [(19_723, 50, 50.0 / 7)]),
            // -03:30: starts exactly at local midnight
            (-210, .phone, 86_400, 87_000, 14, [(19_724, 14, 2)]),
        ] as [(Int32, StepSource, Int64, Int64, Double, [(Int64, Double, Double)])]
    )
    func midnightSplit(offset: Int32, source: StepSource, from: Int64, to: Int64, count: Double, expected: [(Int64, Double, Double)]) {
        // Given one sample, times relative to local midnight of the reference day
        let sample = StepSampleBuilder().source(source).seconds(from, to: to, utcOffsetMinutes: offset).count(count).build()
        // When
        let sut = StepAggregator.aggregate([sample], utcOffsetMinutes: offset)
        // Then
        expectDays(sut, expected)
    }

    @Test("a phone partly under a watch across midnight counts its uncovered parts on each day")
    func phoneUnderWatchAcrossMidnight() {
        // Given a phone 23:00–01:00 (720 steps, 0.1/s) and a watch 23:30–00:30 (100 steps)
        let phone = StepSampleBuilder().phone().seconds(82_800, to: 90_000).count(720).build()
        let watch = StepSampleBuilder().watch().seconds(84_600, to: 88_200).count(100).build()
        // When
        let sut = StepAggregator.aggregate([watch, phone], utcOffsetMinutes: 0)
        // Then each day gets 1800 s of phone (180) and half the watch (50)
        expectDays(sut, [(19_723, 230, 230.0 / 7), (19_724, 230, 460.0 / 7)])
    }

    @Test("samples across every midnight for 40 days: every day gets its two halves, none is lost or repeated", arguments: [StepSource.watch, .phone])
    func acrossEveryMidnight(source: StepSource) {
        // Given a sample from 23:00 to 01:00 every night for 40 nights, 7,200 steps each
        let first = TestTime.referenceDay
        let samples = (0..<40).map { night in
            StepSampleBuilder().source(source).seconds(82_800, to: 90_000, day: first + Int64(night)).count(7_200).build()
        }
        // When they are aggregated
        let sut = StepAggregator.aggregate(samples, utcOffsetMinutes: 0)
        // Then each of the 41 days has an hour of the night before and an hour of the night after
        #expect(sut.map(\.day.index) == Array(first...(first + 40)))
        #expect(sut.map(\.steps) == [3_600] + Array(repeating: 7_200, count: 39) + [3_600])
    }

    @Test("a day whose counted total is 0 still gets its row")
    func zeroDays() {
        // Given a phone fully under a zero watch on the 1st, and a lone zero phone on the 3rd
        let samples = [
            StepSampleBuilder().watch().seconds(36_000, to: 40_000).count(0).build(),
            StepSampleBuilder().phone().seconds(37_000, to: 38_000).count(500).build(),
            StepSampleBuilder().phone().seconds(36_000, to: 36_060, day: 19_725).count(0).build(),
        ]
        // When
        let sut = StepAggregator.aggregate(samples, utcOffsetMinutes: 0)
        // Then
        expectDays(sut, [(19_723, 0, 0), (19_725, 0, 0)])
    }

    @Test("avg7 divides the last 7 days by 7, days without samples and days before the data counting 0")
    func average7() {
        // Given totals 70 (1st), 14 (4th), 7 (7th), 0 (8th) and 7 (15th)
        let samples = [
            StepSampleBuilder().watch().seconds(36_000, to: 36_600, day: 19_723).count(70).build(),
            StepSampleBuilder().phone().seconds(36_000, to: 36_600, day: 19_726).count(14).build(),
            StepSampleBuilder().phone().seconds(36_000, to: 36_600, day: 19_729).count(7).build(),
            StepSampleBuilder().watch().seconds(36_000, to: 36_600, day: 19_730).count(0).build(),
            StepSampleBuilder().watch().seconds(36_000, to: 36_600, day: 19_737).count(7).build(),
        ]
        // When
        let sut = StepAggregator.aggregate(samples.reversed(), utcOffsetMinutes: 0)
        // Then 70/7; (70+14)/7; (70+14+7)/7; (14+7+0)/7; 7/7
        expectDays(sut, [(19_723, 70, 10), (19_726, 14, 12), (19_729, 7, 13), (19_730, 0, 3), (19_737, 7, 1)])
    }

    @Test("avg7 over nine consecutive days drops the eighth day back")
    func average7Consecutive() {
        // Given 7, 14, ..., 63 steps on nine consecutive days
        let samples = (0..<9).map { k in
            StepSampleBuilder().watch().seconds(36_000, to: 36_600, day: 19_723 + Int64(k)).count(Double(7 * (k + 1))).build()
        }
        // When
        let sut = StepAggregator.aggregate(samples, utcOffsetMinutes: 0)
        // Then avg7 is 1, 1+2, ..., 1+…+7 = 28, then 2+…+8 = 35 and 3+…+9 = 42
        expectDays(sut, [
            (19_723, 7, 1), (19_724, 14, 3), (19_725, 21, 6), (19_726, 28, 10), (19_727, 35, 15),
            (19_728, 42, 21), (19_729, 49, 28), (19_730, 56, 35), (19_731, 63, 42),
        ])
    }

    @Test("no samples, no rows")
    func noSamples() {
        #expect(StepAggregator.aggregate([], utcOffsetMinutes: 840).isEmpty)
    }

    @Test("days before 1970 are counted on negative day indices")
    func beforeEpoch() {
        // Given a watch from 1969-12-31 23:00 to 1970-01-01 01:00 UTC, 7200 steps
        let sample = StepSampleBuilder().watch().from(-3_600, to: 3_600).count(7_200).build()
        // When
        let sut = StepAggregator.aggregate([sample], utcOffsetMinutes: 0)
        // Then
        expectDays(sut, [(-1, 3_600, 3_600.0 / 7), (0, 3_600, 7_200.0 / 7)])
    }

    @Test("the first and last days of Int64's range, whose spans do not fit in it, are counted like any other", arguments: [
        // The last day starts 55,807 s before Int64.max and ends past it; the first starts 30,592 s before Int64.min.
        (Int64.max - 1_000, 106_751_991_167_300), (Int64.min + 100, -106_751_991_167_301),
    ] as [(Int64, Int64)])
    func daysAtTheEndsOfTime(start: Int64, day: Int64) {
        // Given two watch samples on that day, one after the other
        let samples = [
            StepSample(start: start, end: start + 100, count: 10, source: .watch),
            StepSample(start: start + 200, end: start + 300, count: 4, source: .watch),
        ]
        // When
        let sut = StepAggregator.aggregate(samples, utcOffsetMinutes: 0)
        // Then both count on the day
        expectDays(sut, [(day, 14, 2)])
    }

    @Test("at the top of Int64, where t + 60 × offset overflows, samples count on their exact local days")
    func daysWhereTheOffsetOverflows() {
        // Given a user at +14:00 and watch samples in the last two local days of Int64's range: the first
        // before the sum overflows, the second after it on the same day, the third across the last midnight
        // (193 s before it; the day after it has no start in Int64)
        let top = Int64.max
        let samples = [
            StepSample(start: top - 60_000, end: top - 59_900, count: 10, source: .watch),
            StepSample(start: top - 40_000, end: top - 39_900, count: 4, source: .watch),
            StepSample(start: top - 20_000, end: top - 10_000, count: 100, source: .watch),
        ]
        // When
        let sut = StepAggregator.aggregate(samples, utcOffsetMinutes: 840)
        // Then
        let lastDay = 14 + 0.01 * 193, afterMidnight = 0.01 * 9_807
        expectDays(sut, [
            (106_751_991_167_300, lastDay, lastDay / 7),
            (106_751_991_167_301, afterMidnight, (lastDay + afterMidnight) / 7),
        ])
    }

    @Test("the accumulator hands out days before finish, in order")
    func accumulatorEmitsEarly() {
        // Given one sample a day for five days
        let samples = (0..<5).map { StepSampleBuilder().seconds(36_000, to: 36_600, day: 19_723 + $0).count(7).build() }
        var sut = StepAccumulator(utcOffsetMinutes: 0)
        var beforeFinish: [Int64] = []
        var atFinish: [Int64] = []
        // When
        for sample in samples { sut.add(sample) { beforeFinish.append($0.day.index) } }
        sut.finish { atFinish.append($0.day.index) }
        // Then
        #expect(beforeFinish == [19_723, 19_724, 19_725, 19_726])
        #expect(atFinish == [19_727])
        #expect(sut.utcOffsetMinutes == 0)
    }

    @Test("a copy of an accumulator goes on by itself: what one is fed never reaches the other")
    func copiesAreIndependent() {
        // Given an accumulator fed an open phone and a day's watch samples, and a copy of it
        let first = StepSampleBuilder().phone().seconds(Self.ten, to: Self.ten + 7_200, day: 19_723).count(7_200).build()
        let watch = StepSampleBuilder().watch().seconds(Self.ten + 600, to: Self.ten + 1_200, day: 19_723).count(50).build()
        var original = StepAccumulator(utcOffsetMinutes: 0)
        original.add(first) { _ in }
        original.add(watch) { _ in }
        var sut = original
        // When the copy gets one more watch sample that day and the original one on the next day
        var copyDays: [StepDay] = []
        var originalDays: [StepDay] = []
        sut.add(StepSampleBuilder().watch().seconds(Self.ten + 3_600, to: Self.ten + 4_200, day: 19_723).count(9).build()) { copyDays.append($0) }
        sut.finish { copyDays.append($0) }
        original.add(StepSampleBuilder().watch().seconds(Self.ten, to: Self.ten + 60, day: 19_724).count(4).build()) { originalDays.append($0) }
        original.finish { originalDays.append($0) }
        // Then each counts only its own: the phone's 7,200 s less the two watches' 1,200 s, plus 50 (+ 9)
        expectDays(copyDays, [(19_723, 6_059, 6_059.0 / 7)])
        expectDays(originalDays, [(19_723, 6_650, 6_650.0 / 7), (19_724, 4, 6_654.0 / 7)])
    }

    @Test("twelve phones open at once and a watch sample across twenty days are counted in full")
    func manyOpenPhonesAndDays() {
        // Given twelve overlapping phone samples of 100 steps, then a 20-day watch sample of 2,000 steps
        // that starts after them
        let phones = (0..<12).map { k in
            StepSampleBuilder().phone().seconds(Self.ten + Int64(k), to: Self.ten + 1_000 + Int64(k), day: 19_723).count(100).build()
        }
        let watch = StepSampleBuilder().watch().seconds(0, to: 20 * 86_400, day: 19_724).count(2_000).build()
        // When
        let sut = StepAggregator.aggregate(phones + [watch], utcOffsetMinutes: 0)
        // Then the first day has the phones' 1,200, and each of the next twenty the watch's 100
        #expect(sut.map(\.day.index) == Array(19_723...19_743))
        #expect(sut.map { $0.steps.rounded() } == [1_200] + Array(repeating: 100, count: 20))
    }

    @Test(
        "samples sort by start, end, source (phone first), then count",
        arguments: [
            ((1, 5, StepSource.watch, 9.0), (2, 3, StepSource.phone, 0.0), true),
            ((2, 3, .phone, 0), (1, 5, .watch, 9), false),
            ((1, 3, .watch, 9), (1, 5, .phone, 0), true),
            ((1, 5, .phone, 0), (1, 3, .watch, 9), false),
            ((1, 5, .phone, 9), (1, 5, .watch, 0), true),
            ((1, 5, .watch, 0), (1, 5, .phone, 9), false),
            ((1, 5, .watch, 1), (1, 5, .watch, 2), true),
            ((1, 5, .watch, 2), (1, 5, .watch, 2), false),
        ] as [((Int64, Int64, StepSource, Double), (Int64, Int64, StepSource, Double), Bool)]
    )
    func sampleOrder(a: (Int64, Int64, StepSource, Double), b: (Int64, Int64, StepSource, Double), precedes: Bool) {
        let first = StepSample(start: a.0, end: a.1, count: a.3, source: a.2)
        let second = StepSample(start: b.0, end: b.1, count: b.3, source: b.2)
        #expect(StepSample.precedes(first, second) == precedes)
    }
}

/// Expects `actual` to hold exactly the `(day, steps, avg7)` rows, to 1e-9.
func expectDays(_ actual: [StepDay], _ expected: [(Int64, Double, Double)], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.map(\.day.index) == expected.map(\.0), sourceLocation: sourceLocation)
    for (row, want) in zip(actual, expected) {
        #expect(abs(row.steps - want.1) < 1e-9, "steps of day \(row.day.index): \(row.steps) vs \(want.1)", sourceLocation: sourceLocation)
        #expect(abs(row.average7 - want.2) < 1e-9, "avg7 of day \(row.day.index): \(row.average7) vs \(want.2)", sourceLocation: sourceLocation)
    }
}
