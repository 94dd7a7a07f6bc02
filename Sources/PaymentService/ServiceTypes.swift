import PaymentsCore

/// A payment as a client sends it to the service: the SPEC §4 row and the user it belongs to.
/// Payment ids are unique across users; keys are per user.
package struct ServiceRequest: Hashable, Sendable {
    /// The user the payment belongs to.
    package var user: UInt32
    /// The SPEC §4 row (interned ids and key).
    package var payment: PaymentRequest

    /// A request of `user` for `payment`.
    package init(user: UInt32, payment: PaymentRequest) {
        self.user = user
        self.payment = payment
    }
}

/// How far a payment got, as the store last recorded it: requested → attempt n sent → final.
package enum PaymentProgress: Hashable, Sendable {
    /// Admitted (its key taken), no attempt sent yet.
    case requested
    /// The intent of attempt `attempt` (0-based) is written; its answer is due by `deadline`
    /// (monotonic milliseconds), after which the gateway ignores the request.
    case attemptSent(attempt: Int, deadline: Int64)
    /// Settled with its final outcome.
    case final(PaymentOutcome)
}

/// One payment as the durable store keeps it.
package struct PaymentRecord: Hashable, Sendable {
    /// The request.
    package var request: ServiceRequest
    /// Where it stands.
    package var progress: PaymentProgress
    /// When it was admitted (monotonic milliseconds): latencies are measured from here.
    package var admittedAt: Int64

    /// A record of all its fields.
    package init(request: ServiceRequest, progress: PaymentProgress, admittedAt: Int64) {
        self.request = request
        self.progress = progress
        self.admittedAt = admittedAt
    }

    /// The final outcome, nil while the payment is in progress.
    package var outcome: PaymentOutcome? {
        if case .final(let outcome) = progress { return outcome }
        return nil
    }
}

/// One attempt as the service sends it to the gateway.
package struct GatewayCall: Hashable, Sendable {
    /// The payment's request (user, kind, amount, currency, script).
    package var request: ServiceRequest
    /// The idempotency key the gateway sees (the payment's own key, per user).
    package var key: UInt32
    /// The attempt, from 0.
    package var attempt: Int
    /// After this instant (monotonic milliseconds) the gateway must not act on the call.
    package var deadline: Int64

    /// A call of attempt `attempt` of `request` under `key`, due by `deadline`.
    package init(request: ServiceRequest, key: UInt32, attempt: Int, deadline: Int64) {
        self.request = request
        self.key = key
        self.attempt = attempt
        self.deadline = deadline
    }
}

/// A step of the service that runs as an event of its own, so that a crash can fall between any
/// two of them: each writes at most one transaction or makes at most one call.
package enum ServiceStep: Hashable, Sendable {
    /// Steps 1–3: decide and write the admission.
    case admit(ServiceRequest)
    /// Write the intent of attempt `attempt`.
    case writeIntent(payment: UInt32, attempt: Int)
    /// Send attempt `attempt` to the gateway.
    case call(payment: UInt32, attempt: Int)
    /// Write the final outcome.
    case settle(payment: UInt32, PaymentOutcome)
}

/// What the world delivers to the service.
package enum ServiceInput: Hashable, Sendable {
    /// A client's request (a first try, a retry or a duplicate).
    case request(ServiceRequest, client: Int)
    /// A step the service scheduled earlier.
    case step(ServiceStep)
    /// The gateway's answer to an attempt.
    case answer(payment: UInt32, attempt: Int, GatewayResponse)
    /// An attempt's deadline passed.
    case timeout(payment: UInt32, attempt: Int)
    /// The gateway's answer to "did you act for this payment's key?".
    case reconciled(payment: UInt32, acted: Bool)
}

/// What the service asks the world to do.
package enum ServiceEffect: Hashable, Sendable {
    /// Send a final answer to a client.
    case reply(client: Int, payment: UInt32, PaymentOutcome)
    /// Run `step` after `delayMillis`.
    case schedule(ServiceStep, delayMillis: Int64)
    /// Deliver `call` to the gateway, and a timeout at its deadline.
    case send(GatewayCall)
    /// Ask the gateway whether it acted for a payment's key, at `at` (not before the last deadline).
    case reconcile(ServiceRequest, at: Int64)
}
