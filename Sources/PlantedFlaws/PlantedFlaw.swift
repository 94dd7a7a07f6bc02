/// Every defect SimHarness plants in its own services to show that a simulation catches it: one
/// catalogue for both simulators, one name per defect. A defect is planted in one of two fixtures
/// (`fixture`): the reference service (`PaymentService`, which the sans-I/O worlds run and the own
/// service adapter runs on the seeded executor) or the ledger service (`LedgerService`, written as an
/// app writes a service with `async`/`await`). Where both have it, it has one name.
///
/// The reference service carries none of them: each is planted from outside it
/// (`ReferenceServicePlants`), through its configuration, its store, or what it asks for.
@_spi(Tooling) public enum PlantedFlaw: String, CaseIterable, Sendable, Comparable {
    // Both fixtures.
    /// A retry after a timeout goes to the gateway under a new key.
    case retryWithoutKey = "retry-without-key"
    /// The gateway is called before the payment's intent is durable: a crash between the call and the
    /// write sends the attempt again.
    case intentAfterCall = "intent-after-call"

    // The reference service.
    /// On restart, a payment whose attempt was sent is failed without asking the gateway.
    case noReconcileOnRestart = "no-reconcile-on-restart"
    /// A refund is booked twice.
    case refundTwice = "refund-twice"
    /// The service gives up one attempt early.
    case fewerAttempts = "fewer-attempts"
    /// A refund of a charge the store knows goes to the gateway without the amount check.
    case skipRefundChecks = "skip-refund-checks"
    /// The SQLite store does not count a refund against its charge.
    case sqliteUncountedRefund = "sqlite-uncounted-refund"
    /// The SQLite store on a simulated disk syncs with `synchronous = NORMAL`: in WAL mode a commit is
    /// not synced until a checkpoint.
    case sqliteSynchronousNormal = "sqlite-synchronous-normal"

    // The reference service's store itself (`DefectiveStore`).
    /// A failed write is kept: the store writes it whole, then reports the failure.
    case storeKeepsFailedWrites = "store-keeps-failed-writes"
    /// A settlement is acknowledged but never written.
    case storeLosesSettlements = "store-loses-settlements"
    /// A capture is booked twice.
    case storeBooksCapturesTwice = "store-books-captures-twice"
    /// Every outcome is written 1 ms slower than the service settled it.
    case storeRewritesLatency = "store-rewrites-latency"
    /// The records read back without the reason of a rejection.
    case storeDropsReasons = "store-drops-reasons"
    /// A failed or declined payment is written as captured (or refunded).
    case storeCapturesFailures = "store-captures-failures"
    /// Every intent fails to write.
    case storeNeverWritesIntents = "store-never-writes-intents"
    /// A final record reads back 1 ms slower each time it is read.
    case storeDriftingReplays = "store-drifting-replays"
    /// A user's ledger reads back with more refunded than captured, once a refund is booked.
    case storeNegativeLedger = "store-negative-ledger"

    // The ledger service.
    /// The ledger kept as a record updated by read, await, write, locked per key but not per user:
    /// actor reentrancy.
    case reentrancy
    /// No per-user lock: two concurrent submissions of one key both find no record and both charge.
    case checkThenAct = "check-then-act"
    /// Every attempt timed out: answered failed without asking the gateway whether it acted.
    case timeoutIsFailure = "timeout-is-failure"
    /// Answers before its writes are synced: a power loss after the answer loses the payment.
    case answerBeforeSync = "answer-before-sync"
    /// Acts on, or answers from, a record it found without syncing it first: after a crash or a
    /// failed sync the record may be in the cache only, and a power loss takes it away.
    case unsyncedRecovery = "unsynced-recovery"
    /// On SQLite, `PRAGMA synchronous = OFF`: commits are never synced, and a power loss takes
    /// acknowledged payments away.
    case sqliteSynchronousOff = "sqlite-synchronous-off"

    /// The services a flaw can be planted in.
    @_spi(Tooling) public enum Fixture: Sendable {
        /// `PaymentService`, planted from outside it (`ReferenceServicePlants`).
        case referenceService
        /// `LedgerService`, the async fixture of the seeded worlds.
        case ledgerService
    }

    /// Where the flaw can be planted.
    @_spi(Tooling) public var fixtures: Set<Fixture> {
        switch self {
        case .retryWithoutKey, .intentAfterCall: [.referenceService, .ledgerService]
        case .noReconcileOnRestart, .refundTwice, .fewerAttempts, .skipRefundChecks, .sqliteUncountedRefund, .sqliteSynchronousNormal,
             .storeKeepsFailedWrites, .storeLosesSettlements, .storeBooksCapturesTwice, .storeRewritesLatency, .storeDropsReasons,
             .storeCapturesFailures, .storeNeverWritesIntents, .storeDriftingReplays, .storeNegativeLedger:
            [.referenceService]
        case .reentrancy, .checkThenAct, .timeoutIsFailure, .answerBeforeSync, .unsyncedRecovery, .sqliteSynchronousOff: [.ledgerService]
        }
    }

    /// The flaws of `fixture`, in catalogue order.
    @_spi(Tooling) public static func planted(in fixture: Fixture) -> [PlantedFlaw] { allCases.filter { $0.fixtures.contains(fixture) } }

    /// Orders flaws by name (how a command line and a reproduce file list them).
    @_spi(Tooling) public static func < (lhs: PlantedFlaw, rhs: PlantedFlaw) -> Bool { lhs.rawValue < rhs.rawValue }
}
