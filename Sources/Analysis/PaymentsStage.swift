import Datasets
import ParallelWork
import PaymentsCore
import SpecKernel

/// Payments through the payment processor: `payments_outcomes.csv` and `payments_ledger.csv`
/// (SPEC §4). Users are independent, so they are processed on several tasks.
enum PaymentsStage {
    /// Reads and validates the rows; refuses a repeated `payment_id` before anything is processed.
    /// A CSV or NDJSON file's chunks are parsed on `tasks` tasks at once, their ids and keys then
    /// interned on this one, in file order (their numbers, and the line a repeated id is refused
    /// at, are those of the file's order).
    static func read(
        _ file: DatasetFile, users: UserDirectory, tasks: Int, chunkBytes: Int
    ) async throws -> (rows: [DecodedPayment], decoder: PaymentRowDecoder) {
        // About 60 bytes a row: the rows and the ids' tables are made for the whole file at once, up to
        // 4 M rows (a file of long lines must not reserve memory for rows it does not have; reserved
        // and untouched, the rest costs no memory), so that none grows by copying itself.
        let expectedRows = min(file.expectedRows(bytesPerRow: 56), 1 << 22)
        var decoder = PaymentRowDecoder(users: users, file: file.name, expectedRows: expectedRows)
        var rows: [DecodedPayment] = []
        rows.reserveCapacity(expectedRows)
        if file.format == .sqlite {
            try RowReading.forEachRow(file) { line, _, tokenizer in
                rows.append(try decoder.decode(line: line, malformedColumn: nil, fields: tokenizer.fields, tokenized: true))
            }
            return (rows, decoder)
        }
        let start: @Sendable (Int) -> ParsedPayments = { ParsedPayments(expectedRows: $0 / 56) }
        let parse: @Sendable (inout ParsedPayments, Int, RowTokenizer.Line, RowTokenizer) -> Void = { parsed, line, verdict, tokenizer in
            var column: Int?
            if case .malformed(let c) = verdict { column = c }
            parsed.append(line: line, malformedColumn: column, fields: tokenizer.fields, tokenized: verdict == .row, users: users)
        }
        let consume = { (linesBefore: Int, parsed: ParsedPayments) in try decoder.intern(parsed, linesBefore: linesBefore, into: &rows) }
        if file.format == .parquet {
            try await ParquetRows.forEachUnit(
                file, tasks: tasks, start: start, parse: parse, typedColumns: { TypedPayments.Columns($0, users: users) },
                parseTyped: { parsed, row, columns, line in parsed.append(row: row, of: columns, line: line) }, consume: consume
            )
        } else {
            try await RowReading.forEachChunk(file, tasks: tasks, chunkBytes: chunkBytes, start: start, parse: parse, consume: consume)
        }
        return (rows, decoder)
    }

    static func run(
        rows: [DecodedPayment], decoder: PaymentRowDecoder, file: DatasetFile?, users: UserDirectory, options: AnalysisOptions,
        out: OutputDirectory, log: inout RejectionLog
    ) async throws -> FileTotals? {
        let ledger = try out.create(header: .paymentsLedger)
        defer { _ = try? ledger.close() }
        guard let file else {
            try out.write(SpecOutputFile.paymentsOutcomes.rawValue, SpecRowWriter(headerOf: .paymentsOutcomes).buffer)
            return nil
        }
        var outcomes = [PaymentOutcome?](repeating: nil, count: rows.count)
        for (i, row) in rows.enumerated() {
            if let rejection = row.rejection { outcomes[i] = .rejected(rejection) }
        }
        let byUser = RowsByKey.acceptedByUser(rows, users: users.count)
        let rank = idRanks(decoder.ids)
        let jobs = min(users.count, max(1, options.tasks) * 16)
        let policy = RetryPolicy(maxAttempts: options.maxAttempts)
        var violations: [String] = []
        try await OrderedParallel.run(count: jobs, window: options.tasks + 1, job: { job in
            let first = job * users.count / jobs, last = (job + 1) * users.count / jobs
            return process(users: first..<last, byUser: byUser, rows: rows, rank: rank, policy: policy, ids: users.ids)
        }, consume: { _, result in
            for (row, outcome) in result.outcomes { outcomes[Int(row)] = outcome }
            try ledger.write(result.ledger.buffer)
            violations += result.violations
        })
        guard violations.isEmpty else { throw InvariantFailure(violations: violations) }
        return try await writeOutcomes(
            rows: rows, outcomes: outcomes, rank: rank, ids: decoder.ids, file: file, tasks: options.tasks, out: out, log: &log
        )
    }

    /// Rank of each interned id in byte order.
    static func idRanks(_ ids: ByteStringTable) -> [UInt32] {
        var rank = [UInt32](repeating: 0, count: ids.count)
        for (position, id) in ids.strings.sortedIndices().enumerated() { rank[id] = UInt32(position) }
        return rank
    }

    struct UserBatchResult: Sendable {
        var outcomes: [(Int32, PaymentOutcome)] = []
        var ledger = SpecRowWriter(capacity: 1 << 12)
        var violations: [String] = []
    }

    static func process(
        users: Range<Int>, byUser: RowsByKey, rows: [DecodedPayment], rank: [UInt32], policy: RetryPolicy, ids: ByteArena
    ) -> UserBatchResult {
        var result = UserBatchResult()
        let kernel = UserKernel(policy: policy)
        for user in users where !byUser[user].isEmpty {
            kernel.beginPayments()
            for row in byUser[user] {
                let request = rows[Int(row)].request
                kernel.addPayment(createdAt: request.createdAt, idRank: rank[Int(request.id)], row: row)
            }
            let problems = kernel.processPayments(ofUser: UInt32(user), request: { rows[Int($0)].request }) { row, outcome in
                result.outcomes.append((row, outcome))
            }
            for problem in problems { result.violations.append("user \(ids.string(user)): \(problem)") }
            kernel.ledger.forEachEntry { entry in
                ids.withBytes(user) { result.ledger.id($0) }
                result.ledger.ledgerFields(entry)
            }
        }
        return result
    }

    /// Counts the outcomes and logs the rejections, then writes `payments_outcomes.csv`: its rows in
    /// the byte order of their ids, formatted in parts on `tasks` tasks and written in order.
    static func writeOutcomes(
        rows: [DecodedPayment], outcomes: [PaymentOutcome?], rank: [UInt32], ids: ByteStringTable, file: DatasetFile,
        tasks: Int, out: OutputDirectory, log: inout RejectionLog
    ) async throws -> FileTotals {
        var totals = FileTotals(read: rows.count)
        // Made once, not per row (`name` splits the file's path at every call).
        let reasons = PaymentRejection.allCases, states = PaymentState.allCases
        let fileName = file.name, columns = file.kind.columns
        var reasonCounts = [Int](repeating: 0, count: reasons.count)
        var stateCounts = [Int](repeating: 0, count: states.count)
        for (i, row) in rows.enumerated() {
            let outcome = outcomes[i]!
            stateCounts[states.firstIndex(of: outcome.state)!] += 1
            if let reason = outcome.reason {
                reasonCounts[reasons.firstIndex(of: reason)!] += 1
                let column = reason == .malformed || reason == .unknownUser ? (row.column >= 0 ? columns[Int(row.column)] : "") : ""
                log.add(file: fileName, line: row.line, reason: reason.rawValue, column: column)
            }
        }
        totals.setRejected(reasonCounts, reasons: reasons.map(\.rawValue))
        totals.states = zip(states, stateCounts).map { ($0.0.rawValue, $0.1) }

        let order = RowsByKey.byIdRank(rows, rank: rank).rows
        let parts = max(1, tasks) * 4
        let text = try out.create(header: .paymentsOutcomes)
        do {
            try await OrderedParallel.run(count: parts, window: max(1, tasks) + 1, job: { part in
                let range = part * order.count / parts..<(part + 1) * order.count / parts
                var writer = SpecRowWriter(capacity: range.count * 32)
                for i in order[range] {
                    ids.strings.withBytes(Int(rows[Int(i)].request.id)) { writer.id($0) }
                    writer.outcomeFields(outcomes[Int(i)]!)
                }
                return writer
            }, consume: { _, writer in try text.write(writer.buffer) })
        } catch {
            _ = try? text.close()
            throw error
        }
        try text.close()
        return totals
    }
}

/// Row indices grouped by a key from 0 to `keys - 1`, each group in row order, rows without a key
/// left out: a counting sort into one array (an array per group cost an allocation or more per
/// group, and a comparison sort looked both keys up at every comparison).
struct RowsByKey: Sendable {
    private let starts: [Int]
    /// The grouped row indices, group after group.
    let rows: [Int32]

    init(rows count: Int, keys: Int, key: (Int) -> Int?) {
        var starts = [Int](repeating: 0, count: keys + 1)
        for i in 0..<count { if let k = key(i) { starts[k + 1] += 1 } }
        for k in 0..<keys { starts[k + 1] += starts[k] }
        var cursor = starts
        var rows = [Int32](repeating: 0, count: starts[keys])
        for i in 0..<count {
            guard let k = key(i) else { continue }
            rows[cursor[k]] = Int32(i)
            cursor[k] += 1
        }
        self.starts = starts
        self.rows = rows
    }

    /// The rows of group `key`.
    subscript(key: Int) -> ArraySlice<Int32> { rows[starts[key]..<starts[key + 1]] }

    /// The accepted payment rows of each user, in file order.
    static func acceptedByUser(_ payments: [DecodedPayment], users: Int) -> RowsByKey {
        RowsByKey(rows: payments.count, keys: users) { payments[$0].rejection == nil ? Int(payments[$0].user) : nil }
    }

    /// The payment rows in the byte order of their `payment_id` (`rank` of each id), rows of one id
    /// in file order (only an empty id can repeat): `payments_outcomes.csv`'s order.
    static func byIdRank(_ payments: [DecodedPayment], rank: [UInt32]) -> RowsByKey {
        RowsByKey(rows: payments.count, keys: rank.count) { Int(rank[Int(payments[$0].request.id)]) }
    }
}

/// The payment invariants of SPEC §4 did not hold: a bug, reported as an internal error.
package struct InvariantFailure: Error, CustomStringConvertible, Sendable {
    /// One line per broken invariant, naming the user.
    package var violations: [String]
    /// The count and the first 20 violations.
    package var description: String {
        "payment invariants violated (\(violations.count)):\n" + violations.prefix(20).joined(separator: "\n")
    }
}
