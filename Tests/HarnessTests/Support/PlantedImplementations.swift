import HealthCore
import PaymentsCore
import SpecKernel
import UserAlgorithms

/// A flaw planted in an implementation under test (none: a correct one).
protocol Flaw {
    static var localDayShift: Int64 { get }
    static var losesFastsAcrossMidnight: Bool { get }
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
        let offset = Int64(meals.user.utcOffsetMinutes) * 60 + F.localDayShift
        func day(_ t: Int64) -> Int64 { (t + offset).floorDivided(by: 86_400) }
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
                row.compliant = row.eatingWindowSeconds <= limit
                summary.evaluatedDays += 1
                if row.eatingWindowSeconds <= limit { summary.compliantDays += 1 }
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

extension Int64 {
    fileprivate func floorDivided(by d: Int64) -> Int64 { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
