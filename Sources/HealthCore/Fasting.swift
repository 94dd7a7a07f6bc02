/// One accepted meal of a user: the only fields the fasting analyzer needs.
public struct Meal: Hashable, Sendable {
    /// Seconds since 1970 (UTC) the meal started.
    public var start: Int64
    /// Seconds since 1970 (UTC) the meal ended (`>= start`).
    public var end: Int64
    /// Energy in millionths of a kcal, so day sums are exact and independent of order.
    public var kcalMicros: Int64

    /// A meal of `kcalMicros` millionths of a kcal.
    @inlinable public init(start: Int64, end: Int64, kcalMicros: Int64) {
        self.start = start
        self.end = end
        self.kcalMicros = kcalMicros
    }

    /// The order in which the analyzer consumes a user's meals (SPEC §2 step 1).
    @inlinable public static func precedes(_ a: Meal, _ b: Meal) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        return a.kcalMicros < b.kcalMicros
    }
}

/// Why a meal row is rejected, in the order the checks run (SPEC §2).
@usableFromInline package enum MealRejection: String, CaseIterable, Sendable {
    /// A field the SPEC's grammar does not allow (SPEC §0).
    case malformed
    /// No accepted user of that id.
    case unknownUser = "unknown_user"
    /// `end < start`.
    case endBeforeStart = "end_before_start"
    /// `end − start` over 14,400 s.
    case tooLong = "too_long"
    /// `kcal` or a macro below 0.
    case negativeValue = "negative_value"
    /// A `meal_id` already accepted.
    case duplicate

    /// The longest accepted meal, in seconds.
    @usableFromInline package static let maximumDuration: Int64 = 14_400

    /// The rule checks that need only the meal's own values (after `malformed` and `unknown_user`,
    /// before `duplicate`).
    @inlinable package static func check(start: Int64, end: Int64, hasNegativeValue: Bool) -> MealRejection? {
        if end < start { return .endBeforeStart }
        let (duration, overflow) = end.subtractingReportingOverflow(start)
        if overflow || duration > maximumDuration { return .tooLong }
        if hasNegativeValue { return .negativeValue }
        return nil
    }
}

/// What the fasting analyzer needs to know about a user.
@usableFromInline package struct FastingConfiguration: Sendable {
    /// The shortest gap between episodes that counts as a fast (default 3 hours).
    @usableFromInline package static let defaultMinimumFast: Int64 = 10_800

    /// The user's fixed offset, in minutes east of UTC.
    @usableFromInline package var utcOffsetMinutes: Int32
    /// The user's protocol (its eating-window limit).
    @usableFromInline package var fastingProtocol: FastingProtocol
    /// `min_fast`: the shortest gap that counts as a fast.
    @usableFromInline package var minimumFastSeconds: Int64

    /// The settings of one user's analysis.
    @usableFromInline package init(utcOffsetMinutes: Int32, fastingProtocol: FastingProtocol, minimumFastSeconds: Int64 = defaultMinimumFast) {
        self.utcOffsetMinutes = utcOffsetMinutes
        self.fastingProtocol = fastingProtocol
        self.minimumFastSeconds = minimumFastSeconds
    }
}

/// A row of `fasting_daily.csv`: one local day of a user that has an eating episode.
public struct FastingDay: Hashable, Sendable {
    /// The local day.
    public var day: LocalDay
    /// Eating episodes that start on the day.
    public var episodes: Int
    /// kcal of the day's episodes, in millionths.
    public var kcalMicros: Int64
    /// End of the day's last episode less the start of its first.
    public var eatingWindowSeconds: Int64
    /// Fasts that end on the day.
    public var fastsEnded: Int
    /// The longest of those fasts (0 when none).
    public var longestFastEndedSeconds: Int64
    /// `nil` when the day is not evaluated (protocol `none`).
    public var compliant: Bool?

    /// A day of all its fields.
    @inlinable public init(
        day: LocalDay, episodes: Int, kcalMicros: Int64, eatingWindowSeconds: Int64, fastsEnded: Int, longestFastEndedSeconds: Int64,
        compliant: Bool?
    ) {
        self.day = day
        self.episodes = episodes
        self.kcalMicros = kcalMicros
        self.eatingWindowSeconds = eatingWindowSeconds
        self.fastsEnded = fastsEnded
        self.longestFastEndedSeconds = longestFastEndedSeconds
        self.compliant = compliant
    }
}

/// A row of `fasting_summary.csv` without its identity columns.
public struct FastingSummary: Hashable, Sendable {
    /// Accepted meals.
    public var meals = 0
    /// Eating episodes.
    public var episodes = 0
    /// Fasts of at least `min_fast`.
    public var fasts = 0
    /// Their total length in seconds.
    public var totalFastSeconds: Int64 = 0
    /// The longest fast (0 when none).
    public var longestFastSeconds: Int64 = 0
    /// Days evaluated against the protocol.
    public var evaluatedDays = 0
    /// Evaluated days whose eating window kept to the protocol.
    public var compliantDays = 0

    /// Zeros: a user without meals.
    @inlinable public init() {}
}

/// The incremental fasting analyzer of one user: feed meals in `Meal.precedes` order, get each day
/// as soon as it is complete. Its state is O(1), and its results equal `FastingAnalyzer.analyze`.
@usableFromInline package struct FastingAccumulator: Sendable {
    /// The user's settings.
    @usableFromInline package let configuration: FastingConfiguration
    /// The totals so far (final after `finish`).
    @usableFromInline package var summary: FastingSummary { totals }
    @usableFromInline var totals = FastingSummary()

    @usableFromInline var episodeStart: Int64 = 0
    @usableFromInline var episodeEnd: Int64 = 0
    @usableFromInline var episodeKcal: Int64 = 0
    /// The fast that ended where the open episode starts, or -1.
    @usableFromInline var episodeFastBefore: Int64 = -1
    @usableFromInline var hasEpisode = false
    /// The open day's row, when `hasDay`; its first episode started at `dayFirstStart`.
    @usableFromInline var hasDay = false
    @usableFromInline var day = FastingDay(
        day: LocalDay(index: 0), episodes: 0, kcalMicros: 0, eatingWindowSeconds: 0, fastsEnded: 0, longestFastEndedSeconds: 0, compliant: nil
    )
    @usableFromInline var dayFirstStart: Int64 = 0
    /// The sum of the fasts so far: exact, as the fasts of one timeline add up to less than 2^64 seconds
    /// (the summary holds it at Int64.max when it passes it).
    @usableFromInline var totalFastSeconds: UInt64 = 0
    /// The UTC instants `[start, end)` of the open day: episodes come in start order, so most fall in
    /// it and need no division. Empty when there is no open day, or when an end of its span lies
    /// outside Int64's range (each episode then computes its day).
    @usableFromInline var daySpan: (start: Int64, end: Int64) = (1, 0)

    /// An analyzer of one user, before any meal.
    @inlinable package init(configuration: FastingConfiguration) {
        self.configuration = configuration
    }

    /// Adds the next meal; calls `onDay` for each day that this meal proves complete.
    /// (Always inlined, with the state it touches `@usableFromInline`: a call per meal saved. No
    /// function that it or `finish` calls takes the accumulator's address, so a caller's loop keeps
    /// its fields in registers; passed `inout` once a day, each field was a load and a store a meal.)
    @inlinable @inline(__always) package mutating func add(_ meal: Meal, onDay: (FastingDay) -> Void) {
        totals.meals += 1
        guard hasEpisode else {
            openEpisode(with: meal, fastBefore: -1)
            return
        }
        if meal.start <= episodeEnd {
            episodeEnd = max(episodeEnd, meal.end)
            episodeKcal = Self.saturating(episodeKcal &+ meal.kcalMicros)
            return
        }
        // Exact as an unsigned number (the meal starts after the episode ends), also when it passes Int64's
        // range: a meal near Int64.min, the next near .max.
        let gap = UInt64(bitPattern: meal.start &- episodeEnd)
        closeEpisode(onDay: onDay)
        var fast: Int64 = -1
        if gap >= UInt64(clamping: configuration.minimumFastSeconds) {
            fast = Int64(min(gap, UInt64(Int64.max)))
            totals.fasts += 1
            totalFastSeconds &+= gap
            totals.longestFastSeconds = max(totals.longestFastSeconds, fast)
        }
        openEpisode(with: meal, fastBefore: fast)
    }

    /// Closes the last episode and day; returns the user's summary.
    @inlinable @inline(__always) package mutating func finish(onDay: (FastingDay) -> Void) -> FastingSummary {
        totals.totalFastSeconds = Int64(min(totalFastSeconds, UInt64(Int64.max)))
        if hasEpisode { closeEpisode(onDay: onDay) }
        hasEpisode = false
        if hasDay { emit(day, onDay: onDay) }
        hasDay = false
        daySpan = (1, 0)
        return totals
    }

    @inlinable @inline(__always) mutating func openEpisode(with meal: Meal, fastBefore: Int64) {
        hasEpisode = true
        episodeStart = meal.start
        episodeEnd = meal.end
        episodeKcal = meal.kcalMicros
        episodeFastBefore = fastBefore
    }

    @inlinable @inline(__always) mutating func closeEpisode(onDay: (FastingDay) -> Void) {
        totals.episodes += 1
        if episodeStart < daySpan.start || episodeStart >= daySpan.end { moveToEpisodeDay(onDay: onDay) }
        day.episodes += 1
        day.kcalMicros = Self.saturating(day.kcalMicros &+ episodeKcal)
        // Cannot overflow: an episode's meals each last at most 14,400 s (`too_long`) and overlap, so its end
        // is within 14,400 s a meal of the day's first start (passing Int64's range takes 10^15 meals).
        day.eatingWindowSeconds = episodeEnd - dayFirstStart
        if episodeFastBefore >= 0 {
            day.fastsEnded += 1
            day.longestFastEndedSeconds = max(day.longestFastEndedSeconds, episodeFastBefore)
        }
    }

    /// Makes the local day of the open episode the open day, emitting the open day if it is another.
    @inlinable @inline(__always) mutating func moveToEpisodeDay(onDay: (FastingDay) -> Void) {
        let offset = configuration.utcOffsetMinutes
        let episodeDay = LocalDay(instant: episodeStart, utcOffsetMinutes: offset)
        if hasDay {
            if day.day == episodeDay { return }
            emit(day, onDay: onDay)
        }
        hasDay = true
        day = FastingDay(day: episodeDay, episodes: 0, kcalMicros: 0, eatingWindowSeconds: 0, fastsEnded: 0, longestFastEndedSeconds: 0, compliant: nil)
        dayFirstStart = episodeStart
        daySpan = episodeDay.instants(utcOffsetMinutes: offset) ?? (1, 0)
    }

    /// A wrapping sum of non-negative kcal, held at Int64.max when it passed it (it then reads negative):
    /// kcal past 2^63 − 1 millionths (9.2 × 10¹² kcal) stay at the largest value rather than wrap or trap.
    @inlinable @inline(__always) static func saturating(_ wrapped: Int64) -> Int64 {
        wrapped < 0 ? .max : wrapped
    }

    @inlinable @inline(__always) mutating func emit(_ finished: FastingDay, onDay: (FastingDay) -> Void) {
        var row = finished
        if let limit = configuration.fastingProtocol.windowLimitSeconds {
            let compliant = row.eatingWindowSeconds <= limit
            row.compliant = compliant
            totals.evaluatedDays += 1
            if compliant { totals.compliantDays += 1 }
        }
        onDay(row)
    }
}

/// The batch fasting analyzer: a user's whole history at once.
@usableFromInline package enum FastingAnalyzer {
    /// Analyzes a user's meals in any order.
    @usableFromInline package static func analyze(_ meals: [Meal], configuration: FastingConfiguration) -> (summary: FastingSummary, days: [FastingDay]) {
        var days: [FastingDay] = []
        var accumulator = FastingAccumulator(configuration: configuration)
        for meal in meals.sorted(by: Meal.precedes) { accumulator.add(meal) { days.append($0) } }
        let summary = accumulator.finish { days.append($0) }
        return (summary, days)
    }
}

/// A user's eating episodes as closed intervals, for `isFasting(at:)` queries.
@usableFromInline package struct FastingTimeline: Sendable {
    /// Disjoint, sorted `[start, end]` episodes.
    @usableFromInline package let episodes: [ClosedRange<Int64>]

    /// The timeline of a user's meals, in any order.
    @usableFromInline package init(meals: [Meal]) {
        var merged: [ClosedRange<Int64>] = []
        for meal in meals.sorted(by: Meal.precedes) {
            if let last = merged.last, meal.start <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, meal.end)
            } else {
                merged.append(meal.start...meal.end)
            }
        }
        episodes = merged
    }

    /// False when `t` lies within some meal (`start <= t <= end`), true otherwise (SPEC §2 step 5).
    @usableFromInline package func isFasting(at t: Int64) -> Bool {
        var low = 0
        var high = episodes.count
        while low < high {
            let mid = (low + high) / 2
            if episodes[mid].lowerBound <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 || episodes[low - 1].upperBound < t
    }
}
