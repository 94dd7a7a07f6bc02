import Datasets
import HealthCore

struct MealDecoding: CandidateDecoding {
    static let userColumn = 1
    let users: UserDirectory

    @inline(__always) func decode(_ fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) -> RowVerdict<MealCandidate> {
        RowDecoders.meal(fields, users: users)
    }
}

/// Meals through the fasting analyzer: `fasting_summary.csv` and `fasting_daily.csv` (SPEC §2).
public enum MealsStage {
    public static let summaryHeader = "user_id,meals,rejected,episodes,fasts,total_fast_s,longest_fast_s,evaluated_days,compliant_days"
    public static let dailyHeader = "user_id,day,episodes,kcal,eating_window_s,fasts_ended,longest_fast_ended_s,compliant"

    static func run(
        _ file: DatasetFile?, users: UserDirectory, options: AnalysisOptions, out: OutputDirectory, log: inout RejectionLog
    ) async throws -> FileTotals? {
        let summary = try out.create("fasting_summary.csv")
        let daily = try out.create("fasting_daily.csv")
        try summary.write(OutputBuffer(line: summaryHeader))
        try daily.write(OutputBuffer(line: dailyHeader))
        defer { _ = try? summary.close(); _ = try? daily.close() }
        guard let file else { return nil }
        let table: KeyedTable<MealCandidate> = try await .load(
            file, decoder: MealDecoding(users: users), reasons: MealRejection.allCases.map(\.rawValue), options: options, log: &log
        )
        let minimumFast = options.minimumFastSeconds
        try await OrderedParallel.run(count: table.partitions.count, width: options.tasks, job: { p in
            analyze(partition: p, of: table, users: users, minimumFast: minimumFast)
        }, consume: { (summaryRows, dailyRows) in
            try summary.write(summaryRows)
            try daily.write(dailyRows)
        })
        return table.totals
    }

    static func analyze(
        partition p: Int, of table: KeyedTable<MealCandidate>, users: UserDirectory, minimumFast: Int64
    ) -> (OutputBuffer, OutputBuffer) {
        var (range, starts, meals) = table.gather(partition: p) { $0.meal }
        var summaryRows = OutputBuffer(capacity: range.count * 48)
        var dailyRows = OutputBuffer(capacity: meals.count * 24)
        meals.withUnsafeMutableBufferPointer { all in
            for user in range {
                let slot = user - range.lowerBound
                let profile = users.profiles[user]
                let configuration = FastingConfiguration(
                    utcOffsetMinutes: profile.utcOffsetMinutes, fastingProtocol: profile.fastingProtocol, minimumFastSeconds: minimumFast
                )
                let mine = UnsafeMutableBufferPointer(rebasing: all[starts[slot]..<starts[slot + 1]])
                let result = FastingAnalyzer.analyze(sorting: mine, configuration: configuration) { day in
                    dailyRows.id(user, in: users.ids)
                    dailyRows.comma()
                    dailyRows.day(day.day)
                    dailyRows.comma()
                    dailyRows.int(day.episodes)
                    dailyRows.comma()
                    dailyRows.micros3(day.kcalMicros)
                    dailyRows.comma()
                    dailyRows.int(day.eatingWindowSeconds)
                    dailyRows.comma()
                    dailyRows.int(day.fastsEnded)
                    dailyRows.comma()
                    dailyRows.int(day.longestFastEndedSeconds)
                    dailyRows.comma()
                    if let compliant = day.compliant { dailyRows.byte(compliant ? UInt8(ascii: "1") : UInt8(ascii: "0")) }
                    dailyRows.newline()
                }
                summaryRows.id(user, in: users.ids)
                for value in [result.meals, Int(table.rejectedPerUser[user]), result.episodes, result.fasts] {
                    summaryRows.comma()
                    summaryRows.int(value)
                }
                summaryRows.comma()
                summaryRows.int(result.totalFastSeconds)
                summaryRows.comma()
                summaryRows.int(result.longestFastSeconds)
                summaryRows.comma()
                summaryRows.int(result.evaluatedDays)
                summaryRows.comma()
                summaryRows.int(result.compliantDays)
                summaryRows.newline()
            }
        }
        _ = range
        return (summaryRows, dailyRows)
    }
}
