import Datasets
import ParallelWork
@_spi(Tooling) import HealthCore
import SpecKernel

struct MealDecoding: CandidateDecoding {
    static let userColumn = 1
    let users: UserDirectory

    @inline(__always) func decode(_ fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) -> RowVerdict<MealCandidate> {
        RowDecoders.meal(fields, users: users)
    }

    @inline(__always) func decodeCanonical(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> (MealCandidate, idHash: UInt64, lineEnd: Int)? {
        CanonicalRows.meal(base, start: start, end: end, users: users)
    }

    func typedColumns(_ run: TypedRun) -> TypedCandidates.MealColumns? { TypedCandidates.MealColumns(run, users: users) }

    @inline(__always) func decodeTyped(_ row: Int, of columns: TypedCandidates.MealColumns) -> (MealCandidate, idHash: UInt64)? {
        TypedCandidates.meal(row, of: columns)
    }
}

/// Meals through the fasting analyzer: `fasting_summary.csv` and `fasting_daily.csv` (SPEC §2).
enum MealsStage {
    static func run(
        _ file: DatasetFile?, users: UserDirectory, options: AnalysisOptions, out: OutputDirectory, log: inout RejectionLog
    ) async throws -> FileTotals? {
        let summary = try out.create(header: .fastingSummary)
        let daily = try out.create(header: .fastingDaily)
        defer { _ = try? summary.close(); _ = try? daily.close() }
        guard let file else { return nil }
        let table: KeyedTable<MealCandidate> = try await .load(
            file, decoder: MealDecoding(users: users), reasons: MealRejection.allCases.map(\.rawValue), options: options, log: &log
        )
        let minimumFast = options.minimumFastSeconds
        try await OrderedParallel.run(count: table.partitions.count, window: options.tasks + 1, job: { p in
            analyze(partition: p, of: table, users: users, minimumFast: minimumFast)
        }, consume: { _, rows in
            let (summaryRows, dailyRows) = rows
            try summary.write(summaryRows.buffer)
            try daily.write(dailyRows.buffer)
        })
        return table.totals
    }

    static func analyze(
        partition p: Int, of table: KeyedTable<MealCandidate>, users: UserDirectory, minimumFast: Int64
    ) -> (SpecRowWriter, SpecRowWriter) {
        let (range, starts, gathered) = table.gather(partition: p) { $0.meal }
        var meals = consume gathered
        var summaryRows = SpecRowWriter(capacity: range.count * 48)
        var dailyRows = SpecRowWriter(capacity: meals.count * 24)
        let kernel = UserKernel(minimumFastSeconds: minimumFast)
        let profiles = range.map { users.profiles[$0] }
        let idRanges = range.map { users.ids.range($0) }
        let rejected = range.map { Int(table.rejectedPerUser[$0]) }
        users.ids.bytes.withUnsafeBufferPointer { idBytes in
            meals.withUnsafeMutableBufferPointer { all in
                for slot in 0..<range.count {
                    let id = UnsafeBufferPointer(rebasing: idBytes[idRanges[slot]])
                    let mine = UnsafeMutableBufferPointer(rebasing: all[starts[slot]..<starts[slot + 1]])
                    let profile = profiles[slot]
                    let result = kernel.fasting(mine, utcOffsetMinutes: profile.utcOffsetMinutes, fastingProtocol: profile.fastingProtocol) { day in
                        dailyRows.id(id)
                        dailyRows.fastingDayFields(day)
                    }
                    summaryRows.id(id)
                    summaryRows.fastingSummaryFields(result, rejected: rejected[slot])
                }
            }
        }
        return (summaryRows, dailyRows)
    }
}
