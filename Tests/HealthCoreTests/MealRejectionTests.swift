@_spi(Tooling) import HealthCore
import Testing

@Suite("Meal rejections (SPEC §2)")
struct MealRejectionTests {
    @Test(
        "value checks run end_before_start, too_long, negative_value, in that order",
        arguments: [
            (100, 99, false, MealRejection.endBeforeStart),
            (100, 99, true, .endBeforeStart),
            (0, 14_400, false, nil),  // exactly 4 hours is allowed
            (0, 14_401, false, .tooLong),
            (0, 14_401, true, .tooLong),
            (-20_000, -5_599, false, .tooLong),
            (0, 100, true, .negativeValue),
            (50, 50, false, nil),  // zero-length meals are accepted
            (50, 50, true, .negativeValue),
        ] as [(Int64, Int64, Bool, MealRejection?)]
    )
    func check(start: Int64, end: Int64, hasNegativeValue: Bool, expected: MealRejection?) {
        // Given a meal's own values, When checking them
        let sut = MealRejection.check(start: start, end: end, hasNegativeValue: hasNegativeValue)
        // Then
        #expect(sut == expected)
    }

    @Test("reasons are spelled as in the files, in check order")
    func spelling() {
        #expect(MealRejection.allCases.map(\.rawValue) == [
            "malformed", "unknown_user", "end_before_start", "too_long", "negative_value", "duplicate",
        ])
        #expect(MealRejection.maximumDuration == 14_400)
    }
}
