import Testing
@_spi(Tooling) import ProcessMetrics

@Suite struct ResidentMemoryTests {
    @Test func parsesRSSAndHighWaterMarkFromStatusText() throws {
        // Given the lines of /proc/self/status around the memory fields
        let status = """
            Name:\tSimHarnessPack
            VmPeak:\t  912344 kB
            VmHWM:\t   51200 kB
            VmRSS:\t   20480 kB
            Threads:\t2
            """

        // When it is parsed
        let sut = try #require(ResidentMemory.parse(status: status))

        // Then kB become bytes: 20480 × 1024 and 51200 × 1024
        #expect(sut.currentBytes == 20_971_520)
        #expect(sut.peakBytes == 52_428_800)
    }

    @Test func statusTextWithoutHighWaterMarkGivesNil() {
        // Given a status text lacking VmHWM (a kernel thread's, for instance)
        let status = "Name:\tkthreadd\nVmRSS:\t  100 kB\n"

        // When / Then
        #expect(ResidentMemory.parse(status: status) == nil)
    }

    @Test func readsThisProcess() throws {
        // Given / When
        let sut = try #require(ResidentMemory.current())

        // Then the process is resident and its peak is at least what it holds now
        #expect(sut.currentBytes > 0)
        #expect(sut.peakBytes >= sut.currentBytes)
    }

    @Test func resetPeakForgetsAnEarlierHighWaterMark() async {
        // Given a 64 MiB block that was touched and freed again, which raised the high-water mark, in a
        // process of its own (the high-water mark is process-wide: other suites would move it)
        // When the peak is reset
        // Then the peak no longer includes the freed block
        await #expect(processExitsWith: .success) {
            let size = 64 << 20
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 4096)
            for offset in stride(from: 0, to: size, by: 4096) { block[offset] = 1 }
            let whileHeld = ResidentMemory.current()!
            block.deallocate()
            let reset = ResidentMemory.resetPeak()
            let sut = ResidentMemory.current()!
            precondition(reset, "the peak could not be reset")
            precondition(whileHeld.peakBytes >= whileHeld.currentBytes)
            precondition(sut.peakBytes < whileHeld.peakBytes - size / 2, "peak \(sut.peakBytes) after, \(whileHeld.peakBytes) before")
        }
    }
}
