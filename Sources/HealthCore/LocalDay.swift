/// A user's local calendar day: days since 1970-01-01 in the user's fixed UTC offset (SPEC §0).
public struct LocalDay: Hashable, Comparable, Sendable {
    /// Seconds in a day.
    @usableFromInline package static let secondsPerDay: Int64 = 86_400

    /// Days since 1970-01-01; negative before it.
    public var index: Int64

    /// The day `index` days after 1970-01-01.
    @inlinable public init(index: Int64) { self.index = index }

    /// The local day of instant `t` (seconds since the epoch, UTC) for a user `utcOffsetMinutes` east of UTC:
    /// exact for every `t`, also where `t + 60 × offset` lies past Int64's range.
    @inlinable public init(instant t: Int64, utcOffsetMinutes: Int32) {
        let (local, overflow) = t.addingReportingOverflow(60 &* Int64(utcOffsetMinutes))
        index = overflow ? LocalDay.dayPastInt64(t, utcOffsetMinutes: utcOffsetMinutes) : LocalDay.floorDiv(local, LocalDay.secondsPerDay)
    }

    /// `init(instant:)` where `t + 60 × offset` lies past Int64's range: the UTC day of `t` first; the
    /// offset then moves the seconds left over (0..<86,400, exact although the product may wrap) by
    /// less than a day either way.
    @usableFromInline @inline(never) static func dayPastInt64(_ t: Int64, utcOffsetMinutes: Int32) -> Int64 {
        let utcDay = floorDiv(t, secondsPerDay)
        let left = t &- utcDay &* secondsPerDay + 60 * Int64(utcOffsetMinutes)
        return utcDay + floorDiv(left, secondsPerDay)
    }

    /// The UTC instant at which this local day starts for a user `utcOffsetMinutes` east of UTC
    /// (wrapping around past Int64's range: see `exactStartInstant`).
    @inlinable package func startInstant(utcOffsetMinutes: Int32) -> Int64 {
        index &* LocalDay.secondsPerDay &- 60 &* Int64(utcOffsetMinutes)
    }

    /// The UTC instant at which this local day starts, or `nil` when it lies outside Int64's range
    /// (the start of the first day of that range, the start of the day after its last).
    @inlinable package func exactStartInstant(utcOffsetMinutes: Int32) -> Int64? {
        let (midnight, wide) = index.multipliedReportingOverflow(by: LocalDay.secondsPerDay)
        let (start, early) = midnight.subtractingReportingOverflow(60 &* Int64(utcOffsetMinutes))
        if !wide { return early ? nil : start }
        return startPastInt64(utcOffsetMinutes: utcOffsetMinutes)
    }

    /// `exactStartInstant` when UTC midnight lies past Int64's range: the local start may not (the
    /// last day of a user east of UTC).
    @usableFromInline @inline(never) func startPastInt64(utcOffsetMinutes: Int32) -> Int64? {
        Int64(exactly: Int128(index) * Int128(LocalDay.secondsPerDay) - Int128(60 * Int64(utcOffsetMinutes)))
    }

    /// The UTC instants `[start, end)` of this local day, or `nil` when one of them lies outside
    /// Int64's range.
    @inlinable package func instants(utcOffsetMinutes: Int32) -> (start: Int64, end: Int64)? {
        guard let start = exactStartInstant(utcOffsetMinutes: utcOffsetMinutes) else { return nil }
        let (end, late) = start.addingReportingOverflow(LocalDay.secondsPerDay)
        return late ? nil : (start, end)
    }

    /// Earlier days come first.
    @inlinable public static func < (a: LocalDay, b: LocalDay) -> Bool { a.index < b.index }

    @inlinable static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// The proleptic Gregorian date (Howard Hinnant's `civil_from_days`).
    @usableFromInline package var civil: (year: Int64, month: Int, day: Int) {
        let z = index + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// `YYYY-MM-DD`, as written in dataset files.
    @usableFromInline package var isoString: String {
        let c = civil
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(abs(v))
            return (v < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(c.year, 4))-\(pad(Int64(c.month), 2))-\(pad(Int64(c.day), 2))"
    }
}
