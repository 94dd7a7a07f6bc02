@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
import Testing

/// `baseline check` across runners: a baseline recorded on one machine and checked on a slower or busier
/// one passes when nothing changed, and a real regression still fails (issue 48 §3).
@Suite("Baseline checks across runners")
struct BaselinePortabilityTests {
    /// A measurement of one run's figures on a machine of `speed` (1: the recording machine), its
    /// wall-clock times `busy` times longer than the speed alone explains (a runner shared with other jobs).
    struct MeasurementBuilder {
        var speed = 1.0
        var busy = 1.0
        var cpuSeconds = 2.0
        var allocations = 1_000.0
        var peakRSS = 200.0

        func build() -> BaselineMeasurement {
            let slowdown = 1 / speed
            return BaselineMeasurement(
                scenario: "smoke", seed: 42, users: 1_000, days: 7, load: "fixed", tasks: 2, repetitions: 3,
                machine: MachineDescription(
                    processor: "AMD EPYC", logicalCores: 2, memoryBytes: 1 << 34, operatingSystem: "Linux 6.1.0", architecture: "x86_64",
                    allocator: .mallocInterposer
                ),
                calibration: Calibration(score: 100 * speed, cpuScore: 300 * speed),
                metrics: [
                    "duration_s": (.time, 4 * slowdown * busy),
                    "total.p99_event_latency_ns": (.time, 900 * slowdown * busy),
                    "total.events_per_s": (.throughput, 1e6 / slowdown / busy),
                    "cpu_user_s": (.cpuTime, cpuSeconds * slowdown),
                    "allocations": (.allocations, allocations),
                    "peak_rss_mb": (.memory, peakRSS),
                    "payments.events": (.exact, 5_000),
                ],
                outputDigest: "abc"
            )
        }
    }

    @Test("recorded on one machine, checked unchanged on one 2× (or 3×) slower and busy besides: passes by default", arguments: [
        (0.5, 1.0), (0.5, 1.6), (1.0 / 3, 2.0), (2.0, 1.0),
    ] as [(Double, Double)])
    func slowerRunnerPasses(speed: Double, busy: Double) {
        // Given a baseline from the recording machine and an unchanged build's figures on another runner
        let baseline = MeasurementBuilder().build()
        let current = MeasurementBuilder(speed: speed, busy: busy).build()

        // When it is checked with the default gate
        let sut = BaselineReport(baseline: baseline, current: current)

        // Then nothing fails, and what the busy runner slowed beyond its calibration is shown, not gated
        #expect(sut.gate == .portable)
        #expect(sut.passed)
        #expect(sut.regressions.isEmpty)
        #expect(sut.ungatedRegressions.allSatisfy { !$0.metric.hasPrefix("cpu") })
    }

    @Test("a busy runner's wall-clock times fail only under --gate all")
    func wallClockGatedOnlyWhenAsked() throws {
        // Given wall-clock times 1.6× longer than the calibration explains
        let baseline = MeasurementBuilder().build()
        let current = MeasurementBuilder(speed: 0.5, busy: 1.6).build()

        // When it is checked under both gates
        let portable = BaselineReport(baseline: baseline, current: current, gate: .portable)
        let all = BaselineReport(baseline: baseline, current: current, gate: .all)

        // Then the same comparisons regress, but only `all` fails on them
        #expect(portable.passed)
        #expect(!portable.ungatedRegressions.isEmpty)
        #expect(!all.passed)
        #expect(all.regressions.map(\.metric) == portable.ungatedRegressions.map(\.metric))
        let text = Summary.render(portable, scenario: "smoke", baseline: baseline, current: current, style: TextStyle(enabled: false))
        #expect(text.contains("not gated"))
        #expect(text.contains("no regression"))
    }

    @Test("on a 2× slower runner the portable gate still catches what regressed", arguments: [
        (MeasurementBuilder(speed: 0.5, cpuSeconds: 3.0), "cpu_user_s"),  // +50 % CPU time after scaling
        (MeasurementBuilder(speed: 0.5, allocations: 1_200), "allocations"),
        (MeasurementBuilder(speed: 0.5, peakRSS: 260), "peak_rss_mb"),
    ])
    func portableGateBites(current: MeasurementBuilder, metric: String) {
        // Given a baseline and a slower runner's figures with one real regression
        let baseline = MeasurementBuilder().build()

        // When it is checked with the default gate
        let sut = BaselineReport(baseline: baseline, current: current.build())

        // Then the check fails on that metric
        #expect(!sut.passed)
        #expect(sut.regressions.map(\.metric) == [metric])
    }
}
