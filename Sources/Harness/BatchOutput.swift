import Analysis
import HealthCore
import PaymentsCore
import Simulation

/// The rows of the SPEC output files that one batch contributes, formatted exactly as `analyze`
/// formats them (its `OutputBuffer`).
struct BatchOutput: Sendable {
    var summary = OutputBuffer(capacity: 1 << 12)
    var daily = OutputBuffer(capacity: 1 << 14)
    var steps = OutputBuffer(capacity: 1 << 14)
    var outcomes = OutputBuffer(capacity: 1 << 14)
    var ledger = OutputBuffer(capacity: 1 << 12)

    /// A `fasting_daily.csv` row.
    mutating func fastingDay(user: UInt32, _ day: FastingDay) {
        daily.userId(user)
        daily.fastingDayFields(day)
    }

    /// A `fasting_summary.csv` row.
    mutating func fastingSummary(user: UInt32, _ result: FastingSummary, rejected: Int) {
        summary.userId(user)
        summary.fastingSummaryFields(result, rejected: rejected)
    }

    /// A `steps_daily.csv` row.
    mutating func stepDay(user: UInt32, _ day: StepDay) {
        steps.userId(user)
        steps.stepDayFields(day)
    }

    /// A `payments_outcomes.csv` row.
    mutating func outcome(user: UInt32, ordinal: UInt32, _ outcome: PaymentOutcome) {
        outcomes.paddedId(UInt8(ascii: "p"), UInt64(user), width: Ids.userWidth)
        outcomes.byte(UInt8(ascii: "-"))
        outcomes.padded(UInt64(ordinal), width: Ids.ordinalWidth)
        outcomes.outcomeFields(outcome)
    }

    /// A `payments_ledger.csv` row.
    mutating func ledgerEntry(user: UInt32, _ entry: LedgerEntry) {
        ledger.userId(user)
        ledger.ledgerFields(entry)
    }
}

extension OutputBuffer {
    /// `u` and the user index in `Ids.userWidth` digits, as the simulator spells user ids.
    mutating func userId(_ user: UInt32) {
        paddedId(UInt8(ascii: "u"), UInt64(user), width: Ids.userWidth)
    }

    mutating func paddedId(_ prefix: UInt8, _ value: UInt64, width: Int) {
        byte(prefix)
        padded(value, width: width)
    }

    /// `value` in decimal with leading zeros up to `width` digits.
    mutating func padded(_ value: UInt64, width: Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        for _ in digits..<max(digits, width) { byte(UInt8(ascii: "0")) }
        unsigned(value)
    }
}
