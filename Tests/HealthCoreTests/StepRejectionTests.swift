@_spi(Tooling) import HealthCore
import Testing

@Suite("Step rejections (SPEC §3)")
struct StepRejectionTests {
    @Test(
        "value checks run bad_interval then negative_value",
        arguments: [
            (100, 100, 5, StepRejection.badInterval),  // end == start
            (100, 99, 5, .badInterval),
            (0, 86_400, 5, nil),  // exactly one day is allowed
            (0, 86_401, 5, .badInterval),
            (0, 86_401, -1, .badInterval),
            (100, 99, -1, .badInterval),
            (0, 60, -0.5, .negativeValue),
            (0, 60, 0, nil),
            (-120, -60, 12.5, nil),
        ] as [(Int64, Int64, Double, StepRejection?)]
    )
    func check(start: Int64, end: Int64, count: Double, expected: StepRejection?) {
        // Given a sample's own values, When checking them
        let sut = StepRejection.check(start: start, end: end, count: count)
        // Then
        #expect(sut == expected)
    }

    @Test("reasons are spelled as in the files, in check order; sources by name")
    func spelling() {
        #expect(StepRejection.allCases.map(\.rawValue) == ["malformed", "unknown_user", "bad_interval", "negative_value", "duplicate"])
        #expect(StepRejection.maximumDuration == 86_400)
        #expect(StepSource.allCases.map(\.name) == ["phone", "watch"])
        #expect(StepSource.watch.rawValue > StepSource.phone.rawValue)
    }
}
