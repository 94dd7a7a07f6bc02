@_spi(Tooling) import HealthCore
import PaymentsCore

/// Keeps what a `PartitionWorker` reports, as values, for the differential check to compare.
struct ResultRecorder: AnalysisObserver {
    var fastingDays: [(user: UInt32, day: FastingDay)] = []
    var summaries: [(user: UInt32, summary: FastingSummary)] = []
    var stepDays: [(user: UInt32, day: StepDay)] = []
    var outcomes: [(user: UInt32, ordinal: UInt32, outcome: PaymentOutcome)] = []
    var ledger: [(user: UInt32, entry: LedgerEntry)] = []

    mutating func fastingDay(user: UInt32, _ day: FastingDay) { fastingDays.append((user, day)) }

    mutating func fastingSummary(user: UInt32, _ result: FastingSummary, rejected: Int) { summaries.append((user, result)) }

    mutating func stepDay(user: UInt32, _ day: StepDay) { stepDays.append((user, day)) }

    mutating func outcome(user: UInt32, ordinal: UInt32, _ outcome: PaymentOutcome) { outcomes.append((user, ordinal, outcome)) }

    mutating func ledgerEntry(user: UInt32, _ entry: LedgerEntry) { ledger.append((user, entry)) }
}
