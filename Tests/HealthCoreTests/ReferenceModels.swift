@_spi(Tooling) import HealthCore

/// Straightforward transcriptions of SPEC §2 and §3, written independently of the streaming
/// implementations, for the property tests to compare against. Slow and obvious on purpose.
enum ReferenceModel {
    /// SPEC §2 steps 1–4, with whole lists and a dictionary of days.
    static func fasting(_ meals: [Meal], _ configuration: FastingConfiguration) -> (summary: FastingSummary, days: [DayRow]) {
        let sorted = meals.sorted { ($0.start, $0.end, $0.kcalMicros) < ($1.start, $1.end, $1.kcalMicros) }
        var episodes: [(start: Int64, end: Int64, kcal: Int64)] = []
        for meal in sorted {
            if let last = episodes.last, meal.start <= last.end {
                episodes[episodes.count - 1].end = max(last.end, meal.end)
                episodes[episodes.count - 1].kcal += meal.kcalMicros
            } else {
                episodes.append((meal.start, meal.end, meal.kcalMicros))
            }
        }
        func day(_ t: Int64) -> Int64 {
            let shifted = t + 60 * Int64(configuration.utcOffsetMinutes)
            return (shifted - ((shifted % 86_400) + 86_400) % 86_400) / 86_400
        }
        var summary = FastingSummary()
        summary.meals = meals.count
        summary.episodes = episodes.count
        var fastsByDay: [Int64: [Int64]] = [:]
        for (previous, next) in zip(episodes, episodes.dropFirst()) {
            let gap = next.start - previous.end
            guard gap >= configuration.minimumFastSeconds else { continue }
            summary.fasts += 1
            summary.totalFastSeconds += gap
            summary.longestFastSeconds = max(summary.longestFastSeconds, gap)
            fastsByDay[day(next.start), default: []].append(gap)
        }
        let byDay = Dictionary(grouping: episodes) { day($0.start) }
        var rows: [DayRow] = []
        for (index, dayEpisodes) in byDay.sorted(by: { $0.key < $1.key }) {
            let window = dayEpisodes.last!.end - dayEpisodes.first!.start
            var compliant: Bool?
            if let limit = configuration.fastingProtocol.windowLimitSeconds {
                compliant = window <= limit
                summary.evaluatedDays += 1
                summary.compliantDays += window <= limit ? 1 : 0
            }
            let fasts = fastsByDay[index] ?? []
            rows.append(DayRow(
                day: index, episodes: dayEpisodes.count, kcal: dayEpisodes.reduce(0) { $0 + $1.kcal },
                window: window, fasts: fasts.count, longest: fasts.max() ?? 0, compliant: compliant
            ))
        }
        return (summary, rows)
    }

    /// SPEC §3 over elementary intervals: between consecutive sample ends and local midnights the
    /// set of covering samples is constant, so each interval counts the watches covering it, or the
    /// phones if no watch does.
    static func steps(_ samples: [StepSample], utcOffsetMinutes: Int32) -> [(day: Int64, steps: Double, average7: Double)] {
        guard !samples.isEmpty else { return [] }
        let shift = 60 * Int64(utcOffsetMinutes)
        func day(_ t: Int64) -> Int64 { Int64((Double(t + shift) / 86_400).rounded(.down)) }
        var cuts = Set(samples.flatMap { [$0.start, $0.end] })
        let first = day(samples.map(\.start).min()!), last = day(samples.map(\.end).max()!)
        for index in first...(last + 1) { cuts.insert(index * 86_400 - shift) }
        let sortedCuts = cuts.sorted()
        var totals: [Int64: Double] = [:]
        for (from, to) in zip(sortedCuts, sortedCuts.dropFirst()) {
            let covering = samples.filter { $0.start <= from && to <= $0.end }
            let watches = covering.filter { $0.source == .watch }
            let counted = watches.isEmpty ? covering : watches
            for sample in counted {
                totals[day(from), default: 0] += sample.count * Double(to - from) / Double(sample.end - sample.start)
            }
        }
        let touched = Set(samples.flatMap { day($0.start)...day($0.end - 1) })
        return touched.sorted().map { index in
            let week = ((index - 6)...index).reduce(0.0) { $0 + (totals[$1] ?? 0) }
            return (index, totals[index] ?? 0, week / 7)
        }
    }
}
