import Datasets
import ParallelWork
@_spi(Tooling) import HealthCore
import SpecKernel

struct StepDecoding: CandidateDecoding {
    static let userColumn = 1
    let users: UserDirectory

    @inline(__always) func decode(_ fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) -> RowVerdict<StepCandidate> {
        RowDecoders.step(fields, users: users)
    }

    @inline(__always) func decodeCanonical(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> (StepCandidate, idHash: UInt64, lineEnd: Int)? {
        CanonicalRows.step(base, start: start, end: end, users: users)
    }

    func typedColumns(_ run: TypedRun) -> TypedCandidates.StepColumns? { TypedCandidates.StepColumns(run, users: users) }

    @inline(__always) func decodeTyped(_ row: Int, of columns: TypedCandidates.StepColumns) -> (StepCandidate, idHash: UInt64)? {
        TypedCandidates.step(row, of: columns)
    }
}

/// Step samples through the step aggregator: `steps_daily.csv` (SPEC §3).
enum StepsStage {
    static func run(
        _ file: DatasetFile?, users: UserDirectory, options: AnalysisOptions, out: OutputDirectory, log: inout RejectionLog
    ) async throws -> FileTotals? {
        let output = try out.create(header: .stepsDaily)
        defer { _ = try? output.close() }
        guard let file else { return nil }
        let table: KeyedTable<StepCandidate> = try await .load(
            file, decoder: StepDecoding(users: users), reasons: StepRejection.allCases.map(\.rawValue), options: options, log: &log
        )
        try await OrderedParallel.run(count: table.partitions.count, window: options.tasks + 1, job: { p in
            analyze(partition: p, of: table, users: users)
        }, consume: { try output.write($1.buffer) })
        return table.totals
    }

    static func analyze(partition p: Int, of table: KeyedTable<StepCandidate>, users: UserDirectory) -> SpecRowWriter {
        let (range, starts, gathered) = table.gather(partition: p) { $0.sample }
        var samples = consume gathered
        var rows = SpecRowWriter(capacity: samples.count * 16)
        let kernel = UserKernel()
        let offsets = range.map { users.profiles[$0].utcOffsetMinutes }
        let idRanges = range.map { users.ids.range($0) }
        users.ids.bytes.withUnsafeBufferPointer { idBytes in
            samples.withUnsafeMutableBufferPointer { all in
                for slot in 0..<range.count {
                    let id = UnsafeBufferPointer(rebasing: idBytes[idRanges[slot]])
                    let mine = UnsafeMutableBufferPointer(rebasing: all[starts[slot]..<starts[slot + 1]])
                    kernel.steps(mine, utcOffsetMinutes: offsets[slot]) { day in
                        rows.id(id)
                        rows.stepDayFields(day)
                    }
                }
            }
        }
        return rows
    }
}
