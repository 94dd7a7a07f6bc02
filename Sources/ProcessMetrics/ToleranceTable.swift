import Foundation

/// Gate tolerances as data: one JSON file (`Benchmarks/Gate/tolerances.json` for this repository's gates) of named
/// presets and, for each gate, each metric's tolerance, as a preset's name or written out:
///
/// ```json
/// { "schema": "simharness.tolerances/1",
///   "presets": { "counted": { "relative": 0.001, "absolute": 16 } },
///   "gates": { "xctest": { "allocations": "counted", "time": { "relative": 1.0 } } },
///   "churning": ["ServiceWorlds:TenWorlds"] }
/// ```
///
/// A metric name ending in `*` stands for every metric it begins (the longest such prefix wins over a shorter one;
/// an exact name wins over both). `churning` names the benchmark workloads that the time ratios judge with their
/// `cpu.churning` tolerance.
@_spi(Tooling) public struct ToleranceTable: Sendable, Equatable {
    /// The `schema` field this reader accepts.
    @_spi(Tooling) public static let schema = "simharness.tolerances/1"
    /// Named tolerances that the gates refer to.
    @_spi(Tooling) public var presets: [String: MetricTolerance]
    /// Each gate's tolerances by metric name (or prefix ending in `*`), presets resolved.
    @_spi(Tooling) public var gates: [String: [String: MetricTolerance]]
    /// The benchmark workloads whose time is judged as churning (allocation- and kernel-bound).
    @_spi(Tooling) public var churning: [String]
    /// Where the table was read from, for errors.
    @_spi(Tooling) public var source: String

    /// The table in the JSON `data`; `source` names it in errors.
    @_spi(Tooling) public init(json data: Data, source: String) throws(ToleranceTableError) {
        self.source = source
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw ToleranceTableError(source: source, field: "", reason: "not JSON (\(error.localizedDescription))")
        }
        guard let root = object as? [String: Any] else { throw ToleranceTableError(source: source, field: "", reason: "not a JSON object") }
        guard root["schema"] as? String == Self.schema else {
            throw ToleranceTableError(source: source, field: "schema", reason: "must be \"\(Self.schema)\"")
        }
        let unknown = Set(root.keys).subtracting(["schema", "presets", "gates", "churning"])
        guard unknown.isEmpty else { throw ToleranceTableError(source: source, field: unknown.sorted()[0], reason: "is not a field of the table") }
        presets = [:]
        // In name order, so that a table with several faults always names the same one first.
        for (name, value) in (root["presets"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            presets[name] = try Self.tolerance(value, source: source, field: "presets.\(name)")
        }
        gates = [:]
        guard let gateObjects = root["gates"] as? [String: Any] else { throw ToleranceTableError(source: source, field: "gates", reason: "is missing") }
        for (gate, metrics) in gateObjects.sorted(by: { $0.key < $1.key }) {
            guard let metrics = metrics as? [String: Any] else {
                throw ToleranceTableError(source: source, field: "gates.\(gate)", reason: "must map metric names to tolerances")
            }
            var resolved: [String: MetricTolerance] = [:]
            for (metric, value) in metrics.sorted(by: { $0.key < $1.key }) {
                let field = "gates.\(gate).\(metric)"
                if let preset = value as? String {
                    guard let tolerance = presets[preset] else { throw ToleranceTableError(source: source, field: field, reason: "names no preset '\(preset)'") }
                    resolved[metric] = tolerance
                } else {
                    resolved[metric] = try Self.tolerance(value, source: source, field: field)
                }
            }
            gates[gate] = resolved
        }
        guard let churning = root["churning"] as? [String] ?? (root["churning"] == nil ? [] : nil) else {
            throw ToleranceTableError(source: source, field: "churning", reason: "must be a list of workload names")
        }
        self.churning = churning
    }

    /// The table in the file at `path`.
    @_spi(Tooling) public static func load(_ path: String) throws(ToleranceTableError) -> ToleranceTable {
        guard let data = FileManager.default.contents(atPath: path) else { throw ToleranceTableError(source: path, field: "", reason: "cannot be read") }
        return try ToleranceTable(json: data, source: path)
    }

    /// The tolerance of `metric` in `gate`: its own entry, else the longest `prefix*` entry that it begins with.
    @_spi(Tooling) public func tolerance(_ gate: String, _ metric: String) -> MetricTolerance? {
        guard let metrics = gates[gate] else { return nil }
        if let exact = metrics[metric] { return exact }
        let prefixes = metrics.keys.filter { $0.hasSuffix("*") && metric.hasPrefix($0.dropLast()) }
        return prefixes.max { $0.count < $1.count }.flatMap { metrics[$0] }
    }

    /// The tolerance of `metric` in `gate`, or an error naming what the table lacks.
    @_spi(Tooling) public func required(_ gate: String, _ metric: String) throws(ToleranceTableError) -> MetricTolerance {
        guard let tolerance = tolerance(gate, metric) else {
            throw ToleranceTableError(source: source, field: "gates.\(gate).\(metric)", reason: "is missing")
        }
        return tolerance
    }

    private static func tolerance(_ value: Any, source: String, field: String) throws(ToleranceTableError) -> MetricTolerance {
        // One or both parts, each a number; a missing part is 0.
        let parts = (value as? [String: Any]).map { object in object.mapValues { ($0 as? NSNumber)?.doubleValue } }
        guard let parts, !parts.isEmpty, Set(parts.keys).isSubset(of: ["relative", "absolute"]), !parts.values.contains(nil) else {
            throw ToleranceTableError(source: source, field: field, reason: "must be a preset's name or {\"relative\": R, \"absolute\": A}")
        }
        let relative = parts["relative"]?.flatMap { $0 } ?? 0, absolute = parts["absolute"]?.flatMap { $0 } ?? 0
        guard relative >= 0, absolute >= 0, relative.isFinite, absolute.isFinite else {
            throw ToleranceTableError(source: source, field: field, reason: "tolerances are never negative")
        }
        return MetricTolerance(relative: relative, absolute: absolute)
    }
}

/// A tolerance table that cannot be used: where, which field, and why.
@_spi(Tooling) public struct ToleranceTableError: Error, Equatable, CustomStringConvertible {
    /// The file (or text) read.
    @_spi(Tooling) public var source: String
    /// The field, as a dotted path (`gates.xctest.time`); empty for the whole file.
    @_spi(Tooling) public var field: String
    /// Why.
    @_spi(Tooling) public var reason: String

    /// An error about `field` of `source`.
    @_spi(Tooling) public init(source: String, field: String, reason: String) {
        (self.source, self.field, self.reason) = (source, field, reason)
    }

    @_spi(Tooling) public var description: String { field.isEmpty ? "\(source): \(reason)" : "\(source): \(field) \(reason)" }
}
