import DatasetText
@_spi(Tooling) import HealthCore
import PaymentsCore

/// What a `PartitionWorker` reports of each user it analyzes, in batch order: the rows of the
/// SPEC output files as values.
protocol AnalysisObserver {
    /// A `fasting_daily.csv` row.
    mutating func fastingDay(user: UInt32, _ day: FastingDay)
    /// A `fasting_summary.csv` row.
    mutating func fastingSummary(user: UInt32, _ result: FastingSummary, rejected: Int)
    /// A `steps_daily.csv` row.
    mutating func stepDay(user: UInt32, _ day: StepDay)
    /// A `payments_outcomes.csv` row (the payment's ordinal among the user's rows).
    mutating func outcome(user: UInt32, ordinal: UInt32, _ outcome: PaymentOutcome)
    /// A `payments_ledger.csv` row.
    mutating func ledgerEntry(user: UInt32, _ entry: LedgerEntry)
}

/// The rows of the SPEC output files that one batch contributes, formatted by Datasets'
/// `SpecRowWriter`, as `analyze` formats them.
struct BatchOutput: AnalysisObserver, Sendable {
    var summary = SpecRowWriter(capacity: 1 << 12)
    var daily = SpecRowWriter(capacity: 1 << 14)
    var steps = SpecRowWriter(capacity: 1 << 14)
    var outcomes = SpecRowWriter(capacity: 1 << 14)
    var ledger = SpecRowWriter(capacity: 1 << 12)

    /// A `fasting_daily.csv` row.
    mutating func fastingDay(user: UInt32, _ day: FastingDay) {
        daily.simulatedUserId(user)
        daily.fastingDayFields(day)
    }

    /// A `fasting_summary.csv` row.
    mutating func fastingSummary(user: UInt32, _ result: FastingSummary, rejected: Int) {
        summary.simulatedUserId(user)
        summary.fastingSummaryFields(result, rejected: rejected)
    }

    /// A `steps_daily.csv` row.
    mutating func stepDay(user: UInt32, _ day: StepDay) {
        steps.simulatedUserId(user)
        steps.stepDayFields(day)
    }

    /// A `payments_outcomes.csv` row.
    mutating func outcome(user: UInt32, ordinal: UInt32, _ outcome: PaymentOutcome) {
        outcomes.simulatedPaymentId(user: user, ordinal: ordinal)
        outcomes.outcomeFields(outcome)
    }

    /// A `payments_ledger.csv` row.
    mutating func ledgerEntry(user: UInt32, _ entry: LedgerEntry) {
        ledger.simulatedUserId(user)
        ledger.ledgerFields(entry)
    }
}
