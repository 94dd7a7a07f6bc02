import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles

/// Reads `users`: the directory every other file resolves `user_id` against (SPEC §1).
enum UsersStage {
    static let reasons = ["malformed", "duplicate"]

    static func run(_ file: DatasetFile?, log: inout RejectionLog) throws -> (UserDirectory, FileTotals?) {
        guard let file else { return (UserDirectory(profiles: []), nil) }
        var totals = FileTotals()
        // The valid rows, their ids and lines; repeated ids are found once all are read.
        var profiles: [UserProfile] = []
        var ids = ByteArena()
        var lines: [Int] = []
        var malformed: [(line: Int, column: Int?)] = []
        // Reserved once from the file's size (generated rows take some 46 bytes): reserved pages
        // that are never written cost no memory.
        let rows = file.expectedRows(bytesPerRow: 32)
        profiles.reserveCapacity(rows)
        ids.reserveCapacity(strings: rows, bytes: rows * 8)
        lines.reserveCapacity(rows)
        try RowReading.forEachRow(file, canonical: { base, start, end, line in
            guard let (profile, idCount, lineEnd) = CanonicalRows.user(base, start: start, end: end) else { return nil }
            totals.read += 1
            profiles.append(profile)
            ids.append(UnsafeBufferPointer(start: base + start, count: idCount))
            lines.append(line)
            return lineEnd
        }) { line, verdict, tokenizer in
            totals.read += 1
            if case .malformed(let column) = verdict {
                malformed.append((line, column))
                return
            }
            switch RowDecoders.user(tokenizer.fields) {
            case .failure(let bad): malformed.append((line, bad.column))
            case .success(let profile):
                profiles.append(profile)
                ids.append(tokenizer.fields[0])
                lines.append(line)
            }
        }
        let (directory, repeats) = UserDirectory.firstOfEachId(profiles: profiles, ids: ids)
        record(malformed: malformed, duplicates: repeats.map { lines[$0] }, of: file, into: &log)
        totals.setRejected([malformed.count, repeats.count], reasons: reasons)
        return (directory, totals)
    }

    /// Logs the rejected rows in line order.
    private static func record(malformed: [(line: Int, column: Int?)], duplicates: [Int], of file: DatasetFile, into log: inout RejectionLog) {
        let name = file.name, columns = file.kind.columns
        var m = 0, d = 0
        while m < malformed.count || d < duplicates.count {
            if d == duplicates.count || m < malformed.count && malformed[m].line < duplicates[d] {
                log.add(file: name, line: malformed[m].line, reason: reasons[0], column: malformed[m].column.map { columns[$0] } ?? "")
                m += 1
            } else {
                log.add(file: name, line: duplicates[d], reason: reasons[1], column: "")
                d += 1
            }
        }
    }
}
