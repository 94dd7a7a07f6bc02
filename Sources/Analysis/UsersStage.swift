import Datasets
import HealthCore

/// Reads `users`: the directory every other file resolves `user_id` against (SPEC §1).
enum UsersStage {
    static let reasons = ["malformed", "duplicate"]

    static func run(_ file: DatasetFile?, log: inout RejectionLog) throws -> (UserDirectory, FileTotals?) {
        guard let file else { return (UserDirectory(profiles: []), nil) }
        var totals = FileTotals()
        var counts = [0, 0]
        var seen = ByteStringTable()
        var profiles: [UserProfile] = []
        try RowReading.forEachRow(file) { line, verdict, tokenizer in
            totals.read += 1
            var failure: (reason: Int, column: Int?)?
            if case .malformed(let column) = verdict {
                failure = (0, column)
            } else {
                switch RowDecoders.user(tokenizer.fields) {
                case .failure(let bad): failure = (0, bad.column)
                case .success(let profile):
                    if seen.intern(tokenizer.fields[0]).inserted { profiles.append(profile) } else { failure = (1, nil) }
                }
            }
            if let failure {
                counts[failure.reason] += 1
                log.add(file: file.name, line: line, reason: reasons[failure.reason],
                        column: failure.column.map { file.kind.columns[$0] } ?? "")
            }
        }
        totals.setRejected(counts, reasons: reasons)
        return (UserDirectory(profiles: profiles), totals)
    }
}
