@_spi(Tooling) import HealthCore
import Testing
import TestSupport

/// A phone sample whose count overflows a Double (`+infinity`, so its rate is infinite too) counts
/// nothing where a watch covers it: the accumulator must never multiply its rate by 0 seconds, which
/// gives NaN. Two mutants of `StepAccumulator.advance` once listed as equivalent ("adds phone rate
/// × 0 = +0.0") do exactly that; the generated workloads cannot carry such a count, so these
/// checks are what kills them.
@Suite("Step accumulator: a phone of infinite rate fully under watches")
struct StepAccumulatorInfiniteRateTests {
    /// 10:00 on the reference day, in seconds after local midnight.
    static let ten: Int64 = 36_000

    @Test(
        "a phone of infinite count fully under watches counts nothing; the watches' counts stay finite",
        arguments: [
            // ends with the watch, and the next sample that day starts there: the fast path closing the phone sees
            // firstPhoneEnd == uncoveredFrom (mutant `firstPhoneEnd > uncoveredFrom` -> `>=`)
            ([(StepSource.watch, 0, 1_000, 2.0), (.phone, 100, 1_000, .infinity), (.watch, 1_000, 1_100, 1)], 3.0),
            // under two watches that abut: the second starts where the first stops, at time == uncoveredFrom
            // while the phone is open (mutant `time <= uncoveredFrom` -> `<`), and the phone ends with it
            ([(.watch, 0, 1_000, 2), (.phone, 100, 2_000, .infinity), (.watch, 1_000, 2_000, 3)], 5),
        ] as [([(StepSource, Int64, Int64, Double)], Double)]
    )
    func infinitePhoneUnderWatches(samples: [(StepSource, Int64, Int64, Double)], expected: Double) {
        // Given the samples, from 10:00, in the order the accumulator consumes them
        let input = samples.map { StepSampleBuilder().source($0.0).seconds(Self.ten + $0.1, to: Self.ten + $0.2).count($0.3).build() }
        var sut = StepAccumulator(utcOffsetMinutes: 0)
        var days: [StepDay] = []
        // When they are added one by one and the accumulator finishes
        for sample in input { sut.add(sample) { days.append($0) } }
        sut.finish { days.append($0) }
        // Then the one day holds the watches' counts only: not NaN, not infinite
        #expect(days.map(\.day.index) == [TestTime.referenceDay])
        #expect(days.map(\.steps) == [expected])
        #expect(days.map(\.average7) == [expected / 7])
    }
}
