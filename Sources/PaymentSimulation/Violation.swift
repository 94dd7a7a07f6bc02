/// An invariant a simulated world checks, after every step or at its end.
package enum Invariant: String, CaseIterable, Sendable, Comparable {
    /// The gateway moved money twice for one payment.
    case chargedTwice = "charged-twice"
    /// One attempt of one payment went to the gateway twice.
    case attemptSentTwice = "attempt-sent-twice"
    /// A payment was settled twice.
    case settledTwice = "settled-twice"
    /// The store booked a capture or refund that the gateway never made.
    case bookedWithoutMoney = "booked-without-money"
    /// The gateway moved money for a payment the store settled otherwise.
    case moneyWithoutBooking = "money-without-booking"
    /// Refunds of a charge exceed it.
    case refundExceedsCharge = "refund-exceeds-charge"
    /// A charge's count of refunds differs from the refunds settled against it, in the store.
    case chargeMiscounted = "charge-miscounted"
    /// A user's refunds exceed their captures in one currency, in the store.
    case negativeBalance = "negative-balance"
    /// A client got two different final answers for one payment.
    case replayDiffers = "replay-differs"
    /// A failed transaction left part of its writes behind.
    case halfWritten = "half-written"
    /// A payment has no final state at the end.
    case noFinalState = "no-final-state"
    /// The ledger and the gateway's money differ at the end.
    case ledgerDiffers = "ledger-differs"
    /// A client's answer differs from what the store holds.
    case answerDiffersFromStore = "answer-differs-from-store"
    /// A SPEC §4 invariant broke (`PaymentInvariants`).
    case specInvariant = "spec-invariant"
    /// A payment's outcome differs from the batch processor's for the same answers.
    case differsFromReference = "differs-from-reference"
    /// The world did not finish within its time limit.
    case stalled

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A broken invariant, where it broke, and what happened to the payment before.
package struct Violation: Hashable, Sendable {
    /// The invariant.
    package var invariant: Invariant
    /// What is wrong.
    package var message: String
    /// The world's step at which it was seen.
    package var step: Int
    /// Its simulated time, in milliseconds.
    package var timeMillis: Int64
    /// The payment concerned, if one is.
    package var payment: UInt32?
    /// The payment's recent events, oldest first.
    package var history: [String]
}
