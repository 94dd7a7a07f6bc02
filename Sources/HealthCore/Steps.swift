/// The device that recorded a step sample; a higher rank wins where samples overlap (SPEC §3).
public enum StepSource: UInt8, CaseIterable, Sendable {
    /// A phone: counts only where no watch sample covers the instant.
    case phone = 0
    /// A watch: outranks a phone.
    case watch = 1

    /// The spelling in dataset files.
    public var name: String { spelling.description }

    /// The spelling in dataset files, as a literal (for writers that copy bytes).
    @inlinable package var spelling: StaticString { self == .phone ? "phone" : "watch" }
}

/// One accepted step sample of a user: `count` steps spread evenly over `[start, end)`.
public struct StepSample: Hashable, Sendable {
    /// Seconds since 1970 (UTC) the sample starts.
    public var start: Int64
    /// Seconds since 1970 (UTC) the sample ends (`> start`).
    public var end: Int64
    /// Steps counted, spread evenly over `[start, end)`.
    public var count: Double
    /// The device that counted them.
    public var source: StepSource

    /// A sample of `count` steps over `[start, end)`.
    @inlinable public init(start: Int64, end: Int64, count: Double, source: StepSource) {
        self.start = start
        self.end = end
        self.count = count
        self.source = source
    }

    /// The order in which the aggregator consumes a user's samples; ties are exact copies.
    @inlinable public static func precedes(_ a: StepSample, _ b: StepSample) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        if a.source != b.source { return a.source.rawValue < b.source.rawValue }
        return a.count < b.count
    }
}

/// Why a step row is rejected, in the order the checks run (SPEC §3).
@usableFromInline package enum StepRejection: String, CaseIterable, Sendable {
    /// A field the SPEC's grammar does not allow (SPEC §0).
    case malformed
    /// No accepted user of that id.
    case unknownUser = "unknown_user"
    /// `end <= start`, or `end − start` over 86,400 s.
    case badInterval = "bad_interval"
    /// `count` below 0.
    case negativeValue = "negative_value"
    /// A `sample_id` already accepted.
    case duplicate

    /// The longest accepted sample, in seconds.
    @usableFromInline package static let maximumDuration: Int64 = 86_400

    /// The rule checks that need only the sample's own values.
    @inlinable package static func check(start: Int64, end: Int64, count: Double) -> StepRejection? {
        let (duration, overflow) = end.subtractingReportingOverflow(start)
        if end <= start || overflow || duration > maximumDuration { return .badInterval }
        if count < 0 { return .negativeValue }
        return nil
    }
}

/// A row of `steps_daily.csv` without the user column.
public struct StepDay: Hashable, Sendable {
    /// The local day.
    public var day: LocalDay
    /// Steps counted on the day (pro rata across midnight).
    public var steps: Double
    /// The totals of this day and the 6 days before it, divided by 7.
    public var average7: Double

    /// A day of all its fields.
    public init(day: LocalDay, steps: Double, average7: Double) {
        self.day = day
        self.steps = steps
        self.average7 = average7
    }
}

/// The incremental step aggregator of one user: feed samples in `StepSample.precedes` order, get each
/// local day once no later sample can change it. A sweep over interval ends, never per second:
/// once samples arrive in start order, the watch coverage ahead of the sweep is a single interval.
@usableFromInline package struct StepAccumulator: Sendable {
    /// The user's fixed offset, in minutes east of UTC.
    @usableFromInline package private(set) var utcOffsetMinutes: Int32

    /// Everything before `sweep` is final.
    @usableFromInline var sweep = Int64.min
    /// The furthest end of any watch sample seen; all of them started at or before `sweep`.
    @usableFromInline var watchEnd = Int64.min
    /// Phone samples that still reach past `sweep`: the first `openPhoneCount` of `tables.phones`.
    /// Their rate, `count / Double(seconds)`, is computed where they count: most end under a watch
    /// and never do.
    @usableFromInline var openPhoneCount = 0
    /// The earliest end of the open phone samples (`Int64.max` when there is none).
    @usableFromInline var firstPhoneEnd = Int64.max
    /// Totals of the days from `pendingFirstDay` on, with whether a sample touched them: entries
    /// `pendingStart..<pendingCount` of `tables.days` (finished days are skipped, not removed, until
    /// all are).
    @usableFromInline var pendingFirstDay: Int64 = 0
    @usableFromInline var pendingStart = 0
    @usableFromInline var pendingCount = 0
    /// The memory of the open days and phones, copied on write.
    @usableFromInline var tables = StepTables.empty
    /// The totals of the last emitted day (last) and of the 6 days before it, oldest first, 0 for
    /// a day not emitted: the 7-day average's window, kept in place.
    private var week = InlineArray<7, Double>(repeating: 0)
    /// The last emitted day (`Int64.min` before the first).
    private var lastEmitted = Int64.min
    /// The local day `dayIndex` last computed and the UTC instants `[start, end)` it spans
    /// (empty until then): samples come in start order, so most lookups fall in it.
    @usableFromInline var lastDay: (index: Int64, start: Int64, end: Int64) = (0, 1, 0)

    /// An aggregator of one user, before any sample.
    @usableFromInline package init(utcOffsetMinutes: Int32) {
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Makes this an aggregator of the next user, before any sample, keeping its memory.
    @usableFromInline package mutating func reset(utcOffsetMinutes: Int32) {
        self.utcOffsetMinutes = utcOffsetMinutes
        sweep = .min
        watchEnd = .min
        openPhoneCount = 0
        firstPhoneEnd = .max
        pendingFirstDay = 0
        pendingStart = 0
        pendingCount = 0
        week = InlineArray(repeating: 0)
        lastEmitted = .min
        lastDay = (0, 1, 0)
    }

    /// Adds the next sample; calls `onDay` for each day this sample proves complete.
    @inlinable @inline(__always) package mutating func add(_ sample: StepSample, onDay: (StepDay) -> Void) {
        makeTablesUnique()
        append(sample, onDay: onDay)
    }

    /// Adds the next samples, in order, as `add(_:onDay:)` one at a time does, but checks once, not
    /// per sample, that the tables it writes are its own. (Inlinable, with the state it touches
    /// `@usableFromInline`: specialized in the caller's module for its `onDay`.)
    @inlinable package mutating func add(contentsOf samples: UnsafeBufferPointer<StepSample>, onDay: (StepDay) -> Void) {
        makeTablesUnique()
        for sample in samples { append(sample, onDay: onDay) }
    }

    /// Copies the tables when another accumulator shares them (a copy of this one was made).
    @inlinable @inline(__always) mutating func makeTablesUnique() {
        if !isKnownUniquelyReferenced(&tables) { tables = tables.copy(dayCount: pendingCount, phoneCount: openPhoneCount) }
    }

    /// `add` once the tables are this accumulator's own.
    @inlinable @inline(__always) mutating func append(_ sample: StepSample, onDay: (StepDay) -> Void) {
        let firstDay = dayIndex(sample.start)
        advance(to: sample.start, day: firstDay, onDay: onDay)
        let lastDay = dayIndex(sample.end - 1)
        let duration = sample.end - sample.start
        if firstDay == lastDay, sample.source == .watch {
            // Most samples: a watch sample within one day adds its count to that day.
            let day = entry(firstDay)
            day.pointee = (day.pointee.steps + sample.count, true)
            watchEnd = max(watchEnd, sample.end)
            return
        }
        if firstDay == lastDay {
            entry(firstDay).pointee.touched = true  // most phone samples: one day, no range to walk
        } else {
            for day in firstDay...lastDay { entry(day).pointee.touched = true }
        }
        switch sample.source {
        case .watch:
            spread(sample.count / Double(duration), from: sample.start, day: firstDay, to: sample.end, whole: sample.count)
            watchEnd = max(watchEnd, sample.end)
        case .phone:
            if openPhoneCount == tables.phoneCapacity { growPhones() }
            (tables.phones + openPhoneCount).initialize(to: (sample.end, sample.count, duration))
            openPhoneCount += 1
            firstPhoneEnd = min(firstPhoneEnd, sample.end)
        }
    }

    /// Steps per second of open phone `index`.
    @inlinable @inline(__always) func phoneRate(_ index: Int) -> Double {
        tables.phones[index].count / Double(tables.phones[index].seconds)
    }

    /// Whether the instants from `start` through `end` all lie on the local day of the last lookup.
    @inlinable @inline(__always) func onLastDay(from start: Int64, through end: Int64) -> Bool {
        start >= lastDay.start && end < lastDay.end
    }

    /// Counts what is left and emits the remaining days.
    @usableFromInline package mutating func finish(onDay: (StepDay) -> Void) {
        makeTablesUnique()
        advance(to: .max, day: .max, onDay: onDay)
    }

    /// Moves the sweep to `time`, whose local day is `day`: counts the phones up to it and emits
    /// the days before `day`.
    @inlinable @inline(__always) mutating func advance(to time: Int64, day finalBefore: Int64, onDay: (StepDay) -> Void) {
        if pendingFirstDay >= finalBefore || pendingCount == 0 {
            // Most samples: no day to emit, and then
            let uncoveredFrom = max(sweep, watchEnd)
            if time < firstPhoneEnd {
                if openPhoneCount == 0 || time <= uncoveredFrom {
                    // no phone to count (none open, or all under the watch) or to close,
                    sweep = time
                    return
                }
                if onLastDay(from: uncoveredFrom, through: time) {
                    // or the open phones count from where the watch stops up to `time`, all on one day (the
                    // day of the last lookup): what `advanceCountingAndEmitting` adds, in the same order,
                    let day = entry(lastDay.index)
                    for index in 0..<openPhoneCount { day.pointee.steps += phoneRate(index) * Double(time - uncoveredFrom) }
                    sweep = time
                    return
                }
            } else if openPhoneCount == 1, uncoveredFrom >= firstPhoneEnd || onLastDay(from: uncoveredFrom, through: time) {
                // or the one open phone closes, counted from where the watch stops to its end if it reaches
                // past it, on the day of the last lookup.
                if firstPhoneEnd > uncoveredFrom {
                    entry(lastDay.index).pointee.steps += phoneRate(0) * Double(firstPhoneEnd - uncoveredFrom)
                }
                openPhoneCount = 0
                firstPhoneEnd = .max
                sweep = time
                return
            }
        }
        advanceCountingAndEmitting(to: time, day: finalBefore, onDay: onDay)
    }

    @usableFromInline mutating func advanceCountingAndEmitting(to time: Int64, day finalBefore: Int64, onDay: (StepDay) -> Void) {
        if openPhoneCount > 0 {
            let uncoveredFrom = max(sweep, watchEnd)
            if time > uncoveredFrom {
                // Phones count only where no watch sample reaches: up to `time`, from where the watch stops.
                let uncoveredDay = dayIndex(uncoveredFrom)
                for index in 0..<openPhoneCount {
                    let upTo = min(time, tables.phones[index].end)
                    if upTo > uncoveredFrom { spread(phoneRate(index), from: uncoveredFrom, day: uncoveredDay, to: upTo, whole: nil) }
                }
            }
            if time >= firstPhoneEnd {
                var kept = 0
                firstPhoneEnd = .max
                for index in 0..<openPhoneCount where tables.phones[index].end > time {
                    if kept != index { tables.phones[kept] = tables.phones[index] }
                    firstPhoneEnd = min(firstPhoneEnd, tables.phones[kept].end)
                    kept += 1
                }
                openPhoneCount = kept
            }
        }
        sweep = time
        while pendingStart < pendingCount, pendingFirstDay < finalBefore {
            let entry = tables.days[pendingStart]
            if entry.touched { emit(day: pendingFirstDay, steps: entry.steps, onDay: onDay) }
            pendingStart += 1
            pendingFirstDay += 1
        }
        if pendingStart == pendingCount, pendingStart > 0 {
            pendingCount = 0
            pendingStart = 0
        }
    }

    private mutating func emit(day: Int64, steps: Double, onDay: (StepDay) -> Void) {
        // Days are emitted in increasing order: the window moves forward by the days since the last one.
        let moved = lastEmitted == .min ? 7 : Int(min(7, day - lastEmitted))
        for k in 0..<7 { week[k] = k + moved < 7 ? week[k + moved] : 0 }
        week[6] = steps
        // Oldest first, as the days came (adding a 0 changes no sum), so the average is the same to the bit.
        var total = 0.0
        for k in 0..<7 { total += week[k] }
        onDay(StepDay(day: LocalDay(index: day), steps: steps, average7: total / 7))
        lastEmitted = day
    }

    /// Adds `rate` steps per second over `[from, to)` to the days it crosses, `from` being on local
    /// day `day`; `whole` is the exact total when the interval is a whole sample.
    @usableFromInline mutating func spread(_ rate: Double, from: Int64, day fromDay: Int64, to: Int64, whole: Double?) {
        var t = from
        var day = fromDay
        while t < to {
            // The next day starts after `from`: it is only past Int64's range at the top, after `to`.
            let dayEnd = LocalDay(index: day + 1).exactStartInstant(utcOffsetMinutes: utcOffsetMinutes) ?? .max
            let segmentEnd = min(to, dayEnd)
            let amount = (t == from && segmentEnd == to && whole != nil) ? whole! : rate * Double(segmentEnd - t)
            entry(day).pointee.steps += amount
            t = segmentEnd
            day += 1
        }
    }

    /// The entry of `day` in `tables.days`, growing the window as needed. (Valid until the next
    /// call: growing moves the tables.)
    @inlinable @inline(__always) mutating func entry(_ day: Int64) -> UnsafeMutablePointer<StepTables.Day> {
        let index = slot(day)
        return tables.days + index
    }

    /// The index in `tables.days` of `day`, growing the window as needed.
    @inlinable @inline(__always) mutating func slot(_ day: Int64) -> Int {
        if pendingCount > 0, day < pendingFirstDay + Int64(pendingCount - pendingStart) { return pendingStart + Int(day - pendingFirstDay) }
        return grownSlot(day)
    }

    /// `slot` when `day` is past the window: the finished days before it are dropped first, so
    /// the window holds only open days.
    @usableFromInline mutating func grownSlot(_ day: Int64) -> Int {
        if pendingCount == 0 { pendingFirstDay = day }
        while day >= pendingFirstDay + Int64(pendingCount - pendingStart) {
            if pendingStart > 0 {
                pendingCount -= pendingStart
                tables.days.update(from: tables.days + pendingStart, count: pendingCount)
                pendingStart = 0
            }
            if pendingCount == tables.dayCapacity {
                tables = tables.copy(dayCount: pendingCount, phoneCount: openPhoneCount, days: 2 * pendingCount)
            }
            (tables.days + pendingCount).initialize(to: (0, false))
            pendingCount += 1
        }
        return pendingStart + Int(day - pendingFirstDay)
    }

    /// Doubles the room for open phones.
    @usableFromInline mutating func growPhones() {
        tables = tables.copy(dayCount: pendingCount, phoneCount: openPhoneCount, phones: 2 * openPhoneCount)
    }

    /// The local day of instant `t`: two comparisons when it is the day of the last lookup.
    @inlinable @inline(__always) mutating func dayIndex(_ t: Int64) -> Int64 {
        if t >= lastDay.start, t < lastDay.end { return lastDay.index }
        return lookUpDay(t)
    }

    /// `dayIndex` by division, remembering the day's span (unless it reaches past `Int64`'s range).
    @usableFromInline mutating func lookUpDay(_ t: Int64) -> Int64 {
        let day = LocalDay(instant: t, utcOffsetMinutes: utcOffsetMinutes).index
        let span = LocalDay(index: day).instants(utcOffsetMinutes: utcOffsetMinutes) ?? (1, 0)
        lastDay = (day, span.start, span.end)
        return day
    }
}

/// The batch step aggregator: a user's samples in any order.
@usableFromInline package enum StepAggregator {
    /// Aggregates a user's samples in any order into their local days, in order.
    @usableFromInline package static func aggregate(_ samples: [StepSample], utcOffsetMinutes: Int32) -> [StepDay] {
        var days: [StepDay] = []
        var accumulator = StepAccumulator(utcOffsetMinutes: utcOffsetMinutes)
        samples.sorted(by: StepSample.precedes).withUnsafeBufferPointer { accumulator.add(contentsOf: $0) { days.append($0) } }
        accumulator.finish { days.append($0) }
        return days
    }
}
