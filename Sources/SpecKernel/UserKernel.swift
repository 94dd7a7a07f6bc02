@_spi(Tooling) import HealthCore
import PaymentsCore
import UserAlgorithms

/// The SPEC analysis of one user at a time — order, algorithm, invariants — that both engines
/// call: `analyze` with the rows it read from files, `run` with the rows the simulator made. Each
/// engine keeps its own input, partitioning, rejection checks and output; the kernel takes a
/// user's accepted rows and reports the SPEC results as values.
///
/// One kernel belongs to one task: its scratch memory and payment processor are reused from user
/// to user, so the steady state allocates nothing per row. It is the reference implementation of
/// the three algorithm protocols, the one custom implementations are checked against.
public final class UserKernel: FastingAnalyzing, StepAggregating, PaymentProcessing {
    /// `min_fast` of SPEC §2, in seconds.
    package let minimumFastSeconds: Int64
    /// Mixed with the user index to seed each user's backoff jitter .
    package let jitterSeed: UInt64
    private let jitter = JitterSource()
    private typealias Processor = PaymentProcessor<ScriptedGateway, UserJitter, ManualClock, InMemoryPaymentStore>
    private var processor: Processor
    private var order = PaymentOrdering()
    private var history: [(request: PaymentRequest, outcome: PaymentOutcome?)] = []
    /// Reset for each user, so its memory is reused; taken out while a user's samples run.
    private var stepAccumulator: StepAccumulator? = StepAccumulator(utcOffsetMinutes: 0)
    /// The SPEC §4 invariants the last user's payments broke (none, unless the processor has a bug).
    public private(set) var invariantViolations: [String] = []

    /// A kernel with SPEC's defaults unless told otherwise; `jitterSeed` only moves simulated latencies.
    public init(
        minimumFastSeconds: Int64 = FastingConfiguration.defaultMinimumFast, policy: RetryPolicy = RetryPolicy(), jitterSeed: UInt64 = 0
    ) {
        self.minimumFastSeconds = minimumFastSeconds
        self.jitterSeed = jitterSeed
        processor = PaymentProcessor(policy: policy, gateway: ScriptedGateway(), random: UserJitter(source: jitter), clock: ManualClock())
    }

    /// A kernel with `settings`.
    public convenience init(settings: AlgorithmSettings) {
        self.init(minimumFastSeconds: settings.minimumFastSeconds, policy: settings.policy, jitterSeed: settings.jitterSeed)
    }

    /// SPEC §2 for one user: sorts `meals` in place by `(start, end)`, runs the fasting analyzer,
    /// calls `onDay` for each local day in order and returns the user's summary.
    public func fasting(
        _ meals: UnsafeMutableBufferPointer<Meal>, utcOffsetMinutes: Int32, fastingProtocol: FastingProtocol,
        onDay: (FastingDay) -> Void
    ) -> FastingSummary {
        sortNearlySorted(meals, by: Meal.precedes)
        var accumulator = FastingAccumulator(configuration: FastingConfiguration(
            utcOffsetMinutes: utcOffsetMinutes, fastingProtocol: fastingProtocol, minimumFastSeconds: minimumFastSeconds
        ))
        for meal in meals { accumulator.add(meal, onDay: onDay) }
        return accumulator.finish(onDay: onDay)
    }

    /// SPEC §3 for one user: sorts `samples` in place by `(start, end)`, runs the step aggregator
    /// and calls `onDay` for each local day in order.
    public func steps(_ samples: UnsafeMutableBufferPointer<StepSample>, utcOffsetMinutes: Int32, onDay: (StepDay) -> Void) {
        sortNearlySorted(samples, by: StepSample.precedes)
        // The kept accumulator is moved into a local for the loop (and back): its tables stay
        // uniquely owned, no sample reaches it through the class, and no accumulator is made per user.
        var accumulator = stepAccumulator.take()!
        accumulator.reset(utcOffsetMinutes: utcOffsetMinutes)
        accumulator.add(contentsOf: UnsafeBufferPointer(samples), onDay: onDay)
        accumulator.finish(onDay: onDay)
        stepAccumulator = accumulator
    }

    /// Starts the next user's payments: add each one that is neither `malformed` nor `unknown_user` with `addPayment`, then call `processPayments`.
    public func beginPayments() { order.removeAll() }

    /// A payment that passed the engine's text checks (`malformed`, `unknown_user`): its
    /// `created_at`, the rank of its `payment_id` among the ids in byte order (any order-preserving
    /// number), and the engine's handle of the row.
    @inline(__always) public func addPayment(createdAt: Int64, idRank: UInt32, row: Int32) {
        order.add(createdAt: createdAt, idRank: idRank, row: row)
    }

    /// SPEC §4 for one user: processes the added payments in `(created_at, payment_id)` order,
    /// reports each outcome with its row handle, and returns the broken invariants (none, unless
    /// the processor has a bug). The user's ledger is `ledger` until the next user.
    public func processPayments(
        ofUser user: UInt32, request: (Int32) -> PaymentRequest, onOutcome: (Int32, PaymentOutcome) -> Void
    ) -> [String] {
        order.sort()
        processInOrder(ofUser: user, count: order.count, request: { request(order[$0]) }) { onOutcome(order[$0], $1) }
        return invariantViolations
    }

    /// `PaymentProcessing`: SPEC §4 for one user's payments, already in processing order.
    public func process(_ payments: UserPayments, onOutcome: (Int, PaymentOutcome) -> Void) -> UserLedger {
        processInOrder(ofUser: payments.user.index, count: payments.count, request: { payments[$0] }, onOutcome: onOutcome)
        return processor.ledger
    }

    private func processInOrder(
        ofUser user: UInt32, count: Int, request: (Int) -> PaymentRequest, onOutcome: (Int, PaymentOutcome) -> Void
    ) {
        jitter.state = SplitMix64(seed: jitterSeed ^ UInt64(user) &* 0x9E37_79B9_7F4A_7C15)
        Self.process(count: count, with: &processor, recording: &history, request: request, onOutcome: onOutcome)
        invariantViolations = PaymentInvariants.violations(payments: history, ledger: processor.ledger, gateway: processor.gateway)
    }

    /// The loop of `processInOrder` on the kernel's state passed `inout`: one exclusivity check of
    /// each per user, where the kernel's properties cost two a payment.
    private static func process(
        count: Int, with processor: inout Processor, recording history: inout [(request: PaymentRequest, outcome: PaymentOutcome?)],
        request: (Int) -> PaymentRequest, onOutcome: (Int, PaymentOutcome) -> Void
    ) {
        processor.startUser()
        history.removeAll(keepingCapacity: true)
        for i in 0..<count {
            let payment = request(i)
            let outcome = processor.process(payment)
            history.append((payment, outcome))
            onOutcome(i, outcome)
        }
    }

    /// `FastingAnalyzing`: SPEC §2 for one user.
    public func analyze(_ meals: inout UserMeals, onDay: (FastingDay) -> Void) -> FastingSummary {
        let user = meals.user
        return meals.withContiguousMutableStorageIfAvailable { rows in
            fasting(rows, utcOffsetMinutes: user.utcOffsetMinutes, fastingProtocol: user.fastingProtocol, onDay: onDay)
        }!
    }

    /// `StepAggregating`: SPEC §3 for one user.
    public func aggregate(_ samples: inout UserSteps, onDay: (StepDay) -> Void) {
        let offset = samples.user.utcOffsetMinutes
        samples.withContiguousMutableStorageIfAvailable { rows in steps(rows, utcOffsetMinutes: offset, onDay: onDay) }
    }

    /// The ledger of the last user whose payments were processed.
    public var ledger: UserLedger { processor.ledger }
}

/// The seeded backoff jitter of the payment processor, reseeded for each user so that a user's
/// simulated latencies depend on the user only, not on which task or batch processes them.
final class JitterSource {
    var state = SplitMix64(seed: 0)
}

/// A random number generator that draws from a shared `JitterSource`.
struct UserJitter: RandomNumberGenerator {
    let source: JitterSource

    @inline(__always) mutating func next() -> UInt64 { source.state.next() }
}
