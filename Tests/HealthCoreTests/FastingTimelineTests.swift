@_spi(Tooling) import HealthCore
import Testing
import TestSupport

@Suite("FastingTimeline.isFasting(at:) (SPEC §2 step 5)")
struct FastingTimelineTests {
    /// Meals [100, 200] and [200, 300] (touching), [500, 500] (zero length), [1000, 1100] with
    /// [1020, 1050] inside it; given out of order.
    static let sut = FastingTimeline(meals: [
        MealBuilder().from(1_020, to: 1_050).build(),
        MealBuilder().from(200, to: 300).build(),
        MealBuilder().from(500, to: 500).build(),
        MealBuilder().from(1_000, to: 1_100).build(),
        MealBuilder().from(100, to: 200).build(),
    ])

    @Test("meals merge into disjoint sorted episodes")
    func episodes() {
        #expect(Self.sut.episodes == [100...300, 500...500, 1_000...1_100])
    }

    @Test(
        "not fasting exactly when start <= t <= end for some meal",
        arguments: [
            (-5, true), (99, true), (100, false), (200, false), (300, false), (301, true),
            (499, true), (500, false), (501, true), (999, true), (1_000, false), (1_035, false),
            (1_100, false), (1_101, true), (Int64.max, true), (Int64.min, true),
        ] as [(Int64, Bool)]
    )
    func isFasting(at t: Int64, expected: Bool) {
        // Given the timeline above, When asking about instant t, Then
        #expect(Self.sut.isFasting(at: t) == expected)
    }

    @Test("without meals a user is always fasting", arguments: [Int64.min, -1, 0, 1_704_067_200])
    func emptyTimeline(at t: Int64) {
        let sut = FastingTimeline(meals: [])
        #expect(sut.isFasting(at: t))
    }
}
