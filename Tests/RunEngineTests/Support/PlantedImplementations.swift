@_spi(Tooling) import HealthCore
import PaymentsCore
import SpecKernel
import UserAlgorithms

/// A flaw planted in an implementation under test (none: a correct one).
protocol Flaw {
    static var localDayShift: Int64 { get }
    static var losesFastsAcrossMidnight: Bool { get }
    /// Compliant when the window is `<` the limit instead of `<=` (SPEC §2 step 4).
    static var strictCompliance: Bool { get }
}

extension Flaw {
    static var strictCompliance: Bool { false }
}

/// Calls a day compliant only when its eating window is strictly below the limit.
enum StrictCompliance: Flaw {
    static let localDayShift: Int64 = 0
    static let losesFastsAcrossMidnight = false
    static let strictCompliance = true
}

enum NoFlaw: Flaw {
    static let localDayShift: Int64 = 0
    static let losesFastsAcrossMidnight = false
}

/// Puts an instant one second early when it finds its local day: a meal at local midnight lands on the day before.
enum DayBoundaryOffByOne: Flaw {
    static let localDayShift: Int64 = -1
    static let losesFastsAcrossMidnight = false
}

/// Drops a fast whose two episodes are on different local days (every overnight fast).
enum LostFastAcrossMidnight: Flaw {
    static let localDayShift: Int64 = 0
    static let losesFastsAcrossMidnight = true
}

/// A fasting analyzer written differently from the reference (episodes in a list, then days),
/// correct unless `F` plants a flaw.
struct ListFastingAnalyzer<F: Flaw>: FastingAnalyzing {
    let minimumFast: Int64

    init(settings: AlgorithmSettings) { minimumFast = settings.minimumFastSeconds }

    mutating func analyze(_ meals: inout UserMeals, onDay: (FastingDay) -> Void) -> FastingSummary {
        meals.sort(by: Meal.precedes)
        // Times run to Int64's limits (SPEC §0): the day comes from LocalDay, which cannot overflow.
        let offset = meals.user.utcOffsetMinutes
        func day(_ t: Int64) -> Int64 { LocalDay(instant: t &+ F.localDayShift, utcOffsetMinutes: offset).index }
        var episodes: [(start: Int64, end: Int64, kcal: Int64)] = []
        for meal in meals {
            if let last = episodes.indices.last, meal.start <= episodes[last].end {
                episodes[last].end = max(episodes[last].end, meal.end)
                episodes[last].kcal += meal.kcalMicros
            } else {
                episodes.append((meal.start, meal.end, meal.kcalMicros))
            }
        }
        var summary = FastingSummary()
        summary.meals = meals.count
        summary.episodes = episodes.count
        var days: [(row: FastingDay, firstStart: Int64)] = []
        for (i, episode) in episodes.enumerated() {
            let index = day(episode.start)
            if days.last?.row.day.index != index {
                days.append((FastingDay(day: LocalDay(index: index), episodes: 0, kcalMicros: 0, eatingWindowSeconds: 0, fastsEnded: 0,
                                        longestFastEndedSeconds: 0, compliant: nil), episode.start))
            }
            days[days.count - 1].row.episodes += 1
            days[days.count - 1].row.kcalMicros += episode.kcal
            days[days.count - 1].row.eatingWindowSeconds = episode.end - days[days.count - 1].firstStart
            guard i > 0 else { continue }
            let gap = episode.start - episodes[i - 1].end
            guard gap >= minimumFast, !(F.losesFastsAcrossMidnight && day(episodes[i - 1].end) != index) else { continue }
            summary.fasts += 1
            summary.totalFastSeconds += gap
            summary.longestFastSeconds = max(summary.longestFastSeconds, gap)
            days[days.count - 1].row.fastsEnded += 1
            days[days.count - 1].row.longestFastEndedSeconds = max(days[days.count - 1].row.longestFastEndedSeconds, gap)
        }
        for (var row, _) in days {
            if let limit = meals.user.fastingProtocol.windowLimitSeconds {
                let compliant = F.strictCompliance ? row.eatingWindowSeconds < limit : row.eatingWindowSeconds <= limit
                row.compliant = compliant
                summary.evaluatedDays += 1
                if compliant { summary.compliantDays += 1 }
            }
            onDay(row)
        }
        return summary
    }
}

/// The reference processor with a planted flaw: every refund it makes is booked twice in the ledger.
struct DoubleCountedRefundProcessor: PaymentProcessing {
    let reference: UserKernel

    init(settings: AlgorithmSettings) { reference = UserKernel(settings: settings) }

    mutating func process(_ payments: UserPayments, onOutcome: (Int, PaymentOutcome) -> Void) -> UserLedger {
        var refunded: [Int] = []
        var ledger = reference.process(payments) { position, outcome in
            if payments[position].kind == .refund, outcome.state == .refunded { refunded.append(position) }
            onOutcome(position, outcome)
        }
        for position in refunded {
            ledger.refund(payments[position].amountMinor!, in: payments[position].currency!)
        }
        return ledger
    }
}

/// The reference aggregator fed closed intervals: a sample ending exactly at local midnight also
/// covers that instant, so it touches the next day (SPEC §3 counts over `[start, end)`).
struct ClosedIntervalSteps: StepAggregating {
    let reference: UserKernel

    init(settings: AlgorithmSettings) { reference = UserKernel(settings: settings) }

    mutating func aggregate(_ samples: inout UserSteps, onDay: (StepDay) -> Void) {
        let offset = samples.user.utcOffsetMinutes
        for i in samples.indices where LocalDay(instant: samples[i].end, utcOffsetMinutes: offset).startInstant(utcOffsetMinutes: offset) == samples[i].end {
            samples[i].end += 1
        }
        reference.aggregate(&samples, onDay: onDay)
    }
}

/// The reference processor with `amount >= limit` as `over_limit` (SPEC §4 allows the limit itself).
struct InclusiveLimitProcessor: PaymentProcessing {
    let reference: UserKernel

    init(settings: AlgorithmSettings) { reference = UserKernel(settings: settings) }

    mutating func process(_ payments: UserPayments, onOutcome: (Int, PaymentOutcome) -> Void) -> UserLedger {
        for i in payments.indices {
            guard let currency = payments[i].currency, payments[i].amountMinor == currency.limitMinor else { continue }
            payments[i].amountMinor = currency.limitMinor + 1
        }
        return reference.process(payments, onOutcome: onOutcome)
    }
}

/// The reference processor allowing one gateway attempt more than `max_attempts`.
struct ExtraAttemptProcessor: PaymentProcessing {
    let reference: UserKernel

    init(settings: AlgorithmSettings) {
        var more = settings
        more.policy.maxAttempts += 1
        reference = UserKernel(settings: more)
    }

    mutating func process(_ payments: UserPayments, onOutcome: (Int, PaymentOutcome) -> Void) -> UserLedger {
        reference.process(payments, onOutcome: onOutcome)
    }
}

extension Int64 {
    fileprivate func floorDivided(by d: Int64) -> Int64 { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
