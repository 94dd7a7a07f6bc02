@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// Counts, for the users of a checked batch, which side of each `SpecBoundary` the reference's
/// comparisons took: the row checks and processing rules on the rows the check compared, and the
/// reference's own output rows (eating windows, step days, payment outcomes). Runs after the timed
/// run, only when checking.
struct BoundaryProbe {
    /// `min_fast` of the run.
    let minimumFastSeconds: Int64
    /// `max_attempts` of the run.
    let maxAttempts: Int
    /// Scratch memory, kept from user to user.
    private var meals: [Meal] = []
    private var watches: [StepSample] = [], phones: [StepSample] = []
    private var watchStarts: [Int64] = [], watchEnds: [Int64] = []
    private var order: [PaymentRow] = []
    private var outcomes: [PaymentOutcome?] = []
    private var charges: [(amount: Int64, refunded: Int64)?] = []
    /// What each idempotency key of the user was first recorded for (SPEC §4 step 2).
    private var fingerprints: [UInt32: PaymentFingerprint] = [:]

    init(minimumFastSeconds: Int64, maxAttempts: Int) {
        self.minimumFastSeconds = minimumFastSeconds
        self.maxAttempts = maxAttempts
    }

    /// Adds what `batch`'s users reached, given the reference's output rows for them (user after
    /// user, in batch order, as a `PartitionWorker` reports them), to `coverage`.
    mutating func observe(_ batch: SimulationBatch, reference: ResultRecorder, into coverage: inout BoundaryCoverage) {
        var day = 0, stepDay = 0, outcome = 0
        for (i, user) in batch.users.enumerated() {
            users(user, &coverage)
            let days = Self.rows(of: user.index, in: reference.fastingDays, { $0.user }, from: &day)
            let stepDays = Self.rows(of: user.index, in: reference.stepDays, { $0.user }, from: &stepDay)
            let outcomes = Self.rows(of: user.index, in: reference.outcomes, { $0.user }, from: &outcome)
            guard user.isAccepted else { continue }
            meals(batch.meals(ofUserAt: i), of: user, days: days, &coverage)
            steps(batch.steps(ofUserAt: i), of: user, days: stepDays, &coverage)
            payments(batch.payments(ofUserAt: i), outcomes: outcomes, &coverage)
        }
    }

    /// The rows of `user` at `cursor` (rows come user after user), moving the cursor past them.
    private static func rows<Row>(of user: UInt32, in rows: [Row], _ owner: (Row) -> UInt32, from cursor: inout Int) -> ArraySlice<Row> {
        let start = cursor
        while cursor < rows.count, owner(rows[cursor]) == user { cursor += 1 }
        return rows[start..<cursor]
    }

    private func users(_ user: UserRow, _ coverage: inout BoundaryCoverage) {
        let range = UserProfile.utcOffsetRange, offset = Int64(user.utcOffsetMinutes)
        if offset == range.lowerBound, user.isAccepted { coverage.record(.usersOffsetLowest, atLimit: true) }
        if offset == range.lowerBound - 1, !user.isAccepted { coverage.record(.usersOffsetLowest, atLimit: false) }
        if offset == range.upperBound, user.isAccepted { coverage.record(.usersOffsetHighest, atLimit: true) }
        if offset == range.upperBound + 1, !user.isAccepted { coverage.record(.usersOffsetHighest, atLimit: false) }
    }

    /// The local second of the day of `t` (0 at local midnight).
    private static func secondOfDay(_ t: Int64, offset: Int32) -> Int64 {
        t - LocalDay(instant: t, utcOffsetMinutes: offset).startInstant(utcOffsetMinutes: offset)
    }

    /// The start of `t`'s local day when that day is the last of Int64's range (it starts within it, its end
    /// lies past it), else nil.
    private static func lastDayStart(_ t: Int64, offset: Int32) -> Int64? {
        let day = LocalDay(instant: t, utcOffsetMinutes: offset)
        guard day.index > 0, day.instants(utcOffsetMinutes: offset) == nil else { return nil }
        return day.exactStartInstant(utcOffsetMinutes: offset)
    }

    private mutating func meals(_ rows: ArraySlice<MealRow>, of user: UserRow, days: ArraySlice<(user: UInt32, day: FastingDay)>,
                                _ coverage: inout BoundaryCoverage) {
        meals.removeAll(keepingCapacity: true)
        for row in rows where row.textRejection(userAccepted: true) == nil {
            let reason = MealRejection.check(start: row.start, end: row.end, hasNegativeValue: row.hasNegativeValue)
            let length = row.end &- row.start
            if length == 0, reason == nil { coverage.record(.mealZeroLength, atLimit: true) }
            if length == -1, reason == .endBeforeStart { coverage.record(.mealZeroLength, atLimit: false) }
            if length == MealRejection.maximumDuration, reason == nil { coverage.record(.mealLongest, atLimit: true) }
            if length == MealRejection.maximumDuration + 1, reason == .tooLong { coverage.record(.mealLongest, atLimit: false) }
            if row.kcalMilli == 0, reason == nil { coverage.record(.mealZeroKcal, atLimit: true) }
            if row.kcalMilli == -1, reason == .negativeValue { coverage.record(.mealZeroKcal, atLimit: false) }
            // A `duplicate` row is an exact copy of an accepted one: the accepted values are the others.
            if reason == nil, row.fault != .duplicate { meals.append(row.meal) }
        }
        let offset = user.utcOffsetMinutes
        let dayKey: SpecBoundary.Key? = switch offset {
        case -720: .mealDayOffsetMinus720
        case 0: .mealDayOffset0
        case 345: .mealDayOffset345
        case 840: .mealDayOffset840
        default: nil
        }
        func opens(at start: Int64, afterFast fast: Bool) {
            let second = Self.secondOfDay(start, offset: offset)
            guard second == 0 || second == LocalDay.secondsPerDay - 1 else { return }
            if let dayKey { coverage.record(dayKey, atLimit: second == 0) }
            if fast { coverage.record(.mealFastEndsAtMidnight, atLimit: second == 0) }
        }
        meals.sort(by: Meal.precedes)
        var episodeEnd = Int64.min
        var lastDayEpisodes = 0
        for (k, meal) in meals.enumerated() {
            if k == 0 || meal.start &- episodeEnd > 0, Self.lastDayStart(meal.start, offset: offset) != nil { lastDayEpisodes += 1 }
            guard k > 0 else {
                opens(at: meal.start, afterFast: false)
                episodeEnd = meal.end
                continue
            }
            let gap = meal.start &- episodeEnd
            if gap == 0 || gap == 1 { coverage.record(.mealJoinsEpisode, atLimit: gap == 0) }
            if gap <= 0 {
                episodeEnd = max(episodeEnd, meal.end)
                continue
            }
            if gap == minimumFastSeconds || gap == minimumFastSeconds - 1 { coverage.record(.mealShortestFast, atLimit: gap == minimumFastSeconds) }
            opens(at: meal.start, afterFast: gap >= minimumFastSeconds)
            episodeEnd = meal.end
        }
        if lastDayEpisodes >= 2 { coverage.record(.timeLastLocalDay, atLimit: false) }
        let windowKey: SpecBoundary.Key? = switch user.fastingProtocol {
        case .sixteenEight: .mealWindow16to8
        case .eighteenSix: .mealWindow18to6
        case .twentyFour: .mealWindow20to4
        case .omad: .mealWindowOmad
        case .none: nil
        }
        guard let windowKey, let limit = user.fastingProtocol.windowLimitSeconds else { return }
        for (_, day) in days where day.eatingWindowSeconds == limit || day.eatingWindowSeconds == limit + 1 {
            coverage.record(windowKey, atLimit: day.eatingWindowSeconds == limit)
        }
    }

    private mutating func steps(_ rows: ArraySlice<StepRow>, of user: UserRow, days: ArraySlice<(user: UInt32, day: StepDay)>,
                                _ coverage: inout BoundaryCoverage) {
        watches.removeAll(keepingCapacity: true)
        phones.removeAll(keepingCapacity: true)
        for row in rows where row.textRejection(userAccepted: true) == nil {
            let sample = row.sample
            let reason = StepRejection.check(start: sample.start, end: sample.end, count: sample.count)
            let length = row.end &- row.start
            if length == 1, reason == nil { coverage.record(.stepsShortest, atLimit: true) }
            if length == 0, reason == .badInterval { coverage.record(.stepsShortest, atLimit: false) }
            if length == StepRejection.maximumDuration, reason == nil { coverage.record(.stepsLongest, atLimit: true) }
            if length == StepRejection.maximumDuration + 1, reason == .badInterval { coverage.record(.stepsLongest, atLimit: false) }
            if row.countMilli == 0, reason == nil { coverage.record(.stepsZeroCount, atLimit: true) }
            if row.countMilli == -1, reason == .negativeValue { coverage.record(.stepsZeroCount, atLimit: false) }
            guard reason == nil, row.fault != .duplicate else { continue }
            let second = Self.secondOfDay(sample.end, offset: user.utcOffsetMinutes)
            if second == 0 || second == 1 { coverage.record(.stepsEndsAtMidnight, atLimit: second == 0) }
            if let start = Self.lastDayStart(sample.end - 1, offset: user.utcOffsetMinutes), sample.start < start {
                coverage.record(.timeLastLocalDay, atLimit: true)
            }
            if sample.source == .watch { watches.append(sample) } else { phones.append(sample) }
        }
        watches.sort(by: StepSample.precedes)
        watchStarts.removeAll(keepingCapacity: true)
        watchEnds.removeAll(keepingCapacity: true)
        for watch in watches {
            watchStarts.append(watch.start)
            watchEnds.append(watch.end)
        }
        watchEnds.sort()
        let starts = watchStarts, ends = watchEnds
        for phone in phones {
            if ends.containsSorted(phone.start) || starts.containsSorted(phone.end) { coverage.record(.stepsSharedEdge, atLimit: true) }
            if ends.containsSorted(phone.start + 1) || starts.containsSorted(phone.end - 1) { coverage.record(.stepsSharedEdge, atLimit: false) }
            // Watch samples barely overlap one another: the one covering the phone starts among the last few before it.
            var k = starts.partitionPoint { $0 > phone.start } - 1
            var looked = 0
            while k >= 0, looked < 8 {
                if watches[k].end >= phone.end { coverage.record(.stepsZeroWatchCovers, atLimit: watches[k].count == 0) }
                k -= 1
                looked += 1
            }
        }
        guard let first = days.first?.day.day.index else { return }
        var previous: Int64?
        for (_, day) in days {
            let index = day.day.index
            if index - first == 6 || index - first == 7 { coverage.record(.stepsAverageFirstDay, atLimit: index - first == 6) }
            if let previous, index - previous == 6 || index - previous == 7 { coverage.record(.stepsAverageAfterGap, atLimit: index - previous == 6) }
            previous = index
        }
    }

    private mutating func payments(_ rows: ArraySlice<PaymentRow>,
                                   outcomes reported: ArraySlice<(user: UInt32, ordinal: UInt32, outcome: PaymentOutcome)>,
                                   _ coverage: inout BoundaryCoverage) {
        outcomes.removeAll(keepingCapacity: true)
        for (_, ordinal, outcome) in reported {
            while outcomes.count <= Int(ordinal) { outcomes.append(nil) }
            outcomes[Int(ordinal)] = outcome
        }
        charges.removeAll(keepingCapacity: true)
        charges.append(contentsOf: repeatElement(nil, count: outcomes.count))
        order.removeAll(keepingCapacity: true)
        for row in rows where row.textRejection(userAccepted: true) == nil && Int(row.ordinal) < outcomes.count { order.append(row) }
        order.sort { ($0.createdAt, $0.ordinal) < ($1.createdAt, $1.ordinal) }
        fingerprints.removeAll(keepingCapacity: true)
        for row in order {
            guard let result = outcomes[Int(row.ordinal)] else { continue }
            let request = row.request
            let failure = PaymentRules.validationFailure(of: request)
            if let currency = request.currency, let amount = request.amountMinor {
                let key: SpecBoundary.Key = currency.exponent == 0 ? .paymentsLimitExponent0 : currency.exponent == 2 ? .paymentsLimitExponent2 : .paymentsLimitExponent3
                if amount == currency.limitMinor, failure == nil { coverage.record(key, atLimit: true) }
                if amount == currency.limitMinor + 1, failure == .overLimit { coverage.record(key, atLimit: false) }
                if amount == 1, failure == nil { coverage.record(.paymentsSmallestAmount, atLimit: true) }
                if amount == 0, failure == .invalidAmount { coverage.record(.paymentsSmallestAmount, atLimit: false) }
            }
            if result.state == .deduplicated { coverage.record(.paymentsIdempotentRetry, atLimit: true) }
            if result.reason == .idempotencyConflict { coverage.record(.paymentsIdempotentRetry, atLimit: false) }
            if failure == nil, let fingerprint = request.fingerprint { retry(of: row.keyOrdinal, fingerprint, result, &coverage) }
            if result.attempts > 0 { attempts(request.script, &coverage) }
            refunds(row, result, &coverage)
        }
    }

    /// A payment past step 1 records its key's fingerprint, or, when the key was recorded before and the
    /// reference rejected it `idempotency_conflict`, reaches the entry of the one field that differs (if
    /// one alone does): the inside side when the key was first a charge's, the outside when a refund's
    /// (for `refund_of`, which only a refund's differs in: inside when it names another charge).
    private mutating func retry(of key: UInt32, _ fingerprint: PaymentFingerprint, _ result: PaymentOutcome,
                                _ coverage: inout BoundaryCoverage) {
        guard let recorded = fingerprints[key] else {
            fingerprints[key] = fingerprint
            return
        }
        guard result.reason == .idempotencyConflict else { return }
        let differs: [(SpecBoundary.Key, Bool)] = [
            (.paymentsFingerprintKind, recorded.kind != fingerprint.kind),
            (.paymentsFingerprintAmount, recorded.amountMinor != fingerprint.amountMinor),
            (.paymentsFingerprintCurrency, recorded.currency != fingerprint.currency),
            (.paymentsFingerprintRefundOf, recorded.refundOf != fingerprint.refundOf),
        ].filter(\.1)
        guard differs.count == 1, let field = differs.first?.0 else { return }
        let atLimit = field == .paymentsFingerprintRefundOf ? fingerprint.refundOf != nil : recorded.kind == .charge
        coverage.record(field, atLimit: atLimit)
    }

    /// The gateway's first answer that is not a plain timeout, at the last allowed attempt or one later.
    private func attempts(_ script: GatewayScript, _ coverage: inout BoundaryCoverage) {
        var k = 0
        while k <= maxAttempts, script.response(at: k) == .timedOut { k += 1 }
        let response = script.response(at: min(k, maxAttempts))
        if k == maxAttempts - 1, response == .approved { coverage.record(.paymentsLastAttempt, atLimit: true) }
        if k == maxAttempts, response == .approved { coverage.record(.paymentsLastAttempt, atLimit: false) }
        if k == maxAttempts - 1, response == .lost { coverage.record(.paymentsReconcile, atLimit: true) }
        if k >= maxAttempts { coverage.record(.paymentsReconcile, atLimit: false) }
    }

    private mutating func refunds(_ row: PaymentRow, _ result: PaymentOutcome, _ coverage: inout BoundaryCoverage) {
        if result.state == .captured { charges[Int(row.ordinal)] = (row.amountMinor, 0) }
        guard row.kind == .refund, Int(row.refundOf) < charges.count, let charge = charges[Int(row.refundOf)] else { return }
        let total = charge.refunded + row.amountMinor
        if result.state == .refunded {
            if total == charge.amount { coverage.record(.paymentsRefundBalance, atLimit: true) }
            charges[Int(row.refundOf)]?.refunded = total
        }
        if result.reason == .refundExceeds, total == charge.amount + 1 { coverage.record(.paymentsRefundBalance, atLimit: false) }
    }
}

extension Array where Element == Int64 {
    /// Whether the sorted array holds `value`.
    fileprivate func containsSorted(_ value: Int64) -> Bool {
        let k = partitionPoint { $0 >= value }
        return k < count && self[k] == value
    }

    /// The first index whose element satisfies `predicate`, which holds from some index on.
    fileprivate func partitionPoint(_ predicate: (Int64) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
