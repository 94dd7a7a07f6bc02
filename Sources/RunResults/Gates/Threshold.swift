@_spi(Tooling) import Scenarios

/// A pass/fail rule on one metric of a run, written like k6's thresholds:
/// `payments.p99_latency_ms < 250`, `total.events_per_s > 5e6`, `invariant_violations == 0`.
@_spi(Tooling) public struct Threshold: Sendable, Equatable {
    /// How the metric is compared with the value.
    @_spi(Tooling) public enum Comparison: String, Sendable, CaseIterable {
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case greater = ">"

        func holds(_ lhs: Double, _ rhs: Double) -> Bool {
            switch self {
            case .less: lhs < rhs
            case .lessOrEqual: lhs <= rhs
            case .greater: lhs > rhs
            case .greaterOrEqual: lhs >= rhs
            case .equal: lhs == rhs
            case .notEqual: lhs != rhs
            }
        }
    }

    /// The metric's name (`MetricCatalog`).
    @_spi(Tooling) public var metric: String
    /// The comparison.
    @_spi(Tooling) public var comparison: Comparison
    /// The value the metric is compared with.
    @_spi(Tooling) public var value: Double
    /// Stop the run as soon as the rule fails (checked while it runs).
    @_spi(Tooling) public var abortOnFail: Bool
    /// The rule as written.
    @_spi(Tooling) public var text: String

    /// A rule of all its parts.
    @_spi(Tooling) public init(metric: String, comparison: Comparison, value: Double, abortOnFail: Bool = false) {
        self.metric = metric
        self.comparison = comparison
        self.value = value
        self.abortOnFail = abortOnFail
        text = "\(metric) \(comparison.rawValue) \(value.compactText)"
    }

    /// Whether `measured` satisfies the rule; a metric without a value fails it.
    @_spi(Tooling) public func holds(for measured: Double?) -> Bool {
        guard let measured else { return false }
        return comparison.holds(measured, value)
    }
}

/// Why a threshold expression cannot be used.
package struct ThresholdSyntaxError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong with the rule.
    package var message: String
    /// The message.
    package var description: String { message }
}

/// Parses `metric <op> number`, `<op>` one of `<`, `<=`, `>`, `>=`, `==`, `!=`.
package enum ThresholdParser {
    /// Reads `metric <op> number`; throws naming what is wrong (an unknown metric with the closest known one).
    package static func parse(_ text: String, abortOnFail: Bool = false) throws(ThresholdSyntaxError) -> Threshold {
        let expression = text.trimmingWhitespace
        guard !expression.isEmpty else { throw ThresholdSyntaxError(message: "empty threshold") }
        guard let (operatorRange, comparison) = findOperator(in: expression) else {
            throw malformed(text, "expected 'metric <op> number' with <op> one of <, <=, >, >=, ==, !=")
        }
        let metric = String(expression[..<operatorRange.lowerBound]).trimmingWhitespace
        let number = String(expression[operatorRange.upperBound...]).trimmingWhitespace
        guard !metric.isEmpty else { throw malformed(text, "a metric name must come before '\(comparison.rawValue)'") }
        guard metric.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else {
            throw malformed(text, "'\(metric)' is not a metric name (letters, digits, '_' and '.')")
        }
        guard !number.isEmpty else { throw malformed(text, "expected a number after '\(comparison.rawValue)'") }
        guard let value = Double(number.filter { $0 != "_" }), value.isFinite, number.first != "_" else {
            throw malformed(text, "'\(number)' is not a number")
        }
        guard MetricCatalog.isKnown(metric) else {
            let hint = MetricCatalog.suggestion(for: metric).map { " (did you mean '\($0)'?)" } ?? ""
            throw ThresholdSyntaxError(message: "unknown metric '\(metric)'\(hint)")
        }
        var threshold = Threshold(metric: metric, comparison: comparison, value: value, abortOnFail: abortOnFail)
        threshold.text = "\(metric) \(comparison.rawValue) \(number)"
        return threshold
    }

    /// The first comparison operator, preferring the two-character spellings.
    private static func findOperator(in text: String) -> (Range<String.Index>, Threshold.Comparison)? {
        var index = text.startIndex
        while index < text.endIndex {
            for comparison in Threshold.Comparison.allCases where text[index...].hasPrefix(comparison.rawValue) {
                return (index..<text.index(index, offsetBy: comparison.rawValue.count), comparison)
            }
            if text[index] == "=" || text[index] == "!" {
                return nil
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func malformed(_ text: String, _ detail: String) -> ThresholdSyntaxError {
        ThresholdSyntaxError(message: "malformed threshold '\(text)': \(detail)")
    }
}

extension String {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
