import PaymentsCore
import Testing
import TestSupport

@Suite("Retry policy, clock and random numbers")
struct RetryPolicyTests {
    @Test("the default policy: 3 attempts, 100 ms base, 5 s cap, 40 ms answers, 1 s timeouts")
    func defaults() {
        let sut = RetryPolicy()
        #expect(sut.maxAttempts == 3)
        #expect(sut.baseDelayMillis == 100)
        #expect(sut.maxDelayMillis == 5_000)
        #expect(sut.responseMillis == 40)
        #expect(sut.timeoutMillis == 1_000)
    }

    @Test(
        "backoff after attempt n is in [half, full] of min(cap, base × 2^n)",
        arguments: [
            (0, 50, 100), (1, 100, 200), (2, 200, 400), (3, 400, 800), (4, 800, 1_600), (5, 1_600, 3_200),
            (6, 2_500, 5_000), (30, 2_500, 5_000), (31, 2_500, 5_000), (1_000, 2_500, 5_000),
        ] as [(Int, Int64, Int64)]
    )
    func backoffRange(attempt: Int, low: Int64, high: Int64) {
        // Given the default policy and 300 seeds
        let sut = RetryPolicy()
        // When
        let waits = (0..<300).map { seed in
            var random = SplitMix64(seed: UInt64(seed))
            return sut.backoffMillis(afterAttempt: attempt, using: &random)
        }
        // Then every wait is within the range, and the waits spread over it
        #expect(waits.allSatisfy { (low...high).contains($0) })
        #expect(waits.min()! < low + (high - low) / 4)
        #expect(waits.max()! > high - (high - low) / 4)
    }

    @Test("the jitter reaches both ends of its range")
    func jitterEnds() {
        // Given base 4 ms: after attempt 0 the wait is 2, 3 or 4 ms; with an odd cap of 5 ms after
        // attempt 1, 2...5 ms (half rounds down)
        let small = RetryPolicy(baseDelayMillis: 4, maxDelayMillis: 1_000)
        let odd = RetryPolicy(baseDelayMillis: 4, maxDelayMillis: 5)
        var random = SplitMix64(seed: 5)
        // When
        let smallWaits = Set((0..<200).map { _ in small.backoffMillis(afterAttempt: 0, using: &random) })
        let oddWaits = Set((0..<200).map { _ in odd.backoffMillis(afterAttempt: 1, using: &random) })
        // Then
        #expect(smallWaits == [2, 3, 4])
        #expect(oddWaits == [2, 3, 4, 5])
    }

    @Test("backoff is deterministic for a seed")
    func deterministicBackoff() {
        // Given a policy and three generators, two with the same seed
        let sut = RetryPolicy()
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        var other = SplitMix64(seed: 43)
        // When
        let waits = (0..<10).map { sut.backoffMillis(afterAttempt: $0, using: &first) }
        // Then
        #expect((0..<10).map { sut.backoffMillis(afterAttempt: $0, using: &second) } == waits)
        #expect((0..<10).map { sut.backoffMillis(afterAttempt: $0, using: &other) } != waits)
    }

    @Test("max_attempts outside 1...32 stops the program")
    func attemptsPrecondition() async {
        await #expect(processExitsWith: .failure) { _ = RetryPolicy(maxAttempts: 0) }
        await #expect(processExitsWith: .failure) { _ = RetryPolicy(maxAttempts: 33) }
    }

    @Test("SplitMix64 gives the reference sequence for seed 0")
    func splitMix() {
        // Given Vigna's splitmix64.c reference values for seed 0
        var sut = SplitMix64(seed: 0)
        // When, Then
        #expect([sut.next(), sut.next(), sut.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        #expect(sut.state == 3 &* 0x9E37_79B9_7F4A_7C15)
    }

    @Test("the manual clock moves only when told")
    func manualClock() {
        // Given
        var sut = ManualClock(nowMillis: 5)
        // When
        sut.advance(byMillis: 10)
        sut.advance(byMillis: 0)
        // Then
        #expect(sut.nowMillis == 15)
        #expect(ManualClock().nowMillis == 0)
    }
}
