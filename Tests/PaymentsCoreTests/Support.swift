import PaymentsCore
import TestSupport

/// An outcome without its simulated latency, to compare with a table.
struct OutcomeRow: Equatable, Sendable, CustomStringConvertible {
    var state: PaymentState
    var reason: PaymentRejection?
    var attempts: Int

    init(state: PaymentState, reason: PaymentRejection? = nil, attempts: Int = 0) {
        self.state = state
        self.reason = reason
        self.attempts = attempts
    }

    init(_ outcome: PaymentOutcome) { self.init(state: outcome.state, reason: outcome.reason, attempts: outcome.attempts) }

    static func captured(_ attempts: Int) -> Self { Self(state: .captured, attempts: attempts) }
    static func refunded(_ attempts: Int) -> Self { Self(state: .refunded, attempts: attempts) }
    static func declined(_ attempts: Int) -> Self { Self(state: .declined, attempts: attempts) }
    static func failed(_ attempts: Int) -> Self { Self(state: .failed, attempts: attempts) }
    static let deduplicated = Self(state: .deduplicated)
    static func rejected(_ reason: PaymentRejection) -> Self { Self(state: .rejected, reason: reason) }

    var description: String { "\(state.rawValue)(\(reason?.rawValue ?? "")) after \(attempts)" }
}

/// The processor of SPEC §4 with a spy on the scripted gateway.
typealias SpiedProcessor = PaymentProcessor<SpyGateway<ScriptedGateway>, SplitMix64, ManualClock, InMemoryPaymentStore>

/// A processor whose gateway is a spy (a class: `sut.gateway` shows what it saw).
func makeSpiedProcessor(maxAttempts: Int = RetryPolicy.defaultMaxAttempts) -> SpiedProcessor {
    PaymentProcessor(policy: RetryPolicy(maxAttempts: maxAttempts), gateway: SpyGateway(), random: SplitMix64(seed: 1), clock: ManualClock())
}

extension PaymentProcessor {
    /// Processes `payments` in the given order and returns their outcomes as rows.
    mutating func processAll(_ payments: [PaymentRequest]) -> [OutcomeRow] {
        payments.map { OutcomeRow(process($0)) }
    }
}
