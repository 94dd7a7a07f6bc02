import Testing
@_spi(Tooling) import ProcessMetrics

@Suite struct CalibrationTests {
    @Test func measuresAPositiveScore() {
        // Given / When
        let sut = Calibration.measure(repetitions: 1)

        // Then
        #expect(sut.score > 0)
        #expect(sut.cpuScore > 0)
    }

    @Test(arguments: [
        (current: 100.0, baseline: 200.0, slowdown: 2.0),
        (current: 200.0, baseline: 100.0, slowdown: 0.5),
        (current: 150.0, baseline: 150.0, slowdown: 1.0),
    ])
    func slowdownIsTheRatioOfScores(current: Double, baseline: Double, slowdown: Double) {
        // Given a machine scoring `current` by both clocks, and a baseline recorded where it scored `baseline`
        let sut = Calibration(score: current, cpuScore: current)
        let recorded = Calibration(score: baseline, cpuScore: baseline)

        // When / Then a half-speed machine takes twice as long
        #expect(sut.slowdown(comparedWith: recorded) == slowdown)
        #expect(sut.cpuSlowdown(comparedWith: recorded) == slowdown)
    }

    @Test func wallClockAndCPUSlowdownsAreIndependent() {
        // Given a run slowed by load (wall score halved) on a core as fast as the baseline's
        let sut = Calibration(score: 50, cpuScore: 100)

        // When / Then
        #expect(sut.slowdown(comparedWith: Calibration(score: 100, cpuScore: 100)) == 2)
        #expect(sut.cpuSlowdown(comparedWith: Calibration(score: 100, cpuScore: 100)) == 1)
    }
}
