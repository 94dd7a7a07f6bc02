import Testing
@testable import ProcessMetrics

@Suite struct CalibrationTests {
    @Test func measuresAPositiveScore() {
        // Given / When
        let sut = Calibration.measure(repetitions: 1)

        // Then
        #expect(sut.score > 0)
    }

    @Test(arguments: [
        (current: 100.0, baseline: 200.0, slowdown: 2.0),
        (current: 200.0, baseline: 100.0, slowdown: 0.5),
        (current: 150.0, baseline: 150.0, slowdown: 1.0),
    ])
    func slowdownIsTheRatioOfScores(current: Double, baseline: Double, slowdown: Double) {
        // Given a machine scoring `current` and a baseline recorded where it scored `baseline`
        let sut = Calibration(score: current)

        // When / Then a half-speed machine takes twice as long
        #expect(sut.slowdown(comparedWith: Calibration(score: baseline)) == slowdown)
    }

    @Test func loopResultDependsOnItsLength() {
        // Given / When / Then: the chain really runs (a folded loop would give one constant)
        #expect(calibrationLoop(iterations: 1000) != calibrationLoop(iterations: 1001))
    }
}
