import Foundation
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) @testable import RunResults
@_spi(Tooling) import Scenarios
import Testing
import TestSupport

@Suite("Baseline comparison")
struct BaselineTests {
    private static func compare(_ kind: BaselineKind, baseline: Double, measured: Double?, relative: Double, absolute: Double = 0, slowdown: Double = 1) -> MetricComparison {
        MetricComparison(
            metric: "m", kind: kind, baseline: baseline, measured: measured, tolerance: MetricTolerance(relative: relative, absolute: absolute),
            slowdown: slowdown, cpuSlowdown: slowdown
        )
    }

    @Test("times are scaled by the calibration ratio before the tolerance applies", arguments: [
        // baseline 1 s on a machine twice as fast: expected 2 s, limit 2 × 1.25 + 0.01 = 2.51 s
        (2.4, MetricComparison.Verdict.held), (2.6, .regressed), (1.4, .improved), (2.51, .held),
    ])
    func times(measured: Double, verdict: MetricComparison.Verdict) {
        let sut = Self.compare(.time, baseline: 1, measured: measured, relative: 0.25, absolute: 0.01, slowdown: 2)
        #expect(sut.expected == 2)
        #expect(sut.limit == 2.51)
        #expect(sut.verdict == verdict)
    }

    @Test("throughput is higher-is-better and scaled the other way", arguments: [
        // baseline 10 M/s on a machine twice as fast: expected 5 M/s, limit 4 M/s
        (3.9e6, MetricComparison.Verdict.regressed), (4.5e6, .held), (6.3e6, .improved),
    ])
    func throughput(measured: Double, verdict: MetricComparison.Verdict) {
        let sut = Self.compare(.throughput, baseline: 10e6, measured: measured, relative: 0.2, slowdown: 2)
        #expect(sut.expected == 5e6)
        #expect(sut.limit == 4e6)
        #expect(sut.verdict == verdict)
    }

    @Test("memory is not scaled by machine speed")
    func memory() {
        let sut = Self.compare(.memory, baseline: 100, measured: 111, relative: 0.1, absolute: 2, slowdown: 3)
        #expect(sut.expected == 100)
        #expect(sut.limit == 112)
        #expect(sut.verdict == .held)
    }

    @Test("deterministic counts must not change; fewer allocations is an improvement, more a regression", arguments: [
        (BaselineKind.exact, 100.0, MetricComparison.Verdict.held), (.exact, 101, .regressed), (.exact, 99, .regressed),
        (.allocations, 1000, .held), (.allocations, 900, .improved), (.allocations, 1001, .regressed),
    ])
    func exact(kind: BaselineKind, measured: Double, verdict: MetricComparison.Verdict) {
        let baseline = kind == .exact ? 100.0 : 1000
        #expect(Self.compare(kind, baseline: baseline, measured: measured, relative: 0, slowdown: 2).verdict == verdict)
    }

    @Test("a metric without a value now is not compared")
    func notCompared() {
        #expect(Self.compare(.allocations, baseline: 1000, measured: nil, relative: 0).verdict == .notCompared)
    }

    private static let machine = MachineDescription(
        processor: "test", logicalCores: 2, memoryBytes: 1 << 34, operatingSystem: "Linux 6", architecture: "x86_64", allocator: .libc
    )

    private static func measurement(score: Double, metrics: [String: (BaselineKind, Double)], digest: String = "00000000000000aa") -> BaselineMeasurement {
        BaselineMeasurement(
            scenario: "smoke", seed: 1, users: 10, days: 2, load: "fixed", tasks: 2, repetitions: 3, machine: machine,
            calibration: Calibration(score: score, cpuScore: score), metrics: metrics.mapValues { (kind: $0.0, value: $0.1) }, outputDigest: digest
        )
    }

    @Test("improvements are reported, never failures")
    func improvementsPass() {
        // Given a baseline, and a run on a machine of the same speed that is faster and allocates less
        let baseline = Self.measurement(score: 100, metrics: ["duration_s": (.time, 2), "allocations": (.allocations, 500), "users": (.exact, 10)])
        let current = Self.measurement(score: 100, metrics: ["duration_s": (.time, 1), "allocations": (.allocations, 400), "users": (.exact, 10)])
        // When they are compared
        let sut = BaselineReport(baseline: baseline, current: current)
        // Then two metrics improved, and the check passes
        #expect(sut.improvements.map(\.metric) == ["allocations", "duration_s"])
        #expect(sut.regressions.isEmpty)
        #expect(sut.passed)
    }

    @Test("a slower machine is allowed proportionally more time")
    func calibrationNormalization() {
        // Given 2 s recorded on a machine scoring 200, and 3.5 s measured on one scoring 100 (twice as slow)
        let baseline = Self.measurement(score: 200, metrics: ["duration_s": (.time, 2)])
        let current = Self.measurement(score: 100, metrics: ["duration_s": (.time, 3.5)])
        // When compared: expected 4 s, limit 4 × 1.25 + 0.01 = 5.01 s, so 3.5 s holds (it would
        // regress against the raw 2 s)
        let sut = BaselineReport(baseline: baseline, current: current)
        #expect(sut.slowdown == 2)
        #expect(sut.comparisons.first?.verdict == .held)
        #expect(sut.passed)
    }

    @Test("a regression (a rate under --gate all), a changed count or changed outputs fail the check")
    func failures() {
        let baseline = Self.measurement(score: 100, metrics: ["total.events_per_s": (.throughput, 10e6), "meals.events": (.exact, 500)])
        let slower = Self.measurement(score: 100, metrics: ["total.events_per_s": (.throughput, 7e6), "meals.events": (.exact, 500)])
        let changed = Self.measurement(score: 100, metrics: ["total.events_per_s": (.throughput, 10e6), "meals.events": (.exact, 501)])
        let otherOutputs = Self.measurement(score: 100, metrics: ["total.events_per_s": (.throughput, 10e6), "meals.events": (.exact, 500)], digest: "00000000000000bb")
        #expect(BaselineReport(baseline: baseline, current: slower, gate: .all).regressions.map(\.metric) == ["total.events_per_s"])
        #expect(BaselineReport(baseline: baseline, current: slower).ungatedRegressions.map(\.metric) == ["total.events_per_s"])
        #expect(BaselineReport(baseline: baseline, current: changed).regressions.map(\.metric) == ["meals.events"])
        #expect(BaselineReport(baseline: baseline, current: otherOutputs).sameOutputs == false)
        #expect(!BaselineReport(baseline: baseline, current: otherOutputs).passed)
    }

    @Test("relative tolerances are overridden by exact name first, then by the longest prefix ending in *; the absolute part stays")
    func toleranceOverrides() {
        let overrides = ["total.*": 0.5, "total.events_per_s": 0.05, "*": 0.9]
        #expect(BaselineReport.tolerance(for: "total.events_per_s", kind: .throughput, overrides: overrides).relative == 0.05)
        #expect(BaselineReport.tolerance(for: "total.p99_batch_latency_ms", kind: .time, overrides: overrides) == MetricTolerance(relative: 0.5, absolute: 0.05))
        #expect(BaselineReport.tolerance(for: "meals.events_per_s", kind: .throughput, overrides: overrides).relative == 0.9)
        #expect(BaselineReport.tolerance(for: "meals.events_per_s", kind: .throughput, overrides: [:]).relative == 0.2)
    }

    @Test("a tolerance table's baseline gate replaces a metric's whole default; --tolerance still overrides its relative part")
    func toleranceTable() throws {
        // Given
        let table = try ToleranceTable(json: Data(#"""
            { "schema": "simharness.tolerances/1", "presets": { "tight": { "relative": 0.01, "absolute": 1 } },
              "gates": { "baseline": { "total.*": "tight" } } }
            """#.utf8), source: "t.json")

        // When / Then
        #expect(BaselineReport.tolerance(for: "total.events_per_s", kind: .throughput, table: table, overrides: [:]) == MetricTolerance(relative: 0.01, absolute: 1))
        #expect(BaselineReport.tolerance(for: "total.events_per_s", kind: .throughput, table: table, overrides: ["total.*": 0.3])
            == MetricTolerance(relative: 0.3, absolute: 1))
        #expect(BaselineReport.tolerance(for: "meals.events_per_s", kind: .throughput, table: table, overrides: [:]) == MetricTolerance(relative: 0.2))
        let baseline = Self.measurement(score: 100, metrics: ["total.events_per_s": (.throughput, 10e6)])
        let slower = Self.measurement(score: 100, metrics: ["total.events_per_s": (.throughput, 9.5e6)])
        #expect(BaselineReport(baseline: baseline, current: slower, gate: .all).passed)
        #expect(!BaselineReport(baseline: baseline, current: slower, table: table, gate: .all).passed)
    }

    @Test("a baseline survives its file format; another schema is refused")
    func file() throws {
        let sut = Self.measurement(score: 123.5, metrics: ["duration_s": (.time, 1.25), "users": (.exact, 10)])
        #expect(try BaselineJSON.decode(try BaselineJSON.encode(sut)) == sut)
        let error = #expect(throws: BaselineError.self) { try BaselineJSON.decode(Data(#"{"schema": "simharness-run"}"#.utf8)) }
        #expect(error?.message.hasPrefix("not a valid baseline file: ") == true)
    }
}
