import HealthCore
import PaymentsCore

/// The rows of the SPEC output files after their first column (the id), shared by `analyze` and
/// the harness so both write the same bytes.
extension OutputBuffer {
    /// `,day,episodes,kcal,eating_window_s,fasts_ended,longest_fast_ended_s,compliant\n` of `fasting_daily.csv`.
    public mutating func fastingDayFields(_ day: FastingDay) {
        let date = dayText(day.day)
        row(maxBytes: 8 * RowCursor.intBytes) { row in
            row.comma()
            row.day(day.day, text: date)
            row.comma()
            row.int(day.episodes)
            row.comma()
            row.micros3(day.kcalMicros)
            row.comma()
            row.int(day.eatingWindowSeconds)
            row.comma()
            row.int(day.fastsEnded)
            row.comma()
            row.int(day.longestFastEndedSeconds)
            row.comma()
            if let compliant = day.compliant { row.byte(compliant ? UInt8(ascii: "1") : UInt8(ascii: "0")) }
            row.newline()
        }
    }

    /// `,meals,rejected,episodes,fasts,total_fast_s,longest_fast_s,evaluated_days,compliant_days\n`.
    public mutating func fastingSummaryFields(_ summary: FastingSummary, rejected: Int) {
        row(maxBytes: 9 * RowCursor.intBytes) { row in
            row.comma()
            row.int(summary.meals)
            row.comma()
            row.int(rejected)
            row.comma()
            row.int(summary.episodes)
            row.comma()
            row.int(summary.fasts)
            row.comma()
            row.int(summary.totalFastSeconds)
            row.comma()
            row.int(summary.longestFastSeconds)
            row.comma()
            row.int(summary.evaluatedDays)
            row.comma()
            row.int(summary.compliantDays)
            row.newline()
        }
    }

    /// `,day,steps,avg7\n` of `steps_daily.csv`.
    public mutating func stepDayFields(_ day: StepDay) {
        let date = dayText(day.day)
        row(maxBytes: 4 * RowCursor.intBytes) { row in
            row.comma()
            row.day(day.day, text: date)
            row.comma()
            row.decimal3(day.steps)
            row.comma()
            row.decimal3(day.average7)
            row.newline()
        }
    }

    /// `,state,reason,attempts\n` of `payments_outcomes.csv`.
    public mutating func outcomeFields(_ outcome: PaymentOutcome) {
        comma()
        text(outcome.state.rawValue)
        comma()
        if let reason = outcome.reason { text(reason.rawValue) }
        comma()
        int(outcome.attempts)
        newline()
    }

    /// `,currency,captured_minor,refunded_minor,balance_minor\n` of `payments_ledger.csv`.
    public mutating func ledgerFields(_ entry: LedgerEntry) {
        comma()
        text(entry.currency.code)
        for value in [entry.capturedMinor, entry.refundedMinor, entry.balanceMinor] {
            comma()
            int(value)
        }
        newline()
    }
}
