import Datasets
@_spi(Tooling) import HealthCore
import PaymentsCore

/// Settings of an `analyze` run.
@_spi(Tooling) public struct AnalysisOptions: Sendable {
    /// `min_fast` of SPEC §2, in seconds.
    package var minimumFastSeconds: Int64
    /// `max_attempts` of SPEC §4.
    package var maxAttempts: Int
    /// Child tasks that parse and analyze at once.
    package var tasks: Int
    /// Bytes read at once from a file (whole lines): the unit of parallel parsing.
    package var chunkBytes: Int
    /// Called as each stage ends (`users`, `meals.csv: scanned`, …), e.g. to log time and memory.
    package var onStage: (@Sendable (String) -> Void)?

    /// Options with SPEC's defaults for `min_fast` and `max_attempts`.
    @_spi(Tooling) public init(
        minimumFastSeconds: Int64 = FastingConfiguration.defaultMinimumFast,
        maxAttempts: Int = RetryPolicy.defaultMaxAttempts, tasks: Int, chunkBytes: Int = 4 << 20
    ) {
        self.minimumFastSeconds = minimumFastSeconds
        self.maxAttempts = maxAttempts
        self.tasks = tasks
        self.chunkBytes = chunkBytes
    }

    func stage(_ name: String) { onStage?(name) }
}

/// `simharness analyze`: reads a dataset directory and writes every output of SPEC §5.
/// Files are processed one after another (users, payments, meals, steps) so memory holds one
/// file's rows at a time; within a file, every stage runs on `options.tasks` child tasks.
@_spi(Tooling) public enum DatasetAnalyzer {
    /// Runs the analysis. Throws `InputRefusal` (and writes nothing) when the input is refused.
    @_spi(Tooling) public static func run(input: String, output: String, options: AnalysisOptions) async throws -> AnalysisTotals {
        let files = try DatasetDiscovery.discover(in: input, sqliteTables: SQLiteTables.names)
        let out = try OutputDirectory(path: output)
        do {
            let totals = try await analyze(files: files, options: options, out: out)
            try out.publish()
            return totals
        } catch {
            out.discard()
            throw error
        }
    }

    private static func analyze(files: [DatasetKind: DatasetFile], options: AnalysisOptions, out: OutputDirectory) async throws -> AnalysisTotals {
        var totals = AnalysisTotals()
        var log = RejectionLog()
        let (users, userTotals) = try UsersStage.run(files[.users], log: &log)
        options.stage("users")
        totals.files[.users] = userTotals
        var payments: (rows: [DecodedPayment], decoder: PaymentRowDecoder)?
        if let file = files[.payments] {
            payments = try await PaymentsStage.read(file, users: users, tasks: options.tasks, chunkBytes: options.chunkBytes)
        }
        totals.files[.payments] = try await PaymentsStage.run(
            rows: payments?.rows ?? [], decoder: payments?.decoder ?? PaymentRowDecoder(users: users, file: ""),
            file: files[.payments], users: users, options: options, out: out, log: &log
        )
        payments = nil
        options.stage("payments")
        totals.files[.meals] = try await MealsStage.run(files[.meals], users: users, options: options, out: out, log: &log)
        options.stage("meals: analyzed")
        totals.files[.steps] = try await StepsStage.run(files[.steps], users: users, options: options, out: out, log: &log)
        options.stage("steps: analyzed")
        try out.write(SpecOutputFile.totals.rawValue, totals.json())
        try out.write(RejectionLog.fileName, log.buffer)
        return totals
    }
}
