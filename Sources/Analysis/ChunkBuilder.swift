/// Collects the accepted rows of one chunk in input order, then files them by partition and their
/// id hashes by shard. One per task: its storage is reused from chunk to chunk.
struct ChunkBuilder<Candidate: UserOwned>: ~Copyable {
    let partitions: UserPartitions
    private var pending: GrowingBuffer<Candidate>
    private var hashes: GrowingBuffer<UInt64>
    private var shardOfRow: GrowingBuffer<UInt8>
    private var partitionOfRow: GrowingBuffer<UInt8>
    private var rowCounts: [Int]
    private var hashCounts: [Int]

    /// A builder with room for `capacity` rows before its storage grows.
    init(partitions: UserPartitions, capacity: Int = 1 << 14) {
        self.partitions = partitions
        pending = GrowingBuffer(capacity: capacity)
        hashes = GrowingBuffer(capacity: capacity)
        shardOfRow = GrowingBuffer(capacity: capacity)
        partitionOfRow = GrowingBuffer(capacity: capacity)
        rowCounts = [Int](repeating: 0, count: partitions.count + 1)
        hashCounts = [Int](repeating: 0, count: Deduplication.shardCount + 1)
    }

    @inline(__always) mutating func add(_ row: Candidate, idHash: UInt64) {
        let p = partitions.partition(ofUser: row.user)
        let s = Deduplication.shard(of: idHash)
        pending.append(row)
        hashes.append(idHash)
        partitionOfRow.append(p)
        shardOfRow.append(s)
        rowCounts[Int(p) + 1] += 1
        hashCounts[Int(s) + 1] += 1
    }

    /// Moves the collected rows into `chunk` and starts over.
    mutating func finish(into chunk: inout ScannedChunk<Candidate>) {
        chunk.offsets = Self.startOffsets(&rowCounts)
        chunk.rows = Self.filed(pending.elements, by: partitionOfRow.elements, at: chunk.offsets)
        chunk.hashOffsets = Self.startOffsets(&hashCounts)
        chunk.idHashes = Self.filed(hashes.elements, by: shardOfRow.elements, at: chunk.hashOffsets)
        chunk.shardOfRow = Array(shardOfRow.elements)
        chunk.partitionOfRow = Array(partitionOfRow.elements)
        pending.removeAll()
        hashes.removeAll()
        shardOfRow.removeAll()
        partitionOfRow.removeAll()
    }

    /// Turns counts (at `key + 1`) into start offsets and resets the counts.
    private static func startOffsets(_ counts: inout [Int]) -> [Int] {
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        defer { for k in counts.indices { counts[k] = 0 } }
        return counts
    }

    /// `items` grouped by `keys`, stable: a counting sort.
    private static func filed<T>(_ items: UnsafeBufferPointer<T>, by keys: UnsafeBufferPointer<UInt8>, at offsets: [Int]) -> [T] {
        // No empty `[T](unsafeUninitializedCapacity: 0)`: it writes into the shared empty-array storage,
        // a race between chunks that ThreadSanitizer reports (see `KeyedTable.gather`).
        guard !items.isEmpty else { return [] }
        var cursor = offsets
        return [T](unsafeUninitializedCapacity: items.count) { buffer, count in
            for i in items.indices {
                let k = Int(keys[i])
                (buffer.baseAddress! + cursor[k]).initialize(to: items[i])
                cursor[k] += 1
            }
            count = items.count
        }
    }
}

/// An append-only buffer of plain values that keeps its memory when emptied: appending costs a
/// store and a capacity check, without the uniqueness check of an `Array`.
struct GrowingBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var start: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 1 << 14) {
        self.capacity = capacity
        start = .allocate(capacity: capacity)
    }

    deinit { start.deallocate() }

    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: start, count: count) }

    @inline(__always) mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (start + count).initialize(to: element)
        count += 1
    }

    mutating func removeAll() { count = 0 }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: start, count: count)
        start.deallocate()
        start = bigger
        capacity *= 2
    }
}
