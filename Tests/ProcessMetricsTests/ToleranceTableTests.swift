import Foundation
import Testing
@_spi(Tooling) import ProcessMetrics

/// A table's JSON, built up field by field.
struct ToleranceTableJSON {
    var presets = #"{ "counted": { "relative": 0.001, "absolute": 16 }, "loose": { "relative": 1 }, "framework": { "absolute": 16 } }"#
    var gates = #"{ "xctest": { "allocations": "counted", "time": { "relative": 0.5 }, "total.*": "loose", "total.p99*": { "relative": 2 } } }"#
    var churning = #"["ServiceWorlds:TenWorlds"]"#
    var extra = ""

    func with(_ change: (inout ToleranceTableJSON) -> Void) -> ToleranceTableJSON {
        var copy = self
        change(&copy)
        return copy
    }

    var data: Data {
        Data(#"{ "schema": "simharness.tolerances/1", "presets": \#(presets), "gates": \#(gates), "churning": \#(churning)\#(extra) }"#.utf8)
    }
}

@Suite struct ToleranceTableTests {
    @Test func presetsResolveAndInlineTolerancesRead() throws {
        // Given / When
        let sut = try ToleranceTable(json: ToleranceTableJSON().data, source: "t.json")

        // Then
        #expect(sut.tolerance("xctest", "allocations") == MetricTolerance(relative: 0.001, absolute: 16))
        #expect(sut.tolerance("xctest", "time") == MetricTolerance(relative: 0.5))
        #expect(sut.presets["framework"] == MetricTolerance(relative: 0, absolute: 16))
        #expect(sut.churning == ["ServiceWorlds:TenWorlds"])
    }

    @Test(arguments: [
        ("total.events", MetricTolerance(relative: 1)),
        ("total.p99_latency", MetricTolerance(relative: 2)),
        ("total.p9", MetricTolerance(relative: 1)),
    ])
    func theLongestPrefixWins(metric: String, expected: MetricTolerance) throws {
        // Given
        let sut = try ToleranceTable(json: ToleranceTableJSON().data, source: "t.json")

        // When / Then
        #expect(sut.tolerance("xctest", metric) == expected)
    }

    @Test func aMissingMetricOrGateIsAnError() throws {
        // Given
        let sut = try ToleranceTable(json: ToleranceTableJSON().data, source: "t.json")

        // When
        let error = #expect(throws: ToleranceTableError.self) { try sut.required("xctest", "peakHeap") }

        // Then
        #expect(error?.description == "t.json: gates.xctest.peakHeap is missing")
        #expect(sut.tolerance("instructions", "fasting") == nil)
    }

    @Test(arguments: [
        (ToleranceTableJSON().with { $0.gates = #"{ "xctest": { "time": "tight" } }"# }, "gates.xctest.time", "names no preset 'tight'"),
        (ToleranceTableJSON().with { $0.presets = #"{ "bad": { "relative": -0.1 } }"# }, "presets.bad", "tolerances are never negative"),
        (ToleranceTableJSON().with { $0.presets = #"{ "bad": { "relativ": 0.1 } }"# }, "presets.bad", "must be a preset's name or {\"relative\": R, \"absolute\": A}"),
        (ToleranceTableJSON().with { $0.presets = #"{ "bad": { "relative": "1 %" } }"# }, "presets.bad", "must be a preset's name or {\"relative\": R, \"absolute\": A}"),
        (ToleranceTableJSON().with { $0.presets = #"{ "bad": {} }"# }, "presets.bad", "must be a preset's name or {\"relative\": R, \"absolute\": A}"),
        (ToleranceTableJSON().with { $0.gates = #"{ "xctest": 3 }"# }, "gates.xctest", "must map metric names to tolerances"),
        (ToleranceTableJSON().with { $0.churning = #""TenWorlds""# }, "churning", "must be a list of workload names"),
        (ToleranceTableJSON().with { $0.extra = #", "tolerance": 1"# }, "tolerance", "is not a field of the table"),
    ])
    func aBadTableNamesItsFieldAndWhy(json: ToleranceTableJSON, field: String, reason: String) {
        // When
        let error = #expect(throws: ToleranceTableError.self) { try ToleranceTable(json: json.data, source: "t.json") }

        // Then
        #expect(error == ToleranceTableError(source: "t.json", field: field, reason: reason))
    }

    @Test func aFileThatIsNotATableIsRefused() {
        // When
        let notJSON = #expect(throws: ToleranceTableError.self) { try ToleranceTable(json: Data("{".utf8), source: "t.json") }
        let wrongSchema = #expect(throws: ToleranceTableError.self) {
            try ToleranceTable(json: Data(#"{ "schema": "simharness.tolerances/2", "gates": {} }"#.utf8), source: "t.json")
        }
        let unreadable = #expect(throws: ToleranceTableError.self) { try ToleranceTable.load("/nonexistent/tolerances.json") }

        // Then
        #expect(notJSON?.field == "")
        #expect(wrongSchema?.field == "schema")
        #expect(unreadable?.description == "/nonexistent/tolerances.json: cannot be read")
    }

    /// The repository's own table: every gate that reads it finds what it needs.
    @Test func theRepositoryTableHasEveryGatesTolerances() throws {
        // Given
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Benchmarks/Gate/tolerances.json").path

        // When
        let sut = try ToleranceTable.load(path)

        // Then
        for metric in ["time", "allocations", "allocatedBytes", "peakResident", "peakHeap"] { _ = try sut.required("xctest", metric) }
        for metric in ["cpu", "cpu.churning", "wall"] { _ = try sut.required("time-ratios", metric) }
        for workload in ["fasting", "steps", "payments", "generation", "pipeline"] { _ = try sut.required("instructions", workload) }
        #expect(try sut.required("instructions", "fasting").relative < 0.05, "the instruction gate's bites plant +5 %")
        #expect(!sut.churning.isEmpty)
    }
}
