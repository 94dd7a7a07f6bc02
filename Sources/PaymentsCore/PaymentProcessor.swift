/// Processes one user's payments in `(created_at, payment_id)` order (SPEC §4): validation,
/// idempotency, refund checks, the gateway with retries and reconciliation, and the ledger.
/// Call `startUser()` before each user. What it remembers lives in its `store`; the gateway, the
/// backoff jitter and the clock come in too, so one processor serves `analyze`, `run` and a
/// simulation's reference runs and a payment service's steps alike (`PaymentRules` holds the rules both use).
@usableFromInline package struct PaymentProcessor<Gateway: PaymentGateway, Random: RandomNumberGenerator, Clock: SimulatedClock, Store: PaymentStore> {
    /// Attempts, backoff and simulated latencies.
    @usableFromInline package let policy: RetryPolicy
    // Inlinable (callers specialize the processor for their gateway, clock and store), so its
    // state is usable from inlined code and read from outside through the properties below.
    @usableFromInline var currentGateway: Gateway
    @usableFromInline var currentClock: Clock
    @usableFromInline var currentStore: Store
    @usableFromInline var random: Random

    /// The gateway the attempts go to.
    @usableFromInline package var gateway: Gateway { currentGateway }
    /// The simulated clock backoff and latencies advance.
    @usableFromInline package var clock: Clock { currentClock }
    /// Where the user's keys, charges and ledger are kept.
    @usableFromInline package var store: Store { currentStore }

    /// A processor over `store`, calling `gateway`, backing off by `random` on `clock`.
    @usableFromInline package init(policy: RetryPolicy, gateway: Gateway, random: Random, clock: Clock, store: Store) {
        self.policy = policy
        currentGateway = gateway
        self.random = random
        currentClock = clock
        currentStore = store
    }

    /// The user's ledger.
    @usableFromInline package var ledger: UserLedger { currentStore.ledger }

    /// Forgets the previous user's keys, charges and ledger.
    @usableFromInline package mutating func startUser() {
        currentStore.startUser()
        currentGateway.reset()
    }

    /// Processes the user's next payment; the caller decides `malformed` and `unknown_user`.
    @inlinable package mutating func process(_ payment: PaymentRequest) -> PaymentOutcome {
        let charge = payment.kind == .refund ? payment.refundOf.flatMap { currentStore.capturedCharge($0) } : nil
        let admission = PaymentRules.admission(of: payment, recorded: currentStore.fingerprint(ofKey: payment.key), charge: charge)
        if case .settled(let outcome, let takesKey) = admission {
            if takesKey { currentStore.record(key: payment.key, payment.fingerprint!) }
            return outcome
        }
        currentStore.record(key: payment.key, payment.fingerprint!)

        let (approved, declined, attempts, latency) = callGateway(payment)
        let state = PaymentRules.finalState(of: payment.kind, approved: approved, declined: declined)
        switch state {
        case .captured: currentStore.capture(charge: payment.id, amountMinor: payment.amountMinor!, currency: payment.currency!)
        case .refunded: currentStore.refund(of: payment.refundOf!, amountMinor: payment.amountMinor!, currency: payment.currency!)
        default: break
        }
        return PaymentOutcome(state: state, attempts: attempts, latencyMillis: latency)
    }

    /// Attempts until an answer or `maxAttempts`, backing off between timeouts; reconciles when
    /// every attempt timed out.
    @inlinable mutating func callGateway(_ payment: PaymentRequest) -> (approved: Bool, declined: Bool, attempts: Int, latency: Int64) {
        let startedAt = currentClock.nowMillis
        var attempt = 0
        var response = currentGateway.submit(GatewayRequest(key: payment.key, attempt: attempt, script: payment.script))
        while PaymentRules.decision(after: response, attempt: attempt, maxAttempts: policy.maxAttempts) == .retry {
            currentClock.advance(byMillis: policy.timeoutMillis)
            currentClock.advance(byMillis: policy.backoffMillis(afterAttempt: attempt, using: &random))
            attempt += 1
            response = currentGateway.submit(GatewayRequest(key: payment.key, attempt: attempt, script: payment.script))
        }
        if response == .approved || response == .declined {
            currentClock.advance(byMillis: policy.responseMillis)
            return (response == .approved, response == .declined, attempt + 1, currentClock.nowMillis - startedAt)
        }
        // Every attempt timed out: reconcile.
        currentClock.advance(byMillis: policy.timeoutMillis)
        currentClock.advance(byMillis: policy.responseMillis)
        return (currentGateway.hasActed(key: payment.key), false, attempt + 1, currentClock.nowMillis - startedAt)
    }
}

extension PaymentProcessor where Store == InMemoryPaymentStore {
    /// A processor that keeps its state in memory.
    @usableFromInline package init(policy: RetryPolicy, gateway: Gateway, random: Random, clock: Clock) {
        self.init(policy: policy, gateway: gateway, random: random, clock: clock, store: InMemoryPaymentStore())
    }
}

extension PaymentProcessor where Gateway == ScriptedGateway, Random == SplitMix64, Clock == ManualClock, Store == InMemoryPaymentStore {
    /// The processor of SPEC §4 with the scripted gateway, seeded jitter, a manual clock and its
    /// state in memory.
    @usableFromInline package init(policy: RetryPolicy = RetryPolicy(), seed: UInt64 = 0) {
        self.init(policy: policy, gateway: ScriptedGateway(), random: SplitMix64(seed: seed), clock: ManualClock())
    }
}
