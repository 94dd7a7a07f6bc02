/// What a simulated world can find wrong, for both simulators: the sans-I/O worlds of SimHarness's own
/// service (`simharness simulate`) and the seeded worlds of an async service (`SimHarness.main(service:)`).
/// One catalogue, one wording: a report, a summary and a test name a violation by its `rawValue`.
@_spi(Tooling) public enum Invariant: String, CaseIterable, Sendable, Comparable {
    // Money and the gateway.

    /// The gateway moved money twice for one payment.
    case chargedTwice = "charged-twice"
    /// One attempt of one payment went to the gateway twice.
    case attemptSentTwice = "attempt-sent-twice"
    /// The gateway was sent other values than the client's (kind, amount, currency or user).
    case gatewayValues = "gateway-values"
    /// The gateway acted for a payment no client sent.
    case unknownPayment = "unknown-payment"
    /// Refunds of a charge exceed it.
    case refundExceedsCharge = "refund-exceeds-charge"
    /// The gateway refunded a charge it never took.
    case refundOfNothing = "refund-of-nothing"

    // What the service stored.

    /// A payment was settled twice.
    case settledTwice = "settled-twice"
    /// The store booked a capture or refund that the gateway never made.
    case bookedWithoutMoney = "booked-without-money"
    /// The gateway moved money for a payment the store settled otherwise.
    case moneyWithoutBooking = "money-without-booking"
    /// A charge's count of refunds differs from the refunds settled against it, in the store.
    case chargeMiscounted = "charge-miscounted"
    /// A user's refunds exceed their captures in one currency, in the store.
    case negativeBalance = "negative-balance"
    /// A failed transaction left part of its writes behind.
    case halfWritten = "half-written"
    /// A payment has no final state at the end.
    case noFinalState = "no-final-state"
    /// The ledger the service reads back differs from the gateway's money at the end.
    case ledgerDiffers = "ledger-differs"
    /// A SPEC §4 invariant of the ledger broke.
    case specInvariant = "spec-invariant"

    // What the clients were told.

    /// A client got two different final answers for one payment.
    case replayDiffers = "replay-differs"
    /// A client's answer differs from what the store holds.
    case answerDiffersFromStore = "answer-differs-from-store"
    /// A client was told captured or refunded, but the gateway never acted.
    case answeredWithoutMoney = "answered-without-money"
    /// The gateway moved money, but the client was told declined or failed.
    case moneyButAnsweredFailed = "money-but-answered-failed"
    /// A client got no answer after all its tries.
    case neverAnswered = "never-answered"
    /// A payment's outcome differs from the reference processor's for the same gateway answers.
    case differsFromReference = "differs-from-reference"

    // The world itself.

    /// The service's `start` threw.
    case startThrew = "start-threw"
    /// The service's `ledger` threw.
    case ledgerThrew = "ledger-threw"
    /// Work of the world ran where the world does not own it: another thread, a queue, a blocking wait.
    case nondeterminismEscaped = "nondeterminism-escaped"
    /// No job could run, and none came from outside.
    case deadlock
    /// The world ran more jobs than its limit.
    case stepLimit = "step-limit"
    /// The world did not finish within its time limit.
    case stalled
    /// One seed ran two ways in one process: something the world does not own chose between them.
    case nondeterministicWorld = "nondeterministic-world"
    /// The simulation itself failed (a bug of SimHarness, not of the service).
    case harnessError = "harness-error"

    @_spi(Tooling) public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}
