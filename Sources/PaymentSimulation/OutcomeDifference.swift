import PaymentsCore

/// A field of a payment's outcome, by the name a violation message gives it.
enum OutcomeField: String, CaseIterable {
    case state, reason, attempts
    case latency = "latency_ms"

    func value(of outcome: PaymentOutcome) -> String {
        switch self {
        case .state: outcome.state.rawValue
        case .reason: outcome.reason?.rawValue ?? "none"
        case .attempts: String(outcome.attempts)
        case .latency: String(outcome.latencyMillis)
        }
    }
}

extension PaymentOutcome {
    /// The `fields` in which `self` and `other` differ, each named with both values, as a violation
    /// says it: `latency_ms differs: answered 41, the store holds 42` (`name` and `otherName` say
    /// whose each value is).
    func differences(from other: PaymentOutcome, _ name: String, _ otherName: String, fields: [OutcomeField] = OutcomeField.allCases) -> String {
        fields.filter { $0.value(of: self) != $0.value(of: other) }
            .map { "\($0.rawValue) differs: \(name) \($0.value(of: self)), \(otherName) \($0.value(of: other))" }
            .joined(separator: "; ")
    }
}
