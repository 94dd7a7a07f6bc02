import Testing
@_spi(Tooling) import ProcessMetrics

@Suite struct MetricComparisonTests {
    @Test(arguments: [
        // A 0.2 s baseline on a machine twice as slow: expected 0.4 s, allowed 0.4 × 1.5 = 0.6 s;
        // improved when 0.4 s would regress from the measurement: below 0.4 / 1.5 = 0.2667 s.
        (measured: 0.61, verdict: MetricComparison.Verdict.regressed),
        (measured: 0.60, verdict: .held),
        (measured: 0.27, verdict: .held),
        (measured: 0.26, verdict: .improved),
    ])
    func timesScaleWithMachineSpeed(measured: Double, verdict: MetricComparison.Verdict) {
        // Given / When
        let sut = MetricComparison(
            metric: "wall clock", baseline: 0.2, expected: 0.2 * 2, measured: measured, tolerance: MetricTolerance(relative: 0.5)
        )

        // Then
        #expect(sut.expected == 0.4)
        #expect(sut.limit == 0.6000000000000001)
        #expect(sut.verdict == verdict)
    }

    @Test(arguments: [
        (measured: 1001.0, verdict: MetricComparison.Verdict.regressed),
        (measured: 1000.0, verdict: .held),
        (measured: 999.0, verdict: .improved),
    ])
    func exactCountsIgnoreMachineSpeed(measured: Double, verdict: MetricComparison.Verdict) {
        // Given an exact tolerance, whatever the machine's speed (a count is not scaled)
        let sut = MetricComparison(metric: "allocations", baseline: 1000, measured: measured, tolerance: .exact)

        // Then 1000 allowed, anything less improved
        #expect(sut.limit == 1000)
        #expect(sut.verdict == verdict)
    }

    @Test(arguments: [(measured: 1018.0, verdict: MetricComparison.Verdict.held), (1019, .regressed)])
    func relativeAndAbsoluteSlackAdd(measured: Double, verdict: MetricComparison.Verdict) {
        // Given 1 % and 8 more: 1000 × 1.01 + 8 = 1018 allowed
        let sut = MetricComparison(
            metric: "allocations", baseline: 1000, measured: measured, tolerance: MetricTolerance(relative: 0.01, absolute: 8)
        )

        // When / Then
        #expect(sut.verdict == verdict)
    }

    @Test func messageNamesMetricBaselineMeasuredAndAllowed() {
        // Given a count that doubled
        let sut = MetricComparison(metric: "allocations", baseline: 1200, measured: 2400, tolerance: MetricTolerance(relative: 0.01))

        // When / Then: allowed is 1200 × 1.01 = 1212
        #expect(sut.message(limitWord: "allowed at most", MetricUnit.count.format)
            == "allocations regressed: baseline 1200, measured 2400, allowed at most 1212")
    }

    @Test func timeMessageShowsTheMachineAdjustedExpectation() {
        // Given a 100 ms baseline on a machine 1.5 times slower, 25 % tolerance
        let sut = MetricComparison(
            metric: "wall clock", baseline: 0.1, expected: 0.1 * 1.5, measured: 0.3, tolerance: MetricTolerance(relative: 0.25)
        )

        // When / Then: expected 150 ms, allowed 187.5 ms
        #expect(
            sut.message(limitWord: "allowed at most", MetricUnit.seconds.format)
                == "wall clock regressed: baseline 100.0 ms (150.0 ms on this machine), measured 300.0 ms, allowed at most 187.5 ms"
        )
    }

    @Test func bytesMessageAddsMebibytes() {
        // Given 3 MiB against a 2 MiB baseline with no slack
        let sut = MetricComparison(metric: "peak RSS", baseline: 2_097_152, measured: 3_145_728, tolerance: .exact)

        // When / Then
        #expect(
            sut.message(limitWord: "allowed at most", MetricUnit.bytes.format)
                == "peak RSS regressed: baseline 2097152 B (2.0 MiB), measured 3145728 B (3.0 MiB), allowed at most 2097152 B (2.0 MiB)"
        )
    }

    @Test(arguments: [
        // 5e6/s expected, 20 % allowed: below 4e6 regressed; improved when 5e6 would regress from the
        // measurement: above 5e6 / 0.8 = 6.25e6.
        (measured: 3.9e6, verdict: MetricComparison.Verdict.regressed), (4.0e6, .held), (6.2e6, .held), (6.3e6, .improved),
    ])
    func higherIsBetter(measured: Double, verdict: MetricComparison.Verdict) {
        // Given a throughput
        let sut = MetricComparison(metric: "events_per_s", direction: .higherIsBetter, baseline: 5e6, measured: measured,
                                   tolerance: MetricTolerance(relative: 0.2))

        // Then the limit is below the expected value
        #expect(sut.limit == 4e6)
        #expect(sut.verdict == verdict)
    }

    @Test(arguments: [(measured: 100.0 as Double?, verdict: MetricComparison.Verdict.held), (101, .regressed), (99, .regressed), (nil, .notCompared)])
    func exactDirection(measured: Double?, verdict: MetricComparison.Verdict) {
        // Given a deterministic count
        let sut = MetricComparison(metric: "users", direction: .exact, baseline: 100, measured: measured, tolerance: .exact)

        // Then any change regressed, and no value is not compared
        #expect(sut.verdict == verdict)
    }

    @Test func negativeTolerancesAreRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = MetricTolerance(relative: -0.1)
        }
    }

    @Test(arguments: [
        (values: [3.0, 1, 2], median: 2.0 as Double?),
        ([4.0, 1, 3, 2], 2.5),
        ([7.0], 7),
        ([], nil),
    ])
    func medianOfOddAndEvenCounts(values: [Double], median expected: Double?) {
        #expect(median(values) == expected)
    }
}
