import PaymentsCore

/// How the service paces itself, and the order of its steps.
package struct ServiceConfiguration: Sendable {
    /// SPEC §4's attempts and backoff; the timeout is an attempt's deadline.
    package var policy: RetryPolicy
    /// Simulated time between two steps of one payment.
    package var stepMillis: Int64
    /// Wait before a step whose transaction failed runs again.
    package var storeRetryMillis: Int64
    /// The order of the service's steps (SPEC §4's unless a flaw is planted).
    package var procedure: ServiceProcedure

    /// A configuration; SPEC §4's procedure unless a test plants another.
    package init(policy: RetryPolicy = RetryPolicy(), stepMillis: Int64 = 1, storeRetryMillis: Int64 = 50, procedure: ServiceProcedure = ServiceProcedure()) {
        self.policy = policy
        self.stepMillis = stepMillis
        self.storeRetryMillis = storeRetryMillis
        self.procedure = procedure
    }
}

/// The order of the service's durable steps and its gateway calls. The default is SPEC §4's; the
/// other orders exist to be planted (`PlantedFlaw`), to show that a simulation catches a service
/// that takes them. Everything else a planted flaw changes lies outside the service: its policy,
/// its store, or what it asks for.
package struct ServiceProcedure: Sendable, Equatable {
    /// When an attempt's intent is written.
    package enum Intent: Sendable {
        /// Before the gateway call (SPEC §4): a crash can never lose an attempt that was sent.
        case beforeCall
        /// After it.
        case afterCall
    }

    /// What a restart does with a payment whose attempt was sent.
    package enum Restart: Sendable {
        /// Asks the gateway whether it acted (SPEC §4).
        case reconcile
        /// Fails it without asking.
        case failUnasked
    }

    /// When an attempt's intent is written.
    package var intent: Intent
    /// What a restart does with an attempt that was sent.
    package var restart: Restart

    /// SPEC §4's order unless told otherwise.
    package init(intent: Intent = .beforeCall, restart: Restart = .reconcile) {
        self.intent = intent
        self.restart = restart
    }
}

/// The payment a user has in progress, as the service remembers it (lost in a crash). Not nested
/// in the generic service: a nested type's metadata would be instantiated on every access.
private struct Active {
    var request: ServiceRequest
    var attempt = -1
    var deadline: Int64 = 0
    var awaitingAnswer = false
    var admittedAt: Int64 = 0
}

/// The payment service: SPEC §4 (through `PaymentRules`, the processor's own rules) for many
/// concurrent clients, one payment per user at a time, every state change written to a durable
/// store before the next step. It does no I/O of its own: it takes inputs and the time, and asks
/// for effects (replies, gateway calls, later steps), so a simulated world or a real driver can run
/// it, and a crash is simply the loss of this object.
///
/// - A retry of a payment (same `payment_id`) is answered from the store when the payment is final,
///   and otherwise waits for the final answer: the gateway is never called twice for one attempt.
/// - `recover` runs first after a (re)start: every payment whose last durable step was an attempt is
///   reconciled with the gateway (after that attempt's deadline) before anything new is admitted.
package final class PaymentService<Store: DurablePaymentStore, Random: RandomNumberGenerator> {

    // The service is driven from one thread at a time (it is not Sendable), so its state skips the
    // runtime's exclusivity checks: a fifth of a simulated world's time went to them.

    /// The durable store.
    package let store: Store
    /// Pacing and procedure.
    package let configuration: ServiceConfiguration
    @exclusivity(unchecked) private var random: Random
    @exclusivity(unchecked) private var active: [UInt32: Active] = [:]
    @exclusivity(unchecked) private var userOfPayment: [UInt32: UInt32] = [:]
    @exclusivity(unchecked) private var queues: [UInt32: [ServiceRequest]] = [:]
    @exclusivity(unchecked) private var waiters: [UInt32: [Int]] = [:]
    @exclusivity(unchecked) private var recovering: Set<UInt32> = []

    /// A service over `store`, drawing backoff jitter from `random`.
    package init(store: Store, configuration: ServiceConfiguration = ServiceConfiguration(), random: Random) {
        self.store = store
        self.configuration = configuration
        self.random = random
    }

    /// Whether payments from before a restart are still being reconciled (nothing new is admitted).
    package var isRecovering: Bool { !recovering.isEmpty }

    /// Resumes every unfinished payment of the store. Throws when the store cannot be read (the
    /// caller restarts again later).
    package func recover(now: Int64, effects: inout [ServiceEffect]) throws {
        for record in try store.unfinished() {
            let id = record.request.payment.id
            userOfPayment[id] = record.request.user
            var state = Active(request: record.request, admittedAt: record.admittedAt)
            switch record.progress {
            case .requested, .final:
                active[record.request.user] = state
                beginAttempt(id, 0, after: configuration.stepMillis, effects: &effects)
            case .attemptSent(let attempt, let deadline):
                state.attempt = attempt
                state.deadline = deadline
                active[record.request.user] = state
                if configuration.procedure.restart == .failUnasked {
                    let outcome = PaymentOutcome(state: .failed, attempts: attempt + 1, latencyMillis: now - record.admittedAt)
                    effects.append(.schedule(.settle(payment: id, outcome), delayMillis: configuration.stepMillis))
                } else {
                    recovering.insert(id)
                    effects.append(.reconcile(record.request, at: max(now, deadline)))
                }
            }
        }
    }

    /// Handles one input at `now` (monotonic milliseconds), appending what it asks for to `effects`.
    package func handle(_ input: ServiceInput, now: Int64, effects: inout [ServiceEffect]) {
        switch input {
        case .request(let request, let client): receive(request, from: client, effects: &effects)
        case .step(let step): run(step, now: now, effects: &effects)
        case .answer(let payment, let attempt, let response): conclude(payment, attempt, response, now: now, effects: &effects)
        case .timeout(let payment, let attempt): conclude(payment, attempt, .timedOut, now: now, effects: &effects)
        case .reconciled(let payment, let acted): reconciled(payment, acted: acted, now: now, effects: &effects)
        }
    }

    private func receive(_ request: ServiceRequest, from client: Int, effects: inout [ServiceEffect]) {
        let id = request.payment.id
        let record: PaymentRecord?
        do { record = try store.record(of: id) } catch { return }  // no answer: the client retries
        if let record {
            if let outcome = record.outcome { effects.append(.reply(client: client, payment: id, outcome)) } else { waiters[id, default: []].append(client) }
            return
        }
        if waiters[id] != nil {
            waiters[id]!.append(client)  // queued or being admitted
            return
        }
        waiters[id] = [client]
        queues[request.user, default: []].append(request)
        startNext(of: request.user, effects: &effects)
    }

    private func startNext(of user: UInt32, effects: inout [ServiceEffect]) {
        guard recovering.isEmpty, active[user] == nil, var queue = queues[user], !queue.isEmpty else { return }
        let request = queue.removeFirst()
        queues[user] = queue.isEmpty ? nil : queue
        active[user] = Active(request: request)
        userOfPayment[request.payment.id] = user
        effects.append(.schedule(.admit(request), delayMillis: configuration.stepMillis))
    }

    private func run(_ step: ServiceStep, now: Int64, effects: inout [ServiceEffect]) {
        do {
            switch step {
            case .admit(let request): try admit(request, now: now, effects: &effects)
            case .writeIntent(let payment, let attempt): try writeIntent(payment, attempt, now: now, effects: &effects)
            case .call(let payment, let attempt): call(payment, attempt, now: now, effects: &effects)
            case .settle(let payment, let outcome): try settle(payment, outcome, effects: &effects)
            }
        } catch {
            effects.append(.schedule(step, delayMillis: configuration.storeRetryMillis))
        }
    }

    private func admit(_ request: ServiceRequest, now: Int64, effects: inout [ServiceEffect]) throws {
        let payment = request.payment
        guard active[request.user]?.request.payment.id == payment.id else { return }
        let recorded = try store.fingerprint(user: request.user, key: payment.key)
        var charge: CapturedCharge?
        if payment.kind == .refund, let target = payment.refundOf { charge = try store.capturedCharge(user: request.user, charge: target) }
        switch PaymentRules.admission(of: payment, recorded: recorded, charge: charge) {
        case .settled(let outcome, let takesKey):
            try store.admit(PaymentRecord(request: request, progress: .final(outcome), admittedAt: now), takesKey: takesKey)
            finish(request, outcome, effects: &effects)
        case .callGateway:
            try store.admit(PaymentRecord(request: request, progress: .requested, admittedAt: now), takesKey: true)
            active[request.user]?.admittedAt = now
            beginAttempt(payment.id, 0, after: configuration.stepMillis, effects: &effects)
        }
    }

    private func beginAttempt(_ payment: UInt32, _ attempt: Int, after delay: Int64, effects: inout [ServiceEffect]) {
        let first: ServiceStep = configuration.procedure.intent == .afterCall
            ? .call(payment: payment, attempt: attempt) : .writeIntent(payment: payment, attempt: attempt)
        effects.append(.schedule(first, delayMillis: delay))
    }

    private func writeIntent(_ payment: UInt32, _ attempt: Int, now: Int64, effects: inout [ServiceEffect]) throws {
        guard let user = userOfPayment[payment], let state = active[user] else { return }
        let afterCall = configuration.procedure.intent == .afterCall
        let deadline = afterCall ? state.deadline : now + configuration.stepMillis + configuration.policy.timeoutMillis
        try store.writeIntent(payment: payment, attempt: attempt, deadline: deadline)
        if afterCall { return }
        active[user]?.attempt = attempt
        active[user]?.deadline = deadline
        effects.append(.schedule(.call(payment: payment, attempt: attempt), delayMillis: configuration.stepMillis))
    }

    private func call(_ payment: UInt32, _ attempt: Int, now: Int64, effects: inout [ServiceEffect]) {
        guard let user = userOfPayment[payment], var state = active[user] else { return }
        if configuration.procedure.intent == .afterCall {
            state.attempt = attempt
            state.deadline = now + configuration.policy.timeoutMillis
            effects.append(.schedule(.writeIntent(payment: payment, attempt: attempt), delayMillis: configuration.stepMillis))
        }
        guard state.attempt == attempt, !state.awaitingAnswer else { return }
        state.awaitingAnswer = true
        active[user] = state
        effects.append(.send(GatewayCall(request: state.request, key: state.request.payment.key, attempt: attempt, deadline: state.deadline)))
    }

    /// An answer, or a timeout (`.timedOut`), for the attempt in flight; late and stale ones are ignored.
    private func conclude(_ payment: UInt32, _ attempt: Int, _ response: GatewayResponse, now: Int64, effects: inout [ServiceEffect]) {
        guard let user = userOfPayment[payment], let state = active[user], state.request.payment.id == payment,
              state.attempt == attempt, state.awaitingAnswer else { return }
        active[user]?.awaitingAnswer = false
        let policy = configuration.policy
        let kind = state.request.payment.kind
        switch PaymentRules.decision(after: response, attempt: attempt, maxAttempts: policy.maxAttempts) {
        case .approved, .declined:
            let outcome = PaymentOutcome(
                state: PaymentRules.finalState(of: kind, approved: response == .approved, declined: response == .declined),
                attempts: attempt + 1, latencyMillis: now - state.admittedAt)
            effects.append(.schedule(.settle(payment: payment, outcome), delayMillis: configuration.stepMillis))
        case .retry:
            beginAttempt(payment, attempt + 1, after: policy.backoffMillis(afterAttempt: attempt, using: &random), effects: &effects)
        case .reconcile:
            effects.append(.reconcile(state.request, at: max(now, state.deadline)))
        }
    }

    private func reconciled(_ payment: UInt32, acted: Bool, now: Int64, effects: inout [ServiceEffect]) {
        guard let user = userOfPayment[payment], let state = active[user], state.request.payment.id == payment else { return }
        let policy = configuration.policy
        var settled = true
        if recovering.remove(payment) != nil, !acted,
           PaymentRules.decision(after: .timedOut, attempt: state.attempt, maxAttempts: policy.maxAttempts) == .retry {
            // A restart cut the attempt off and the gateway did not act: it timed out; retry.
            settled = false
            beginAttempt(payment, state.attempt + 1, after: policy.backoffMillis(afterAttempt: state.attempt, using: &random), effects: &effects)
        }
        if settled {
            let outcome = PaymentOutcome(
                state: PaymentRules.finalState(of: state.request.payment.kind, approved: acted, declined: false),
                attempts: state.attempt + 1, latencyMillis: now - state.admittedAt)
            effects.append(.schedule(.settle(payment: payment, outcome), delayMillis: configuration.stepMillis))
        }
        if recovering.isEmpty {
            for user in queues.keys.sorted() { startNext(of: user, effects: &effects) }
        }
    }

    private func settle(_ payment: UInt32, _ outcome: PaymentOutcome, effects: inout [ServiceEffect]) throws {
        guard let user = userOfPayment[payment], let state = active[user], state.request.payment.id == payment else { return }
        try store.settle(payment: payment, outcome)
        finish(state.request, outcome, effects: &effects)
    }

    private func finish(_ request: ServiceRequest, _ outcome: PaymentOutcome, effects: inout [ServiceEffect]) {
        let id = request.payment.id
        for client in waiters.removeValue(forKey: id) ?? [] { effects.append(.reply(client: client, payment: id, outcome)) }
        active[request.user] = nil
        userOfPayment[id] = nil
        startNext(of: request.user, effects: &effects)
    }
}
