import Datasets

/// The common front of the meals and steps stages: scan the file on every task, mark duplicate ids,
/// count and log rejections, and group the accepted rows by user partition.
struct KeyedTable<C: UserOwned>: Sendable {
    let partitions: UserPartitions
    let chunks: [PartitionedChunk<C>]
    /// Rejected rows that name each accepted user, duplicates and malformed rows included.
    let rejectedPerUser: [UInt32]
    let totals: FileTotals

    static func load<Decoder: CandidateDecoding>(
        _ file: DatasetFile, decoder: Decoder, reasons: [String], options: AnalysisOptions, log: inout RejectionLog
    ) async throws -> KeyedTable<C> where Decoder.Candidate == C {
        let tasks = options.tasks
        var scanned = try await TableScan.scan(file, decoder: decoder, tasks: tasks, chunkBytes: options.chunkBytes)
        options.stage("\(file.kind.rawValue): scanned")
        _ = await Deduplication.markDuplicates(&scanned, tasks: tasks)
        options.stage("\(file.kind.rawValue): duplicates marked")
        let users = decoder.users.count
        var rejectedPerUser = [UInt32](repeating: 0, count: users)
        var counts = [Int](repeating: 0, count: reasons.count)
        var totals = FileTotals()
        var accepted = 0
        let lines = ChunkLines(scanned)
        let duplicate = reasons.count - 1
        for (c, chunk) in scanned.enumerated() {
            totals.read += Int(chunk.lineCount) - chunk.emptyLines.count
            var duplicates: [Int] = []
            for (i, row) in chunk.candidates.enumerated() where row.duplicate { duplicates.append(i) }
            accepted += chunk.candidates.count - duplicates.count
            var dupLines = ChunkLines.candidateLines(chunk, indices: duplicates)[...]
            var dupUsers = duplicates.map { chunk.candidates[$0].user }[...]
            var rejections = chunk.rejections[...]
            while let next = rejections.first {
                if let dupLine = dupLines.first, dupLine < next.line {
                    logDuplicate(line: lines.line(chunk: c, local: dupLine), user: dupUsers.removeFirst())
                    dupLines.removeFirst()
                    continue
                }
                rejections.removeFirst()
                counts[Int(next.reason)] += 1
                if next.user != .max { rejectedPerUser[Int(next.user)] += 1 }
                log.add(file: file.name, line: lines.line(chunk: c, local: next.line), reason: reasons[Int(next.reason)],
                        column: next.column >= 0 ? file.kind.columns[Int(next.column)] : "")
            }
            while let dupLine = dupLines.popFirst() {
                logDuplicate(line: lines.line(chunk: c, local: dupLine), user: dupUsers.removeFirst())
            }
        }
        func logDuplicate(line: Int, user: UInt32) {
            counts[duplicate] += 1
            rejectedPerUser[Int(user)] += 1
            log.add(file: file.name, line: line, reason: reasons[duplicate], column: file.kind.columns[0])
        }
        totals.setRejected(counts, reasons: reasons)
        let partitions = UserPartitions(userCount: users, rows: accepted, tasks: tasks)
        let grouped = await Partitioning.partition(consume scanned, by: partitions, tasks: tasks)
        options.stage("\(file.kind.rawValue): grouped by user")
        return KeyedTable(partitions: partitions, chunks: grouped, rejectedPerUser: rejectedPerUser, totals: totals)
    }

    /// The rows of partition `p`, grouped by user: `rows[starts[u - first]..<starts[u - first + 1]]`
    /// belong to user `u`, where `first` is the partition's first user.
    func gather<T>(partition p: Int, _ transform: (C) -> T) -> (users: Range<Int>, starts: [Int], rows: [T]) {
        let users = partitions.users(of: p)
        var starts = [Int](repeating: 0, count: users.count + 1)
        for chunk in chunks {
            for row in chunk.rows(of: p) { starts[Int(row.user) - users.lowerBound + 1] += 1 }
        }
        for i in 0..<users.count { starts[i + 1] += starts[i] }
        var cursor = starts
        let total = starts[users.count]
        let rows = [T](unsafeUninitializedCapacity: total) { buffer, count in
            for chunk in chunks {
                for row in chunk.rows(of: p) {
                    let slot = Int(row.user) - users.lowerBound
                    (buffer.baseAddress! + cursor[slot]).initialize(to: transform(row))
                    cursor[slot] += 1
                }
            }
            count = total
        }
        return (users, starts, rows)
    }
}
