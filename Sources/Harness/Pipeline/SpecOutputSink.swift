import Datasets
import PaymentsCore
import Synchronization

/// Writes the SPEC output files of a run (`--out`): each batch's rows go out in batch order,
/// whichever task finishes them, so the files are those `analyze` writes for the same data.
/// A task more than `window` batches ahead of the writer waits (bounded memory).
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

    private struct State {
        var files: Files
        var next = 0
        var ready: [Int: BatchOutput] = [:]
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let window: Int
    private let state: Mutex<State>

    /// The SPEC output files `run --out` writes (`analyze` also writes `rejections.csv`).
    static let fileNames = SpecOutputFile.allCases.map(\.rawValue)

    init(directory path: String, window: Int) throws {
        let directory = try OutputDirectory(path: path)
        let files = Files(
            directory: directory, summary: try directory.create(header: .fastingSummary),
            daily: try directory.create(header: .fastingDaily), steps: try directory.create(header: .stepsDaily),
            outcomes: try directory.create(header: .paymentsOutcomes), ledger: try directory.create(header: .paymentsLedger)
        )
        self.window = window
        state = Mutex(State(files: files))
    }

    /// Hands over the rows of batch `sequence` (0, 1, 2, … over the run).
    func submit(_ sequence: Int, _ output: BatchOutput) async throws {
        while true {
            try Task.checkCancellation()
            let (accepted, wake) = try state.withLock { s throws -> (Bool, [CheckedContinuation<Void, Never>]) in
                guard sequence < s.next + window else { return (false, []) }
                s.ready[sequence] = output
                while let ready = s.ready.removeValue(forKey: s.next) {
                    try s.files.write(ready)
                    s.next += 1
                }
                let limit = s.next + window
                let due = s.waiting.keys.filter { $0 < limit }
                return (true, due.compactMap { s.waiting.removeValue(forKey: $0) })
            }
            for continuation in wake { continuation.resume() }
            if accepted { return }
            await waitTurn(sequence)
        }
    }

    /// Writes `totals.json` and moves every file into place.
    func finish(totals: AnalysisTotals) throws {
        try state.withLock { s in
            for file in [s.files.summary, s.files.daily, s.files.steps, s.files.outcomes, s.files.ledger] { try file.close() }
            try s.files.directory.write(SpecOutputFile.totals.rawValue, totals.json())
            try s.files.directory.publish()
        }
    }

    /// Removes everything written (a failed or cancelled run leaves no output).
    func discard() {
        state.withLock { $0.files.directory.discard() }
    }

    private func waitTurn(_ sequence: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { s -> Bool in
                    if Task.isCancelled || sequence < s.next + window { return true }
                    s.waiting[sequence] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: sequence) }?.resume()
        }
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
