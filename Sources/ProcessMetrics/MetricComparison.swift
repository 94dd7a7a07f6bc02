/// The unit of a metric, for messages.
@_spi(Tooling) public enum MetricUnit: String, Hashable, Sendable, Codable {
    case seconds, count, bytes

    /// `value` in this unit for people: `12.5 ms`, `1200`, `3145728 B (3.0 MiB)`.
    @_spi(Tooling) public func format(_ value: Double) -> String {
        switch self {
        case .seconds: "\(Self.rounded(value * 1000, places: 3)) ms"
        case .count: "\(Int(value.rounded()))"
        case .bytes: "\(Int(value.rounded())) B (\(Self.rounded(value / 1_048_576, places: 2)) MiB)"
        }
    }

    private static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

/// Which way a metric gets better.
@_spi(Tooling) public enum MetricDirection: String, Hashable, Sendable, Codable {
    /// Times, memory, allocations.
    case lowerIsBetter
    /// Throughput.
    case higherIsBetter
    /// Deterministic figures (counts, digests): any change is a regression.
    case exact
}

/// How far a metric may move past its expected value before it counts as a regression: a
/// `relative` share of the expected value plus `absolute` units of the metric.
@_spi(Tooling) public struct MetricTolerance: Hashable, Sendable, Codable {
    /// Allowed change as a fraction of the expected value (0.5: up to 50 % worse).
    @_spi(Tooling) public var relative: Double
    /// Allowed change in the metric's unit, on top of the relative part.
    @_spi(Tooling) public var absolute: Double

    /// A tolerance; both parts are never negative.
    @_spi(Tooling) public init(relative: Double, absolute: Double = 0) {
        precondition(relative >= 0 && absolute >= 0, "tolerances are never negative")
        self.relative = relative
        self.absolute = absolute
    }

    /// No change allowed.
    @_spi(Tooling) public static let exact = MetricTolerance(relative: 0)
}

/// One metric measured again and set against its baseline: the one comparison of the project,
/// used by `simharness baseline check` and by the XCTest performance baselines.
///
/// The limit is `expected × (1 + relative) + absolute` for a lower-is-better metric and
/// `expected × (1 − relative) − absolute` for a higher-is-better one; a value past it regressed.
/// A value so much better that the expected value would count as a regression from it
/// (the same rule, the other way round) improved; improvements are reported, never failures.
@_spi(Tooling) public struct MetricComparison: Hashable, Sendable {
    /// The outcome.
    @_spi(Tooling) public enum Verdict: String, Hashable, Sendable {
        /// Within tolerance.
        case held
        /// So much better that the expected value would be a regression from it: worth recording.
        case improved
        /// Worse than allowed.
        case regressed
        /// No value now (e.g. allocations are not counted by this build): not compared.
        case notCompared = "not compared"
    }

    /// The metric's name.
    @_spi(Tooling) public var metric: String
    /// Which way it gets better.
    package var direction: MetricDirection
    /// The recorded value.
    @_spi(Tooling) public var baseline: Double
    /// The baseline adjusted to this machine (equal to `baseline` for what does not scale).
    package var expected: Double
    /// The value now, nil when there is none.
    @_spi(Tooling) public var measured: Double?
    /// The worst value that still holds.
    package var limit: Double
    /// The outcome.
    @_spi(Tooling) public var verdict: Verdict

    /// Compares `measured` with `expected` (the baseline adjusted to this machine, by default the
    /// baseline itself).
    @_spi(Tooling) public init(
        metric: String, direction: MetricDirection = .lowerIsBetter, baseline: Double, expected: Double? = nil, measured: Double?,
        tolerance: MetricTolerance
    ) {
        let expected = expected ?? baseline
        self.metric = metric
        self.direction = direction
        self.baseline = baseline
        self.expected = expected
        self.measured = measured
        limit = Self.limit(expected, direction, tolerance)
        guard let measured else {
            verdict = .notCompared
            return
        }
        switch direction {
        case .exact:
            verdict = measured == expected ? .held : .regressed
        case .lowerIsBetter:
            verdict = measured > limit ? .regressed : expected > Self.limit(measured, direction, tolerance) ? .improved : .held
        case .higherIsBetter:
            verdict = measured < limit ? .regressed : expected < Self.limit(measured, direction, tolerance) ? .improved : .held
        }
    }

    /// The worst value that holds against `expected`.
    private static func limit(_ expected: Double, _ direction: MetricDirection, _ tolerance: MetricTolerance) -> Double {
        switch direction {
        case .exact: expected
        case .lowerIsBetter: expected + (expected * tolerance.relative + tolerance.absolute)
        case .higherIsBetter: expected - (expected * tolerance.relative + tolerance.absolute)
        }
    }

    /// One line naming the metric, verdict, baseline, measured and limit, each value spelled by
    /// `format`, e.g. `allocations regressed: baseline 1200, measured 2400, limit 1212`.
    @_spi(Tooling) public func message(limitWord: String = "limit", _ format: (Double) -> String) -> String {
        var text = "\(metric) \(verdict.rawValue): baseline \(format(baseline))"
        if expected != baseline { text += " (\(format(expected)) on this machine)" }
        text += ", measured " + (measured.map(format) ?? "nothing")
        if direction != .exact { text += ", \(limitWord) \(format(limit))" }
        return text
    }
}

/// The median of `values` (the mean of the middle two for an even count), `nil` when empty.
@_spi(Tooling) public func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
