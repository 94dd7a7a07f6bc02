/// One boundary of SPEC §0–§4: a comparison, limit or edge, with the case just inside it and the
/// case just outside. `SpecBoundary.catalogue` lists them all; the `boundaries:` share of a
/// scenario plants users whose rows sit on both sides of each, and `run`'s check counts which
/// sides the users it checked reached (`docs/boundaries.md` prints the table).
package struct SpecBoundary: Sendable, Hashable, Identifiable {
    /// The boundaries, in catalogue order.
    package enum Key: Int, CaseIterable, Sendable {
        case usersOffsetLowest, usersOffsetHighest, nutritionZero
        case mealZeroLength, mealLongest, mealZeroKcal, mealJoinsEpisode, mealShortestFast
        case mealWindow16to8, mealWindow18to6, mealWindow20to4, mealWindowOmad
        case mealDayOffsetMinus720, mealDayOffset0, mealDayOffset345, mealDayOffset840
        case mealFastEndsAtMidnight, mealIdAcrossUsers, mealIsFasting, mealNegativeZeroText
        case stepsShortest, stepsLongest, stepsZeroCount, stepsZeroWatchCovers, stepsSharedEdge, stepsEndsAtMidnight
        case stepsAverageFirstDay, stepsAverageAfterGap
        case paymentsLimitExponent0, paymentsLimitExponent2, paymentsLimitExponent3, paymentsSmallestAmount
        case paymentsLastAttempt, paymentsReconcile, paymentsRefundBalance, paymentsIdempotentRetry
        case paymentsFingerprintKind, paymentsFingerprintAmount, paymentsFingerprintCurrency, paymentsFingerprintRefundOf
        case timeLastLocalDay
    }

    /// Where a boundary's two sides are counted.
    package enum Measure: Sendable, Hashable {
        /// In the users `run` checks against the reference.
        case run
        /// Not in any output `run` compares (text parsing, an API): by the named unit tests.
        case unitTests(String)
    }

    /// Which entry this is.
    package let key: Key
    /// The SPEC section, e.g. `§2.4`.
    package let section: String
    /// The comparison as SPEC states it.
    package let comparison: String
    /// The case at the limit, on the side SPEC includes (or the first of two cases).
    package let inside: String
    /// The case one unit past it.
    package let outside: String
    /// Where its sides are counted.
    package let measure: Measure

    /// The stable id used in results and docs, e.g. `meals.window_16_8`.
    package var id: String { Self.ids[key.rawValue] }

    /// The entry of `key`.
    package static func of(_ key: Key) -> SpecBoundary { catalogue[key.rawValue] }

    /// The entries `run` counts.
    package static var measured: [SpecBoundary] { catalogue.filter { $0.measure == .run } }

    private static let ids = [
        "users.offset_lowest", "users.offset_highest", "users.nutrition_zero",
        "meals.zero_length", "meals.longest", "meals.zero_kcal", "meals.joins_episode", "meals.shortest_fast",
        "meals.window_16_8", "meals.window_18_6", "meals.window_20_4", "meals.window_omad",
        "meals.day_offset_-720", "meals.day_offset_0", "meals.day_offset_345", "meals.day_offset_840",
        "meals.fast_ends_at_midnight", "meals.id_across_users", "meals.is_fasting", "meals.negative_zero_text",
        "steps.shortest", "steps.longest", "steps.zero_count", "steps.zero_watch_covers", "steps.shared_edge", "steps.ends_at_midnight",
        "steps.avg7_first_day", "steps.avg7_after_gap",
        "payments.limit_exponent_0", "payments.limit_exponent_2", "payments.limit_exponent_3", "payments.smallest_amount",
        "payments.last_attempt", "payments.reconcile", "payments.refund_balance", "payments.idempotent_retry",
        "payments.fingerprint_kind", "payments.fingerprint_amount", "payments.fingerprint_currency", "payments.fingerprint_refund_of",
        "time.last_local_day",
    ]

    /// Every boundary, in `Key` order.
    package static let catalogue: [SpecBoundary] = [
        .init(.usersOffsetLowest, "§1", "utc_offset_minutes >= -720", "-720: accepted", "-721: malformed"),
        .init(.usersOffsetHighest, "§1", "utc_offset_minutes <= 840", "840: accepted", "841: malformed"),
        .init(.nutritionZero, "§1", "BMI needs weight, height > 0; macro ratios need kcal > 0", "0.001: a value", "0: a typed error",
              .unitTests("HealthCoreTests: BMI rejects non-positive weight and height; macro ratios reject … a meal without energy")),
        .init(.mealZeroLength, "§2", "end < start is end_before_start", "end = start: accepted (zero length)",
              "end = start - 1: end_before_start"),
        .init(.mealLongest, "§2", "end - start > 14400 is too_long", "14400: accepted", "14401: too_long"),
        .init(.mealZeroKcal, "§2", "kcal < 0 is negative_value", "kcal 0: accepted", "kcal -0.001: negative_value"),
        .init(.mealJoinsEpisode, "§2.2", "start <= episode end joins the episode", "start = episode end: joins",
              "start = episode end + 1: opens an episode"),
        .init(.mealShortestFast, "§2.3", "gap >= min_fast is a fast", "gap = min_fast: a fast", "gap = min_fast - 1: no fast"),
        .init(.mealWindow16to8, "§2.4", "16:8 window <= 8 × 3600 is compliant", "28800: compliant", "28801: not compliant"),
        .init(.mealWindow18to6, "§2.4", "18:6 window <= 6 × 3600 is compliant", "21600: compliant", "21601: not compliant"),
        .init(.mealWindow20to4, "§2.4", "20:4 window <= 4 × 3600 is compliant", "14400: compliant", "14401: not compliant"),
        .init(.mealWindowOmad, "§2.4", "omad window <= 1 × 3600 is compliant", "3600: compliant", "3601: not compliant"),
        .init(.mealDayOffsetMinus720, "§0, §2.4", "offset -720: episode day = floor((start + 60 × offset) / 86400)",
              "starts at local midnight: that day", "one second before: the day before"),
        .init(.mealDayOffset0, "§0, §2.4", "offset 0: episode day = floor((start + 60 × offset) / 86400)",
              "starts at local midnight: that day", "one second before: the day before"),
        .init(.mealDayOffset345, "§0, §2.4", "offset +345: episode day = floor((start + 60 × offset) / 86400)",
              "starts at local midnight: that day", "one second before: the day before"),
        .init(.mealDayOffset840, "§0, §2.4", "offset +840: episode day = floor((start + 60 × offset) / 86400)",
              "starts at local midnight: that day", "one second before: the day before"),
        .init(.mealFastEndsAtMidnight, "§2.3", "a fast belongs to the local day on which it ends", "ends at local midnight: the new day",
              "ends one second before: the day before"),
        .init(.mealIdAcrossUsers, "§2", "a meal_id already accepted, for any user, is duplicate", "first user's row: accepted",
              "another user's row with that id: duplicate", .unitTests("AnalysisTests: a meal_id repeated across users is a duplicate")),
        .init(.mealIsFasting, "§2.5", "is_fasting is false when start <= t <= end", "t = start, t = end: not fasting",
              "t = start - 1, t = end + 1: fasting", .unitTests("HealthCoreTests: not fasting exactly when start <= t <= end for some meal")),
        .init(.mealNegativeZeroText, "§0, §2", "-0 is an integer and not below 0", "-0: accepted as 0", "-0.001: negative_value",
              .unitTests("DatasetsTests: -0 is not negative; a count of 0 or -0 is accepted as +0")),
        .init(.stepsShortest, "§3", "end <= start is bad_interval", "end = start + 1: accepted", "end = start: bad_interval"),
        .init(.stepsLongest, "§3", "end - start > 86400 is bad_interval", "86400: accepted", "86401: bad_interval"),
        .init(.stepsZeroCount, "§3", "count < 0 is negative_value", "count 0: accepted", "count -0.001: negative_value"),
        .init(.stepsZeroWatchCovers, "§3", "a watch sample covers its interval whatever its count",
              "phone under a watch sample of count 0: counts nothing", "phone under a watch sample of count > 0: counts nothing"),
        .init(.stepsSharedEdge, "§3", "samples are half-open [start, end): a watch covers up to, not at, its end",
              "phone and watch share an edge: the phone counts in full", "one second of overlap: that second is the watch's"),
        .init(.stepsEndsAtMidnight, "§3", "a sample touches the local days of [start, end)",
              "ends at local midnight: the next day is not touched", "ends one second later: the next day is touched"),
        .init(.stepsAverageFirstDay, "§3", "avg7 adds the day and the 6 days before it",
              "6 days after the first day of data: it is in the average", "7 days after: it is not"),
        .init(.stepsAverageAfterGap, "§3", "days without samples count 0 in avg7",
              "previous day with samples 6 days before: in the average", "7 days before: not"),
        .init(.paymentsLimitExponent0, "§0, §4.1", "JPY: amount_minor > 1,000,000 × 10^0 is over_limit", "1000000: accepted",
              "1000001: over_limit"),
        .init(.paymentsLimitExponent2, "§0, §4.1", "USD: amount_minor > 1,000,000 × 10^2 is over_limit", "100000000: accepted",
              "100000001: over_limit"),
        .init(.paymentsLimitExponent3, "§0, §4.1", "KWD: amount_minor > 1,000,000 × 10^3 is over_limit", "1000000000: accepted",
              "1000000001: over_limit"),
        .init(.paymentsSmallestAmount, "§4.1", "amount_minor <= 0 is invalid_amount", "1: accepted", "0: invalid_amount"),
        .init(.paymentsLastAttempt, "§4.4", "at most max_attempts attempts", "first A at attempt max_attempts: approved",
              "first A at attempt max_attempts + 1: never sent, failed"),
        .init(.paymentsReconcile, "§4.4", "after max_attempts timeouts, reconcile: approved when the gateway acted",
              "L at the last attempt: approved", "T at the last attempt: failed"),
        .init(.paymentsRefundBalance, "§4.3", "refunded + this > charge is refund_exceeds", "exactly the remaining balance: refunded",
              "one minor unit more: refund_exceeds"),
        .init(.paymentsIdempotentRetry, "§4.2", "a recorded key with the same values is deduplicated, else idempotency_conflict",
              "same values: deduplicated", "different values: idempotency_conflict"),
        .init(.paymentsFingerprintKind, "§4.2", "a recorded key whose kind alone differs is idempotency_conflict",
              "a charge's key retried as a refund (refund_of empty): idempotency_conflict",
              "a refund's key (refund_of empty) retried as a charge: idempotency_conflict"),
        .init(.paymentsFingerprintAmount, "§4.2", "a recorded key whose amount_minor alone differs is idempotency_conflict",
              "a charge's key retried with one minor unit more: idempotency_conflict",
              "a refund's key retried with one minor unit more: idempotency_conflict"),
        .init(.paymentsFingerprintCurrency, "§4.2", "a recorded key whose currency alone differs is idempotency_conflict",
              "a charge's key retried in another currency: idempotency_conflict",
              "a refund's key retried in another currency: idempotency_conflict"),
        .init(.paymentsFingerprintRefundOf, "§0, §4.2",
              "a recorded key whose refund_of alone differs is idempotency_conflict (a charge's refund_of is always empty)",
              "a refund's key retried naming another charge: idempotency_conflict",
              "a refund's key retried with refund_of empty: idempotency_conflict"),
        .init(.timeLastLocalDay, "§0, §2.4, §3", "a time is any signed 64-bit integer: local days run to the end of that range",
              "a step sample across the start of the last local day (east of UTC): split at that start",
              "two episodes on that day, whose end lies past the range: one day"),
    ]

    private init(_ key: Key, _ section: String, _ comparison: String, _ inside: String, _ outside: String, _ measure: Measure = .run) {
        self.key = key
        self.section = section
        self.comparison = comparison
        self.inside = inside
        self.outside = outside
        self.measure = measure
    }

    /// The catalogue as a Markdown table (`docs/boundaries.md` holds this text).
    package static var markdownTable: String {
        var lines = ["| id | SPEC | comparison | inside | outside | counted |", "| --- | --- | --- | --- | --- | --- |"]
        for entry in catalogue {
            let counted = switch entry.measure {
            case .run: "run check"
            case .unitTests(let tests): tests
            }
            lines.append("| `\(entry.id)` | \(entry.section) | \(entry.comparison) | \(entry.inside) | \(entry.outside) | \(counted) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
