import Datasets

/// A candidate row with an id that must be unique across the file.
protocol Deduplicable: Sendable {
    var idHash: UInt64 { get }
    var duplicate: Bool { get set }
}

extension MealCandidate: Deduplicable {}
extension StepCandidate: Deduplicable {}

/// Marks the candidates whose id an earlier candidate of the file already has (SPEC §2, §3: the
/// first accepted row in input order counts). Ids are compared by a 64-bit hash of their bytes.
/// The hash space is split into shards so each task owns its sets and memory stays small.
enum Deduplication {
    /// The most ids one shard's set holds before the work is split into more shards.
    static let idsPerShard = 5_000_000

    static func markDuplicates<C: Deduplicable>(_ chunks: inout [ScannedChunk<C>], tasks: Int) async -> Int {
        let found = await findDuplicates(chunks, tasks: max(1, tasks))
        for (chunk, index) in found { chunks[Int(chunk)].candidates[Int(index)].duplicate = true }
        return found.count
    }

    private static func findDuplicates<C: Deduplicable>(_ chunks: [ScannedChunk<C>], tasks: Int) async -> [(UInt32, UInt32)] {
        let total = chunks.reduce(0) { $0 + $1.candidates.count }
        let rounds = max(1, (total + tasks * idsPerShard - 1) / (tasks * idsPerShard))
        let shards = tasks * rounds
        let tableSize = max(16, (total / shards * 3 / 2 + 1).nextPowerOfTwo)
        return await withTaskGroup(of: [(UInt32, UInt32)].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var set = HashSet64(capacity: tableSize)
                    var duplicates: [(UInt32, UInt32)] = []
                    for shard in stride(from: task, to: shards, by: tasks) {
                        if shard != task { set.removeAll() }
                        for (c, chunk) in chunks.enumerated() {
                            chunk.candidates.withUnsafeBufferPointer { rows in
                                for (i, row) in rows.enumerated() {
                                    let h = row.idHash | 1
                                    guard Int(truncatingIfNeeded: ((h >> 32) &* UInt64(shards)) >> 32) == shard else { continue }
                                    if !set.insert(h) { duplicates.append((UInt32(c), UInt32(i))) }
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
}

/// A set of nonzero 64-bit hashes: open addressing in a huge-page buffer, grown at 3/4 load.
struct HashSet64 {
    private var table: LargeBuffer<UInt64>
    private var count = 0

    init(capacity: Int) { table = LargeBuffer(zeroedCount: max(16, capacity.nextPowerOfTwo)) }

    mutating func removeAll() {
        table.clear()
        count = 0
    }

    /// Inserts `h` (never 0); false when it was already there.
    @inline(__always) mutating func insert(_ h: UInt64) -> Bool {
        if (count + 1) * 4 > table.elements.count * 3 { grow() }
        let slots = table.elements
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

    private mutating func grow() {
        let old = table
        table = LargeBuffer(zeroedCount: old.elements.count * 2)
        count = 0
        for h in old.elements where h != 0 { _ = insert(h) }
    }
}

extension Int {
    var nextPowerOfTwo: Int {
        var p = 1
        while p < self { p <<= 1 }
        return p
    }
}
