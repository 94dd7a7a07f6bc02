import Datasets

/// A candidate that belongs to one user.
protocol UserOwned: Deduplicable {
    var user: UInt32 { get }
}

extension MealCandidate: UserOwned {}
extension StepCandidate: UserOwned {}

/// Splits the users into contiguous index ranges, so that partition order is output order and each
/// partition's rows fit in cache while a task analyzes them.
struct UserPartitions: Sendable {
    let userCount: Int
    let count: Int

    init(userCount: Int, rows: Int, tasks: Int) {
        self.userCount = userCount
        let byRows = rows / 50_000 + 1
        count = max(1, min(max(userCount, 1), max(byRows, tasks * 4)))
    }

    @inline(__always) func partition(ofUser user: UInt32) -> Int {
        Int(UInt64(user) * UInt64(count) / UInt64(max(userCount, 1)))
    }

    /// The users of partition `p`.
    func users(of p: Int) -> Range<Int> {
        func firstUser(_ q: Int) -> Int { (q * userCount + count - 1) / count }
        return firstUser(p)..<firstUser(p + 1)
    }
}

/// One chunk's accepted rows, grouped by partition in a stable order.
struct PartitionedChunk<C: Sendable>: Sendable {
    var rows: [C]
    /// `rows[offsets[p]..<offsets[p + 1]]` belong to partition `p`.
    var offsets: [Int]

    func rows(of p: Int) -> ArraySlice<C> { rows[offsets[p]..<offsets[p + 1]] }
}

enum Partitioning {
    /// Drops duplicates and groups each chunk's rows by partition, freeing each scanned chunk as it goes.
    static func partition<C: UserOwned>(
        _ chunks: consuming [ScannedChunk<C>], by partitions: UserPartitions, tasks: Int
    ) async -> [PartitionedChunk<C>] {
        var pending = chunks.map(\.candidates)
        chunks = []
        return await withTaskGroup(of: (Int, PartitionedChunk<C>).self) { group in
            var next = 0
            var done = [PartitionedChunk<C>?](repeating: nil, count: pending.count)
            func start() {
                guard next < pending.count else { return }
                let rows = pending[next]
                pending[next] = []
                let index = next
                group.addTask { (index, Partitioning.group(rows, by: partitions)) }
                next += 1
            }
            for _ in 0..<max(1, tasks) { start() }
            while let (index, result) = await group.next() {
                done[index] = result
                start()
            }
            return done.map { $0! }
        }
    }

    private static func group<C: UserOwned>(_ rows: [C], by partitions: UserPartitions) -> PartitionedChunk<C> {
        var offsets = [Int](repeating: 0, count: partitions.count + 1)
        for row in rows where !row.duplicate { offsets[partitions.partition(ofUser: row.user) + 1] += 1 }
        for p in 0..<partitions.count { offsets[p + 1] += offsets[p] }
        var cursor = offsets
        let kept = offsets[partitions.count]
        guard kept > 0 else { return PartitionedChunk(rows: [], offsets: offsets) }
        let grouped = [C](unsafeUninitializedCapacity: kept) { buffer, count in
            for row in rows where !row.duplicate {
                let p = partitions.partition(ofUser: row.user)
                (buffer.baseAddress! + cursor[p]).initialize(to: row)
                cursor[p] += 1
            }
            count = kept
        }
        return PartitionedChunk(rows: grouped, offsets: offsets)
    }
}
