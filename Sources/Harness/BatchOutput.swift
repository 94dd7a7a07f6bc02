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
        daily.comma()
        daily.day(day.day)
        daily.comma()
        daily.int(day.episodes)
        daily.comma()
        daily.micros3(day.kcalMicros)
        daily.comma()
        daily.int(day.eatingWindowSeconds)
        daily.comma()
        daily.int(day.fastsEnded)
        daily.comma()
        daily.int(day.longestFastEndedSeconds)
        daily.comma()
        if let compliant = day.compliant { daily.byte(compliant ? UInt8(ascii: "1") : UInt8(ascii: "0")) }
        daily.newline()
    }

    /// A `fasting_summary.csv` row.
    mutating func fastingSummary(user: UInt32, _ result: FastingSummary, rejected: Int) {
        summary.userId(user)
        for value in [result.meals, rejected, result.episodes, result.fasts] {
            summary.comma()
            summary.int(value)
        }
        for value in [result.totalFastSeconds, result.longestFastSeconds] {
            summary.comma()
            summary.int(value)
        }
        summary.comma()
        summary.int(result.evaluatedDays)
        summary.comma()
        summary.int(result.compliantDays)
        summary.newline()
    }

    /// A `steps_daily.csv` row.
    mutating func stepDay(user: UInt32, _ day: StepDay) {
        steps.userId(user)
        steps.comma()
        steps.day(day.day)
        steps.comma()
        steps.decimal3(day.steps)
        steps.comma()
        steps.decimal3(day.average7)
        steps.newline()
    }

    /// A `payments_outcomes.csv` row.
    mutating func outcome(user: UInt32, ordinal: UInt32, _ outcome: PaymentOutcome) {
        outcomes.paddedId(UInt8(ascii: "p"), UInt64(user), width: Ids.userWidth)
        outcomes.byte(UInt8(ascii: "-"))
        outcomes.padded(UInt64(ordinal), width: Ids.ordinalWidth)
        outcomes.comma()
        outcomes.text(outcome.state.rawValue)
        outcomes.comma()
        if let reason = outcome.reason { outcomes.text(reason.rawValue) }
        outcomes.comma()
        outcomes.int(outcome.attempts)
        outcomes.newline()
    }

    /// A `payments_ledger.csv` row.
    mutating func ledgerEntry(user: UInt32, _ entry: LedgerEntry) {
        ledger.userId(user)
        ledger.comma()
        ledger.text(entry.currency.code)
        for value in [entry.capturedMinor, entry.refundedMinor, entry.balanceMinor] {
            ledger.comma()
            ledger.int(value)
        }
        ledger.newline()
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
