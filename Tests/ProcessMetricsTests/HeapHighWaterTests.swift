import Testing
@_spi(Tooling) import ProcessMetrics

/// The heap's live bytes are process-wide and other suites run in parallel, so the measurements run
/// in a process of their own (an exit test), where nothing else allocates.
@Suite struct HeapHighWaterTests {
    static let blockSize = 8 << 20

    @Test(.enabled(if: HeapHighWater.isAvailable))
    func aBlockHeldForAMomentRaisesThePeakByItsSize() async {
        // Given / When the peak around a closure that holds 8 MiB for a moment and frees it again, and
        // around one that allocates nothing, alone in a process of their own
        // Then the first peak lies at least 8 MiB above the bytes in use at its start, the second
        // less than 1 MiB above
        await #expect(processExitsWith: .success) {
            let before = AllocationStatistics.current().bytesInUse ?? 0
            let sut = HeapHighWater.measure {
                let block = UnsafeMutableRawPointer.allocate(byteCount: HeapHighWaterTests.blockSize, alignment: 16)
                block.deallocate()
            }.peakBytes ?? 0
            let quiet = HeapHighWater.measure { 0 }.peakBytes ?? .max
            let after = AllocationStatistics.current().bytesInUse ?? 0
            precondition(sut >= before + HeapHighWaterTests.blockSize, "peak \(sut), in use before \(before)")
            precondition(quiet < after + (1 << 20), "quiet peak \(quiet), in use after \(after)")
        }
    }

    @Test func theClosuresResultIsReturned() {
        // Given / When
        let sut = HeapHighWater.measure { 42 }

        // Then
        #expect(sut.result == 42)
        #expect((sut.peakBytes != nil) == HeapHighWater.isAvailable)
    }
}
