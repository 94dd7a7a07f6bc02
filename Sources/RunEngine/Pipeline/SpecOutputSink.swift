import DatasetText
import ParallelWork
import PaymentsCore
@_spi(Tooling) import RunResults

/// Writes the SPEC output files of a run (`--out`): each batch's rows go out in batch order,
/// whichever task finishes them, so the files are those `analyze` writes for the same data.
/// A task more than `window` batches ahead of the writer waits (bounded memory): the ordered
/// window is `OrderedParallel.Window`'s.
final class SpecOutputSink: Sendable {
    private struct Files {
        let directory: OutputDirectory
        let summary: OutputFile
        let daily: OutputFile
        let steps: OutputFile
        let outcomes: OutputFile
        let ledger: OutputFile

        func write(_ output: BatchOutput) throws {
            try summary.write(output.summary.buffer)
            try daily.write(output.daily.buffer)
            try steps.write(output.steps.buffer)
            try outcomes.write(output.outcomes.buffer)
            try ledger.write(output.ledger.buffer)
        }
    }

    private let window: OrderedParallel.Window<BatchOutput, Files>

    /// The SPEC output files `run --out` writes (`analyze` also writes `rejections.csv`).
    static let fileNames = SpecOutputFile.allCases.map(\.rawValue)

    init(directory path: String, window: Int) throws {
        let directory = try OutputDirectory(path: path)
        let files = Files(
            directory: directory, summary: try directory.create(header: .fastingSummary),
            daily: try directory.create(header: .fastingDaily), steps: try directory.create(header: .stepsDaily),
            outcomes: try directory.create(header: .paymentsOutcomes), ledger: try directory.create(header: .paymentsLedger)
        )
        self.window = OrderedParallel.Window(window: window, consumer: files) { files, output in try files.write(output) }
    }

    /// Hands over the rows of batch `sequence` (0, 1, 2, … over the run).
    func submit(_ sequence: Int, _ output: BatchOutput) async throws {
        try await window.submit(sequence, output)
    }

    /// Writes `totals.json` and moves every file into place.
    func finish(totals: AnalysisTotals) throws {
        try window.withConsumer { files in
            for file in [files.summary, files.daily, files.steps, files.outcomes, files.ledger] { try file.close() }
            try files.directory.write(SpecOutputFile.totals.rawValue, totals.json())
            try files.directory.publish()
        }
    }

    /// Removes everything written (a failed or cancelled run leaves no output).
    func discard() {
        window.withConsumer { $0.directory.discard() }
    }
}

extension RunMetrics {
    /// The counts of `totals.json`, as `analyze` writes them for the same rows.
    var analysisTotals: AnalysisTotals {
        var totals = AnalysisTotals()
        var users = FileTotals(read: userRows)
        users.rejected = userRejections.nonZero
        totals.files[.users] = users
        for (kind, stream) in [(DatasetKind.meals, meals), (.steps, steps), (.payments, payments)] {
            var file = FileTotals(read: stream.events)
            file.rejected = stream.rejected.nonZero
            totals.files[kind] = file
        }
        totals.files[.payments]?.states = zip(PaymentState.allCases, paymentStates).map { ($0.rawValue, $1) }
        return totals
    }
}
