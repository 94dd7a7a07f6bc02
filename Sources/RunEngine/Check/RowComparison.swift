import DatasetText
import Foundation
@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import RunResults

/// Compares what an implementation reported with what the reference reported for the same users,
/// output row by output row and field by field, and collects the differences.
struct RowComparison {
    /// The differences that are listed one by one; all are counted.
    let listed: Int
    private(set) var mismatches = 0
    private(set) var byField: [String: Int] = [:]
    private(set) var found: [Mismatch] = []

    init(listed: Int) {
        self.listed = listed
    }

    /// Compares every output file's rows of `theirs` with `reference`'s.
    mutating func compare(_ theirs: ResultRecorder, with reference: ResultRecorder) {
        join(theirs.fastingDays, reference.fastingDays, file: "fasting_daily", key: { ($0.user, $0.day.day.index) },
             row: { "day \($0.day.day.isoString)" }) { a, b in [
            column("episodes", a.day.episodes, b.day.episodes),
            column("kcal", Kcal(a.day.kcalMicros), Kcal(b.day.kcalMicros)),
            column("eating_window_s", a.day.eatingWindowSeconds, b.day.eatingWindowSeconds),
            column("fasts_ended", a.day.fastsEnded, b.day.fastsEnded),
            column("longest_fast_ended_s", a.day.longestFastEndedSeconds, b.day.longestFastEndedSeconds),
            column("compliant", Compliance(a.day.compliant), Compliance(b.day.compliant)),
        ] }
        join(theirs.summaries, reference.summaries, file: "fasting_summary", key: { ($0.user, 0) }, row: { _ in "summary" }) { a, b in [
            column("meals", a.summary.meals, b.summary.meals),
            column("episodes", a.summary.episodes, b.summary.episodes),
            column("fasts", a.summary.fasts, b.summary.fasts),
            column("total_fast_s", a.summary.totalFastSeconds, b.summary.totalFastSeconds),
            column("longest_fast_s", a.summary.longestFastSeconds, b.summary.longestFastSeconds),
            column("evaluated_days", a.summary.evaluatedDays, b.summary.evaluatedDays),
            column("compliant_days", a.summary.compliantDays, b.summary.compliantDays),
        ] }
        join(theirs.stepDays, reference.stepDays, file: "steps_daily", key: { ($0.user, $0.day.day.index) },
             row: { "day \($0.day.day.isoString)" }) { a, b in [
            column("steps", Steps(a.day.steps), Steps(b.day.steps)),
            column("avg7", Steps(a.day.average7), Steps(b.day.average7)),
        ] }
        join(theirs.outcomes, reference.outcomes, file: "payments_outcomes", key: { ($0.user, Int64($0.ordinal)) },
             row: { "payment \(Self.paymentId(user: $0.user, ordinal: $0.ordinal))" }) { a, b in [
            column("state", a.outcome.state.rawValue, b.outcome.state.rawValue),
            column("reason", a.outcome.reason?.rawValue ?? "", b.outcome.reason?.rawValue ?? ""),
            column("attempts", a.outcome.attempts, b.outcome.attempts),
        ] }
        join(theirs.ledger, reference.ledger, file: "payments_ledger", key: { ($0.user, Int64($0.entry.currency.rawValue)) },
             row: { "ledger \($0.entry.currency.code)" }) { a, b in [
            column("captured_minor", a.entry.capturedMinor, b.entry.capturedMinor),
            column("refunded_minor", a.entry.refundedMinor, b.entry.refundedMinor),
        ] }
    }

    /// The first `listed` differences, in user order (within a user: by file, then row).
    var listedInUserOrder: [Mismatch] {
        Array(found.enumerated().sorted { ($0.element.user, $0.offset) < ($1.element.user, $1.offset) }.map(\.element).prefix(listed))
    }

    /// One column of a row: its name, the implementation's value and the reference's.
    typealias Field = (name: String, value: any Equatable & CustomStringConvertible, reference: any Equatable & CustomStringConvertible)

    /// Joins the rows of one output file by key (user, then day, payment or currency), compares the
    /// rows both sides have with `fields`, and counts a row that one side lacks as one mismatch.
    private mutating func join<Row>(
        _ theirs: [Row], _ reference: [Row], file: String, key: (Row) -> (UInt32, Int64), row: (Row) -> String,
        fields: (Row, Row) -> [Field]
    ) {
        let a = theirs.sorted { key($0) < key($1) }, b = reference.sorted { key($0) < key($1) }
        var i = 0, j = 0
        while i < a.count || j < b.count {
            let ka = i < a.count ? key(a[i]) : nil, kb = j < b.count ? key(b[j]) : nil
            if let ka, let kb, ka == kb {
                for (field, value, expected) in fields(a[i], b[j]) where !value.isEqual(to: expected) {
                    record(user: ka.0, row: row(a[i]), field: "\(file).\(field)", value: "\(value)", reference: "\(expected)")
                }
                i += 1
                j += 1
            } else if let ka, kb.map({ ka < $0 }) ?? true {
                record(user: ka.0, row: row(a[i]), field: file, value: "a row", reference: "no row")
                i += 1
            } else {
                record(user: kb!.0, row: row(b[j]), field: file, value: "no row", reference: "a row")
                j += 1
            }
        }
    }

    private mutating func record(user: UInt32, row: String, field: String, value: String, reference: String) {
        mismatches += 1
        byField[field, default: 0] += 1
        if found.count < listed { found.append(Mismatch(user: Ids.user(user), row: row, field: field, value: value, reference: reference)) }
    }

    /// A payment's id as `generate` writes it: `p0000042-000017`.
    static func paymentId(user: UInt32, ordinal: UInt32) -> String {
        let digits = String(ordinal)
        return "p" + Ids.user(user).dropFirst() + "-" + String(repeating: "0", count: max(0, Ids.ordinalWidth - digits.count)) + digits
    }
}

/// A column of both sides' rows, as `RowComparison.Field`.
private func column<Value: Equatable & CustomStringConvertible>(_ name: String, _ value: Value, _ reference: Value) -> RowComparison.Field {
    (name, value, reference)
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: any Equatable) -> Bool { (other as? Self) == self }
}

/// kcal in millionths, printed as the output file prints it (3 decimals).
private struct Kcal: Equatable, CustomStringConvertible {
    let micros: Int64
    init(_ micros: Int64) { self.micros = micros }
    var description: String { String(format: "%.3f", Double(micros) / 1e6) }
}

/// `compliant`: `1`, `0`, or empty when the day is not evaluated.
private struct Compliance: Equatable, CustomStringConvertible {
    let value: Bool?
    init(_ value: Bool?) { self.value = value }
    var description: String { value.map { $0 ? "1" : "0" } ?? "(empty)" }
}

/// A step count, equal to another when they differ by less than a millionth (relative): two
/// correct implementations may add the same parts in a different order.
private struct Steps: Equatable, CustomStringConvertible {
    let value: Double
    init(_ value: Double) { self.value = value }
    /// (Two equal infinities are equal, as are two NaNs: the output file prints them alike.)
    static func == (a: Steps, b: Steps) -> Bool {
        a.value == b.value || (a.value.isNaN && b.value.isNaN) || abs(a.value - b.value) <= 1e-6 * max(1, abs(a.value), abs(b.value))
    }
    var description: String { String(format: "%.3f", value) }
}
