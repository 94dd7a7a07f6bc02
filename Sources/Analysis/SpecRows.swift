import HealthCore
import PaymentsCore

/// The rows of the SPEC output files after their first column (the id), shared by `analyze` and
/// the harness so both write the same bytes.
extension OutputBuffer {
    /// `,day,episodes,kcal,eating_window_s,fasts_ended,longest_fast_ended_s,compliant\n` of `fasting_daily.csv`.
    public mutating func fastingDayFields(_ day: FastingDay) {
        comma()
        self.day(day.day)
        comma()
        int(day.episodes)
        comma()
        micros3(day.kcalMicros)
        comma()
        int(day.eatingWindowSeconds)
        comma()
        int(day.fastsEnded)
        comma()
        int(day.longestFastEndedSeconds)
        comma()
        if let compliant = day.compliant { byte(compliant ? UInt8(ascii: "1") : UInt8(ascii: "0")) }
        newline()
    }

    /// `,meals,rejected,episodes,fasts,total_fast_s,longest_fast_s,evaluated_days,compliant_days\n`.
    public mutating func fastingSummaryFields(_ summary: FastingSummary, rejected: Int) {
        for value in [summary.meals, rejected, summary.episodes, summary.fasts] {
            comma()
            int(value)
        }
        for value in [summary.totalFastSeconds, summary.longestFastSeconds] {
            comma()
            int(value)
        }
        for value in [summary.evaluatedDays, summary.compliantDays] {
            comma()
            int(value)
        }
        newline()
    }

    /// `,day,steps,avg7\n` of `steps_daily.csv`.
    public mutating func stepDayFields(_ day: StepDay) {
        comma()
        self.day(day.day)
        comma()
        decimal3(day.steps)
        comma()
        decimal3(day.average7)
        newline()
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
