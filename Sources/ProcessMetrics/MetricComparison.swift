/// The unit of a metric, for messages.
public enum MetricUnit: String, Hashable, Sendable, Codable {
    case seconds, count, bytes
}

/// How far a metric may grow over its baseline before it counts as a regression:
/// `allowed = expected × (1 + relative) + absolute`, where `expected` is the baseline, multiplied by
/// the calibration slowdown for metrics that scale with machine speed (times).
public struct MetricTolerance: Hashable, Sendable, Codable {
    /// Allowed growth as a fraction of the expected value (0.5: up to 50 % more).
    public var relative: Double
    /// Allowed growth in the metric's unit, on top of the relative part.
    public var absolute: Double
    /// Whether the baseline is multiplied by the machine's slowdown before comparing.
    public var scalesWithMachineSpeed: Bool

    public init(relative: Double, absolute: Double = 0, scalesWithMachineSpeed: Bool = false) {
        precondition(relative >= 0 && absolute >= 0, "tolerances are never negative")
        self.relative = relative
        self.absolute = absolute
        self.scalesWithMachineSpeed = scalesWithMachineSpeed
    }

    /// A time: relative slack, scaled by machine speed.
    public static func time(relative: Double) -> MetricTolerance {
        MetricTolerance(relative: relative, scalesWithMachineSpeed: true)
    }

    /// A deterministic metric that must not grow at all.
    public static let exact = MetricTolerance(relative: 0)
}

/// One metric of a measurement set against its baseline.
public struct MetricComparison: Hashable, Sendable {
    public enum Verdict: String, Hashable, Sendable {
        /// Within tolerance.
        case held
        /// So much better that the expected value would be a regression from it: worth recording.
        case improved
        /// Worse than allowed.
        case regressed
    }

    public var metric: String
    public var unit: MetricUnit
    public var baseline: Double
    /// The baseline adjusted for machine speed (equal to `baseline` for metrics that do not scale).
    public var expected: Double
    public var measured: Double
    /// The largest value that still holds.
    public var allowed: Double
    public var verdict: Verdict

    /// Compares `measured` with `baseline`; `slowdown` is `Calibration.slowdown(comparedWith:)`.
    public init(
        metric: String, unit: MetricUnit, baseline: Double, measured: Double, tolerance: MetricTolerance,
        slowdown: Double = 1
    ) {
        let expected = tolerance.scalesWithMachineSpeed ? baseline * slowdown : baseline
        let allowed = expected * (1 + tolerance.relative) + tolerance.absolute
        self.metric = metric
        self.unit = unit
        self.baseline = baseline
        self.expected = expected
        self.measured = measured
        self.allowed = allowed
        if measured > allowed {
            verdict = .regressed
        } else if expected > measured * (1 + tolerance.relative) + tolerance.absolute {
            verdict = .improved
        } else {
            verdict = .held
        }
    }

    /// One line naming the metric, baseline, measured and allowed values, e.g.
    /// `allocations regressed: baseline 1200, measured 2400, allowed at most 1212`.
    public var message: String {
        var text = "\(metric) \(verdict.rawValue): baseline \(format(baseline))"
        if expected != baseline { text += " (\(format(expected)) on this machine)" }
        text += ", measured \(format(measured)), allowed at most \(format(allowed))"
        return text
    }

    private func format(_ value: Double) -> String {
        switch unit {
        case .seconds: return "\(rounded(value * 1000, places: 3)) ms"
        case .count: return "\(Int(value.rounded()))"
        case .bytes: return "\(Int(value.rounded())) B (\(rounded(value / 1_048_576, places: 2)) MiB)"
        }
    }

    private func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

/// The median of `values` (the mean of the middle two for an even count), `nil` when empty.
public func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
