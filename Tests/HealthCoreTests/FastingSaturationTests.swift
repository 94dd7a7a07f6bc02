@_spi(Tooling) import HealthCore
import Testing

/// Issue 45: sums past Int64's range saturate at its end instead of wrapping (a wrong sign) or
/// trapping (`analyze` died with SIGILL).
@Suite("FastingAnalyzer: kcal and seconds past Int64's range saturate")
struct FastingSaturationTests {
    @Test("kcal of an episode and of a day stop at Int64.max millionths", arguments: [
        [Int64.max, 1], [Int64.max, Int64.max], [Int64.max / 2 + 1, Int64.max / 2 + 1], [Int64.max, 0],
    ])
    func kcalSaturate(kcal: [Int64]) {
        // Given overlapping meals (one episode) and a later one on the same day whose kcal add up past Int64.max millionths
        var meals = kcal.enumerated().map { Meal(start: Int64($0.offset), end: 60, kcalMicros: $0.element) }
        meals.append(Meal(start: 600, end: 660, kcalMicros: Int64.max))
        // When the day is analyzed
        let sut = FastingAnalyzer.analyze(meals, configuration: FastingConfiguration(utcOffsetMinutes: 0, fastingProtocol: .none))
        // Then its kcal are the largest value, not a wrapped negative one
        #expect(sut.days.map(\.kcalMicros) == [Int64.max])
    }

    @Test("a fast from near Int64.min to near Int64.max counts as Int64.max seconds, and so does the total")
    func fastsSaturate() {
        // Given meals at both ends of time and one in the middle, two fasts each longer than Int64.max seconds together
        let meals = [
            Meal(start: .min, end: .min + 10, kcalMicros: 1), Meal(start: 0, end: 10, kcalMicros: 1),
            Meal(start: .max - 10, end: .max, kcalMicros: 1),
        ]
        // When analyzed
        let sut = FastingAnalyzer.analyze(meals, configuration: FastingConfiguration(utcOffsetMinutes: 0, fastingProtocol: .none))
        // Then both fasts count, their lengths are exact below the end of the range and the total stops at it
        #expect(sut.summary.fasts == 2)
        #expect(sut.summary.longestFastSeconds == Int64.max - 9)
        #expect(sut.summary.totalFastSeconds == Int64.max)
        #expect(sut.days.map(\.longestFastEndedSeconds) == [0, Int64.max - 9, Int64.max - 20])
    }

    @Test("a fast past Int64's range saturates")
    func gapSaturates() {
        // Given a meal ending near Int64.min and the next starting near Int64.max
        let meals = [Meal(start: .min, end: .min + 10, kcalMicros: 1), Meal(start: .max - 10, end: .max, kcalMicros: 1)]
        // When analyzed
        let sut = FastingAnalyzer.analyze(meals, configuration: FastingConfiguration(utcOffsetMinutes: 0, fastingProtocol: .none))
        // Then the one fast is Int64.max seconds long
        #expect(sut.summary.longestFastSeconds == Int64.max)
        #expect(sut.summary.totalFastSeconds == Int64.max)
    }

    @Test("a day whose meals have no kcal sums to 0, not to the saturated end (the sums' boundary is at 0)")
    func zeroKcalDay() {
        // Given two overlapping meals of 0 kcal (one episode) and a later one of 0 kcal the same day
        let meals = [
            Meal(start: 0, end: 60, kcalMicros: 0), Meal(start: 30, end: 90, kcalMicros: 0), Meal(start: 600, end: 660, kcalMicros: 0),
        ]
        // When analyzed
        let sut = FastingAnalyzer.analyze(meals, configuration: FastingConfiguration(utcOffsetMinutes: 0, fastingProtocol: .none))
        // Then the day's kcal are 0
        #expect(sut.days.map(\.kcalMicros) == [0])
    }
}
