@_spi(Tooling) import HealthCore
import PaymentsCore

/// The output files of SPEC §2–§5, their names and headers.
public enum SpecOutputFile: String, CaseIterable, Sendable {
    case fastingSummary = "fasting_summary.csv"
    case fastingDaily = "fasting_daily.csv"
    case stepsDaily = "steps_daily.csv"
    case paymentsOutcomes = "payments_outcomes.csv"
    case paymentsLedger = "payments_ledger.csv"
    case totals = "totals.json"

    /// The header line of a CSV file (without its line feed); `nil` for `totals.json`.
    package var header: String? {
        switch self {
        case .fastingSummary: "user_id,meals,rejected,episodes,fasts,total_fast_s,longest_fast_s,evaluated_days,compliant_days"
        case .fastingDaily: "user_id,day,episodes,kcal,eating_window_s,fasts_ended,longest_fast_ended_s,compliant"
        case .stepsDaily: "user_id,day,steps,avg7"
        case .paymentsOutcomes: "payment_id,state,reason,attempts"
        case .paymentsLedger: "user_id,currency,captured_minor,refunded_minor,balance_minor"
        case .totals: nil
        }
    }
}

/// Formats the rows of the SPEC output files into a `ByteBuffer`. `analyze` and `run --out` both
/// write through it, so they write the same bytes. Each row starts with its id (`id(_:)` or
/// `simulatedId…`), then the fields of one of the row methods.
public struct SpecRowWriter: Sendable {
    /// The bytes written so far.
    public let buffer: ByteBuffer
    private var days = DayTexts()

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 1 << 16) { buffer = ByteBuffer(capacity: capacity) }

    /// A buffer that starts with the header line of `file`.
    public init(headerOf file: SpecOutputFile) {
        self.init(capacity: 1 << 12)
        if let header = file.header { buffer.line(header) }
    }

    /// An id given as its bytes.
    public mutating func id(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }

    /// The id of the simulator's user `index` (`u0000042`).
    public mutating func simulatedUserId(_ index: UInt32) {
        buffer.row(maxBytes: ByteCursor.numberBytes) { $0.id(Ids.user, UInt64(index)) }
    }

    /// The id of the simulator's payment `ordinal` of user `index` (`p0000042-000017`).
    public mutating func simulatedPaymentId(user index: UInt32, ordinal: UInt32) {
        buffer.row(maxBytes: 2 * ByteCursor.numberBytes) { $0.id(Ids.payment, owner: UInt64(index), ordinal: UInt64(ordinal)) }
    }

    /// `,day,episodes,kcal,eating_window_s,fasts_ended,longest_fast_ended_s,compliant\n` of `fasting_daily.csv`.
    public mutating func fastingDayFields(_ day: FastingDay) {
        let date = days.text(of: day.day)
        buffer.row(maxBytes: 8 * ByteCursor.numberBytes) { row in
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
        buffer.row(maxBytes: 9 * ByteCursor.numberBytes) { row in
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
        let date = days.text(of: day.day)
        buffer.row(maxBytes: 2 * ByteCursor.numberBytes + 2 * ByteCursor.decimal3Bytes) { row in
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
        let state = outcome.state.rawValue, reason = outcome.reason?.rawValue ?? ""
        buffer.row(maxBytes: state.utf8.count + reason.utf8.count + ByteCursor.numberBytes + 4) { row in
            row.comma()
            row.text(state)
            row.comma()
            row.text(reason)
            row.comma()
            row.int(outcome.attempts)
            row.newline()
        }
    }

    /// `,currency,captured_minor,refunded_minor,balance_minor\n` of `payments_ledger.csv`.
    public mutating func ledgerFields(_ entry: LedgerEntry) {
        let code = entry.currency.code
        buffer.row(maxBytes: code.utf8.count + 3 * ByteCursor.numberBytes + 5) { row in
            row.comma()
            row.text(code)
            row.comma()
            row.int(entry.capturedMinor)
            row.comma()
            row.int(entry.refundedMinor)
            row.comma()
            row.int(entry.balanceMinor)
            row.newline()
        }
    }
}
