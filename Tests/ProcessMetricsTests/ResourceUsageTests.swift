import Testing
@testable import ProcessMetrics

@Suite struct ResourceUsageTests {
    @Test func busyLoopAddsUserTime() {
        // Given the usage before some CPU-bound work
        let before = ResourceUsage.current()

        // When the calibration loop runs (tens of milliseconds)
        blackHole(calibrationLoop(iterations: Calibration.iterations))
        let sut = ResourceUsage.current()

        // Then user time grew, and the peak resident size is known
        #expect(sut.userCPU > before.userCPU)
        #expect(sut.totalCPU == sut.userCPU + sut.systemCPU)
        #expect(sut.maxResidentBytes > 0)
    }

    @Test func durationSecondsIncludeTheFraction() {
        // Given 1.25 s, When / Then
        #expect(Duration.milliseconds(1250).seconds == 1.25)
    }
}
