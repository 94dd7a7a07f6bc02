import Testing
@_spi(Tooling) import ProcessMetrics

@Suite struct ResourceUsageTests {
    @Test func busyLoopAddsUserTime() {
        // Given the usage before some CPU-bound work
        let before = ResourceUsage.current()

        // When the calibration loop runs twice (tens of milliseconds)
        _ = Calibration.measure(repetitions: 2)
        let sut = ResourceUsage.current()

        // Then user time grew, and the peak resident size is known
        #expect(sut.userCPU > before.userCPU)
        #expect(sut.totalCPU == sut.userCPU + sut.systemCPU)
        #expect(sut.maxResidentBytes > 0)
    }

    @Test func threadCPUTimeGrowsWithWork() {
        // Given
        let before = ResourceUsage.currentThreadCPU()

        // When
        _ = Calibration.measure(repetitions: 1)

        // Then
        #expect(ResourceUsage.currentThreadCPU() > before)
    }

    @Test func durationSecondsIncludeTheFraction() {
        // Given 1.25 s, When / Then
        #expect(Duration.milliseconds(1250).seconds == 1.25)
    }
}
