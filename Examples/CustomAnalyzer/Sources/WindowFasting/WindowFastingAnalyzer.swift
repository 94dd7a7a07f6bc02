import SimHarnessKit

/// SPEC §2 written the way an app might: meals grouped into episodes, episodes grouped by local
/// day, then one pass over the days. Not the reference's incremental accumulator, but the same
/// results.
public struct WindowFastingAnalyzer: FastingAnalyzing {
    let minimumFast: Int64

    public init(settings: AlgorithmSettings) { minimumFast = settings.minimumFastSeconds }

    public mutating func analyze(_ meals: inout UserMeals, onDay: (FastingDay) -> Void) -> FastingSummary {
        analyzeByDay(&meals, minimumFast: minimumFast, countsOvernightFasts: true, onDay: onDay)
    }
}

/// The same analyzer with a bug planted on purpose: a fast that starts on one local day and ends on
/// the next (every overnight fast) is lost.
public struct OvernightBugAnalyzer: FastingAnalyzing {
    let minimumFast: Int64

    public init(settings: AlgorithmSettings) { minimumFast = settings.minimumFastSeconds }

    public mutating func analyze(_ meals: inout UserMeals, onDay: (FastingDay) -> Void) -> FastingSummary {
        analyzeByDay(&meals, minimumFast: minimumFast, countsOvernightFasts: false, onDay: onDay)
    }
}

private struct Episode {
    var start: Int64
    var end: Int64
    var kcalMicros: Int64
}

private func analyzeByDay(
    _ meals: inout UserMeals, minimumFast: Int64, countsOvernightFasts: Bool, onDay: (FastingDay) -> Void
) -> FastingSummary {
    meals.sort { ($0.start, $0.end) < ($1.start, $1.end) }
    var episodes: [Episode] = []
    for meal in meals {
        if var last = episodes.popLast() {
            if meal.start <= last.end {
                last.end = max(last.end, meal.end)
                last.kcalMicros += meal.kcalMicros
                episodes.append(last)
                continue
            }
            episodes.append(last)
        }
        episodes.append(Episode(start: meal.start, end: meal.end, kcalMicros: meal.kcalMicros))
    }

    let user = meals.user
    func localDay(_ t: Int64) -> LocalDay { LocalDay(instant: t, utcOffsetMinutes: user.utcOffsetMinutes) }
    var summary = FastingSummary()
    summary.meals = meals.count
    summary.episodes = episodes.count
    var byDay: [LocalDay: [Int]] = [:]
    for (i, episode) in episodes.enumerated() { byDay[localDay(episode.start), default: []].append(i) }

    for day in byDay.keys.sorted() {
        let mine = byDay[day]!
        var row = FastingDay(
            day: day, episodes: mine.count, kcalMicros: mine.reduce(0) { $0 + episodes[$1].kcalMicros },
            eatingWindowSeconds: episodes[mine.last!].end - episodes[mine.first!].start, fastsEnded: 0, longestFastEndedSeconds: 0,
            compliant: nil
        )
        for i in mine where i > 0 {
            let fast = episodes[i].start - episodes[i - 1].end
            let overnight = localDay(episodes[i - 1].end) != day
            guard fast >= minimumFast, countsOvernightFasts || !overnight else { continue }
            row.fastsEnded += 1
            row.longestFastEndedSeconds = max(row.longestFastEndedSeconds, fast)
            summary.fasts += 1
            summary.totalFastSeconds += fast
            summary.longestFastSeconds = max(summary.longestFastSeconds, fast)
        }
        if let limit = user.fastingProtocol.windowLimitSeconds {
            row.compliant = row.eatingWindowSeconds <= limit
            summary.evaluatedDays += 1
            summary.compliantDays += row.compliant! ? 1 : 0
        }
        onDay(row)
    }
    return summary
}
