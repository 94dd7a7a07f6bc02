@_spi(Tooling) import HealthCore
import PaymentsCore

/// The settings every implementation is made with; one instance serves one task, user after user.
public struct AlgorithmSettings: Hashable, Sendable {
    /// `min_fast` of SPEC §2, in seconds.
    public var minimumFastSeconds: Int64
    /// Gateway attempts, backoff and timeouts of SPEC §4.
    public var policy: RetryPolicy
    /// Seeds the backoff jitter: mix it with the user's index so a user's simulated latencies
    /// depend on the user only.
    public var jitterSeed: UInt64

    /// Settings of all their fields; SPEC's defaults unless told otherwise.
    public init(
        minimumFastSeconds: Int64 = FastingConfiguration.defaultMinimumFast, policy: RetryPolicy = RetryPolicy(), jitterSeed: UInt64 = 0
    ) {
        self.minimumFastSeconds = minimumFastSeconds
        self.policy = policy
        self.jitterSeed = jitterSeed
    }
}

/// A fasting analyzer (SPEC §2), one user at a time. The harness has made every row check of SPEC
/// §2 (`malformed`, `unknown_user`, `end_before_start`, `too_long`, `negative_value`, `duplicate`)
/// and counts those rejections itself: an implementation sees only the accepted meals.
public protocol FastingAnalyzing: SendableMetatype {
    /// An analyzer for one task; it is reused for every user that task analyzes.
    init(settings: AlgorithmSettings)

    /// Analyzes one user's accepted meals: calls `onDay` for each local day with an eating episode,
    /// in day order, and returns the user's summary (`meals` = the accepted meals).
    mutating func analyze(_ meals: inout UserMeals, onDay: (FastingDay) -> Void) -> FastingSummary
}

/// A step aggregator (SPEC §3), one user at a time. The harness has made every row check of SPEC §3
/// (`malformed`, `unknown_user`, `bad_interval`, `negative_value`, `duplicate`): an implementation
/// sees only the accepted samples.
public protocol StepAggregating: SendableMetatype {
    /// An aggregator for one task; it is reused for every user that task aggregates.
    init(settings: AlgorithmSettings)

    /// Aggregates one user's accepted samples (at least one): calls `onDay` for each local day a
    /// sample touches, in day order.
    mutating func aggregate(_ samples: inout UserSteps, onDay: (StepDay) -> Void)
}

/// A payment processor (SPEC §4), one user at a time.
public protocol PaymentProcessing: SendableMetatype {
    /// A processor for one task; it is reused for every user that task processes.
    init(settings: AlgorithmSettings)

    /// Processes one user's payments (at least one) in the order given — `(created_at, payment_id)`
    /// — with a fresh gateway, store and ledger for the user: calls `onOutcome` with each payment's
    /// position in `payments` and its outcome, and returns the user's ledger. Each request carries
    /// the gateway's answers to its attempts (`script`).
    ///
    /// What the harness has done before: of SPEC §4 step 1, only the first two checks. Rows that are
    /// `malformed` (SPEC §0) or name no accepted user (`unknown_user`) never reach `process`; the
    /// harness rejects them itself. Everything else is the implementation's, so `payments` holds rows
    /// that fail the rest of step 1, and each must be reported `rejected` with its reason, in SPEC's
    /// order: `missing_key` (`keyLength` 0 or over 255), `unsupported_currency` (`currency` nil),
    /// `invalid_amount` (`amountMinor` nil or `<= 0`), `over_limit` (`amountMinor` over the
    /// currency's `limitMinor`). Such a row records no key, calls no gateway and leaves the ledger
    /// as it is (`attempts` 0). Every row that passes step 1 records its key, and then steps 2–5
    /// (idempotency, refund checks, gateway, final state) are the implementation's too.
    mutating func process(_ payments: UserPayments, onOutcome: (Int, PaymentOutcome) -> Void) -> UserLedger

    /// SPEC §4 invariants the last user's processing broke, as the implementation checked them
    /// itself (none by default: the differential check compares with the reference instead).
    var invariantViolations: [String] { get }
}

extension PaymentProcessing {
    /// None: the differential check compares with the reference instead.
    public var invariantViolations: [String] { [] }
}

/// The three implementations a run drives (SpecKernel's `Implementations.reference` is the SPEC's).
package struct Implementations: Sendable {
    /// The fasting analyzer.
    package var fasting: any FastingAnalyzing.Type
    /// The step aggregator.
    package var steps: any StepAggregating.Type
    /// The payment processor.
    package var payments: any PaymentProcessing.Type

    /// The three implementations.
    @usableFromInline package init(fasting: any FastingAnalyzing.Type, steps: any StepAggregating.Type, payments: any PaymentProcessing.Type) {
        self.fasting = fasting
        self.steps = steps
        self.payments = payments
    }
}
