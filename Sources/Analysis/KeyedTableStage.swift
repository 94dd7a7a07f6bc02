import Datasets

/// The common front of the meals and steps stages: scan the file on every task, grouping the accepted
/// rows by user partition as they come, then mark duplicate ids and count and log rejections.
struct KeyedTable<C: UserOwned>: Sendable {
    let partitions: UserPartitions
    let chunks: [ScannedChunk<C>]
    /// Rejected rows that name each accepted user, duplicates and malformed rows included.
    let rejectedPerUser: [UInt32]
    let totals: FileTotals

    static func load<Decoder: CandidateDecoding>(
        _ file: DatasetFile, decoder: Decoder, reasons: [String], options: AnalysisOptions, log: inout RejectionLog
    ) async throws -> KeyedTable<C> where Decoder.Candidate == C {
        let tasks = options.tasks
        let users = decoder.users.count
        let partitions = UserPartitions(userCount: users, expectedRows: file.expectedRows(bytesPerRow: 64), tasks: tasks)
        var scanned = try await TableScan.scan(file, decoder: decoder, partitions: partitions, tasks: tasks, chunkBytes: options.chunkBytes)
        options.stage("\(file.kind.rawValue): scanned")
        let duplicatesPerChunk = await Deduplication.markDuplicates(&scanned, tasks: tasks)
        options.stage("\(file.kind.rawValue): duplicates marked")
        var rejectedPerUser = [UInt32](repeating: 0, count: users)
        var counts = [Int](repeating: 0, count: reasons.count)
        var totals = FileTotals()
        let lines = ChunkLines(scanned)
        let duplicate = reasons.count - 1
        let fileName = file.name, columns = file.kind.columns
        for c in scanned.indices {
            let chunk = scanned[c]
            totals.read += Int(chunk.lineCount) - chunk.emptyLines.count
            let duplicates = duplicatesPerChunk[c]
            var dupLines = ChunkLines.candidateLines(chunk, indices: duplicates.map(\.row))[...]
            var dupUsers = duplicates.map(\.user)[...]
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
                log.add(file: fileName, line: lines.line(chunk: c, local: next.line), reason: reasons[Int(next.reason)],
                        column: next.column >= 0 ? columns[Int(next.column)] : "")
            }
            while let dupLine = dupLines.popFirst() {
                logDuplicate(line: lines.line(chunk: c, local: dupLine), user: dupUsers.removeFirst())
            }
            scanned[c].dropIdHashes()
        }
        func logDuplicate(line: Int, user: UInt32) {
            counts[duplicate] += 1
            rejectedPerUser[Int(user)] += 1
            log.add(file: fileName, line: line, reason: reasons[duplicate], column: columns[0])
        }
        totals.setRejected(counts, reasons: reasons)
        options.stage("\(file.kind.rawValue): rejections logged")
        return KeyedTable(partitions: partitions, chunks: scanned, rejectedPerUser: rejectedPerUser, totals: totals)
    }

    /// The rows of partition `p`, grouped by user: `rows[starts[u - first]..<starts[u - first + 1]]`
    /// belong to user `u`, where `first` is the partition's first user.
    func gather<T>(partition p: Int, _ transform: (C) -> T) -> (users: Range<Int>, starts: [Int], rows: [T]) {
        let users = partitions.users(of: p)
        let first = users.lowerBound
        // The counts and cursors through buffer pointers: as arrays, each increment checked their
        // uniqueness and bounds. A partition's rows are its users' by construction; the precondition says so.
        var starts = [Int](repeating: 0, count: users.count + 1)
        starts.withUnsafeMutableBufferPointer { counts in
            for chunk in chunks {
                chunk.rows(of: p).withUnsafeBufferPointer { rows in
                    for row in rows where !row.duplicate {
                        let slot = Int(row.user) - first
                        precondition(slot >= 0 && slot < users.count, "a row outside its partition's users")
                        counts[slot + 1] += 1
                    }
                }
            }
            for i in 0..<users.count { counts[i + 1] += counts[i] }
        }
        var cursor = starts
        let total = starts[users.count]
        // Not `[T](unsafeUninitializedCapacity: 0)`: the standard library then writes the count into the
        // shared empty-array storage, a race between partitions that ThreadSanitizer reports.
        guard total > 0 else { return (users, starts, []) }
        let rows = cursor.withUnsafeMutableBufferPointer { cursor in
            [T](unsafeUninitializedCapacity: total) { buffer, count in
                for chunk in chunks {
                    chunk.rows(of: p).withUnsafeBufferPointer { rows in
                        for row in rows where !row.duplicate {
                            let slot = Int(row.user) - first
                            (buffer.baseAddress! + cursor[slot]).initialize(to: transform(row))
                            cursor[slot] += 1
                        }
                    }
                }
                count = total
            }
        }
        return (users, starts, rows)
    }
}
