import Foundation
@_spi(Tooling) import ProcessMetrics

/// The committed baseline of one performance test: `Baselines/<Class>.<test>.json`.
struct PerformanceBaseline: Codable, Equatable {
    static let schemaVersion = 1

    var schemaVersion = Self.schemaVersion
    /// `<Class>.<test>`.
    var test: String
    /// Events in one iteration of the workload; a different count means the workload changed.
    var events: Int
    var machine: MachineDescription
    var calibration: Calibration
    var metrics: MeasuredMetrics
    /// For readers: the median wall clock per event.
    var nanosecondsPerEvent: Double

    /// The directory of the committed baselines, next to this file in the source tree.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Baselines")

    static func url(for test: String) -> URL {
        directory.appendingPathComponent("\(test).json")
    }

    /// The committed baseline of `test`, `nil` when there is none.
    static func load(test: String) throws -> PerformanceBaseline? {
        let url = url(for: test)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(PerformanceBaseline.self, from: Data(contentsOf: url))
    }

    /// Writes the baseline, sorted and pretty-printed so that a change reads well in a diff.
    func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        var data = try encoder.encode(self)
        data.append(0x0A)
        try data.write(to: Self.url(for: test), options: .atomic)
    }
}

/// The medians over the iterations of one run (peak memory: the high-water mark of the whole run);
/// times in seconds on a machine with the calibration they are stored with.
struct MeasuredMetrics: Codable, Equatable {
    var wallClockSeconds: Double
    var cpuSeconds: Double
    /// `nil` when the build's allocation backend cannot count.
    var allocations: Int?
    var allocatedBytes: Int?
    var peakResidentBytes: Int?
    /// The heap's high-water mark of live bytes during one more run of an iteration (`HeapHighWater`):
    /// the workload's input and what the algorithm holds at its peak. `nil` when the backend cannot tell.
    var peakHeapBytes: Int? = nil
}

extension MeasuredMetrics {
    /// One line for the test log.
    func summary(events: Int) -> String {
        let perEvent = wallClockSeconds * 1e9 / Double(max(events, 1))
        let count = allocations.map(String.init) ?? "?"
        let mib = peakResidentBytes.map { String(Int(Double($0) / 1_048_576)) } ?? "?"
        return "\(events) events, wall \(Int(wallClockSeconds * 1000)) ms (\(Int(perEvent.rounded())) ns/event), "
            + "CPU \(Int(cpuSeconds * 1000)) ms, \(count) allocations, \(allocatedBytes.map(String.init) ?? "?") bytes allocated, "
            + "peak RSS \(mib) MiB, peak heap \(peakHeapBytes.map(String.init) ?? "?") bytes"
    }
}
