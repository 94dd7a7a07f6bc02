import CPrefetch
import Datasets

/// A row whose id an earlier row of its file already has: its index among the chunk's accepted
/// rows in input order, and its user.
struct DuplicateRow: Equatable {
    var row: Int
    var user: UInt32
}

/// Marks the rows whose id an earlier accepted row of the file already has (SPEC §2, §3: the first
/// accepted row in input order counts). Ids are compared by a 64-bit hash of their bytes. The scan
/// files each chunk's hashes under one of `shardCount` shards by their top bits, so each task owns
/// whole shards and a shard's set is small enough to stay in cache.
enum Deduplication {
    static let shardCount = 64

    @inline(__always) static func shard(of idHash: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: idHash >> 58) }

    /// Marks the duplicates and returns them, per chunk in input order.
    static func markDuplicates<C: UserOwned>(_ chunks: inout [ScannedChunk<C>], tasks: Int) async -> [[DuplicateRow]] {
        var perChunk = [[Int]](repeating: [], count: chunks.count)
        for (chunk, position) in await findDuplicates(chunks, tasks: max(1, tasks)) { perChunk[Int(chunk)].append(Int(position)) }
        let places = await locate(hashPositions: perChunk, in: chunks, tasks: max(1, tasks))
        return places.enumerated().map { c, found in
            found.map { row, place in
                chunks[c].rows[place].duplicate = true
                return DuplicateRow(row: row, user: chunks[c].rows[place].user)
            }
        }
    }

    /// For the hashes at `positions[c]` of each chunk's `idHashes`, the row's input order and its
    /// place in `rows`, in input order: replays the scan's filing by shard and by partition.
    private static func locate<C: UserOwned>(
        hashPositions positions: [[Int]], in chunks: [ScannedChunk<C>], tasks: Int
    ) async -> [[(row: Int, place: Int)]] {
        await withTaskGroup(of: [(chunk: Int, found: [(row: Int, place: Int)])].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    stride(from: task, to: chunks.count, by: tasks).map { c in (c, locate(hashPositions: positions[c], in: chunks[c])) }
                }
            }
            var all = [[(row: Int, place: Int)]](repeating: [], count: chunks.count)
            for await part in group {
                for (chunk, found) in part { all[chunk] = found }
            }
            return all
        }
    }

    private static func locate<C: UserOwned>(hashPositions positions: [Int], in chunk: ScannedChunk<C>) -> [(row: Int, place: Int)] {
        guard !positions.isEmpty else { return [] }
        var isDuplicate = [Bool](repeating: false, count: chunk.idHashes.count)
        for position in positions { isDuplicate[position] = true }
        var hashCursor = chunk.hashOffsets
        var rowCursor = chunk.offsets
        var found: [(row: Int, place: Int)] = []
        found.reserveCapacity(positions.count)
        // The cursors through buffer pointers: as arrays, every row's increments checked bounds and
        // uniqueness. The scan filed every row under one shard and one partition, so all are in range.
        hashCursor.withUnsafeMutableBufferPointer { hashCursor in
            rowCursor.withUnsafeMutableBufferPointer { rowCursor in
                for (i, (shard, partition)) in zip(chunk.shardOfRow, chunk.partitionOfRow).enumerated() {
                    let s = Int(shard), p = Int(partition)
                    if isDuplicate[hashCursor[s]] { found.append((i, rowCursor[p])) }
                    hashCursor[s] += 1
                    rowCursor[p] += 1
                }
            }
        }
        return found
    }

    /// The (chunk, hash position) of every hash that an earlier one of its shard equals.
    private static func findDuplicates<C>(_ chunks: [ScannedChunk<C>], tasks: Int) async -> [(UInt32, UInt32)] {
        await withTaskGroup(of: [(UInt32, UInt32)].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var duplicates: [(UInt32, UInt32)] = []
                    var set = HashSet64(capacity: 0)
                    for shard in stride(from: task, to: shardCount, by: tasks) {
                        set.removeAll(reservingCapacity: chunks.reduce(0) { $0 + $1.hashOffsets[shard + 1] - $1.hashOffsets[shard] })
                        for (c, chunk) in chunks.enumerated() {
                            let range = chunk.hashOffsets[shard]..<chunk.hashOffsets[shard + 1]
                            chunk.idHashes.withUnsafeBufferPointer { hashes in
                                for i in range {
                                    if i + prefetchDistance < range.upperBound { set.prefetch(hashes[i + prefetchDistance] | 1) }
                                    if !set.insert(hashes[i] | 1) { duplicates.append((UInt32(c), UInt32(i))) }
                                }
                            }
                        }
                    }
                    return duplicates
                }
            }
            var all: [(UInt32, UInt32)] = []
            for await part in group { all += part }
            return all
        }
    }

    /// How many hashes ahead the set's slots are loaded into the cache.
    private static let prefetchDistance = 16
}

/// A set of nonzero 64-bit hashes: open addressing in a huge-page buffer, readied for a known
/// number of hashes at most 3/4 of its slots. Its slot is taken from the low bits, so hashes of
/// one shard spread over the whole table.
struct HashSet64 {
    private var buffer: LargeBuffer<UInt64>
    /// The table: a power-of-two prefix of the buffer.
    private var slots: UnsafeMutableBufferPointer<UInt64>
    private var count = 0

    init(capacity: Int) {
        buffer = LargeBuffer(zeroedCount: Self.tableSize(for: capacity))
        slots = buffer.elements
    }

    private static func tableSize(for capacity: Int) -> Int { max(16, (capacity * 4 / 3 + 1).nextPowerOfTwo) }

    /// Empties the set and readies it for `capacity` hashes, reusing its memory when it is big enough.
    mutating func removeAll(reservingCapacity capacity: Int) {
        let size = Self.tableSize(for: capacity)
        if size > buffer.elements.count {
            buffer = LargeBuffer(zeroedCount: size)
        } else {
            slots.update(repeating: 0)
        }
        slots = UnsafeMutableBufferPointer(rebasing: buffer.elements[..<size])
        count = 0
    }

    /// Starts loading the slot where `h` goes into the cache.
    @inline(__always) func prefetch(_ h: UInt64) {
        simharness_prefetch_for_write(slots.baseAddress! + (Int(truncatingIfNeeded: h) & (slots.count - 1)))
    }

    /// Inserts `h` (never 0); false when it was already there.
    @inline(__always) mutating func insert(_ h: UInt64) -> Bool {
        precondition((count + 1) * 4 <= slots.count * 3, "more hashes than the set was readied for")
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let slot = slots[i]
            if slot == 0 {
                slots[i] = h
                count += 1
                return true
            }
            if slot == h { return false }
            i = (i + 1) & mask
        }
    }
}

extension Int {
    var nextPowerOfTwo: Int {
        var p = 1
        while p < self { p <<= 1 }
        return p
    }
}
