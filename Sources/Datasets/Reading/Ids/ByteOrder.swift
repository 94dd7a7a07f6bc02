/// The byte order of the strings of a `ByteArena`, as SPEC §0 sorts ids.
extension ByteArena {
    /// Indices `0..<count` sorted by the bytes of their strings; equal strings by index.
    public func sortedIndices() -> [Int] {
        withOrder { $0.isStrictlyIncreasing ? Array(0..<count) : $0.sorted() }
    }

    /// The index of the first occurrence of each distinct string, sorted by bytes, and the
    /// indices whose string repeats one at a smaller index, ascending. `first` is `nil` when the
    /// strings already increase strictly (all distinct, in index order), as generated ids do:
    /// checking that costs one comparison per string, sorting none.
    package func firstOccurrences() -> (first: [Int]?, repeats: [Int]) {
        withOrder { order in
            if order.isStrictlyIncreasing { return (nil, []) }
            let sorted = order.sorted()
            var first: [Int] = []
            first.reserveCapacity(sorted.count)
            var repeats: [Int] = []
            for (k, index) in sorted.enumerated() {
                // Equal strings are adjacent, the smallest index first.
                if k > 0, order.compare(sorted[k - 1], index) == 0 { repeats.append(index) } else { first.append(index) }
            }
            repeats.sort()
            return (first, repeats)
        }
    }

    private func withOrder<R>(_ body: (ByteOrder) -> R) -> R {
        bytes.withUnsafeBufferPointer { bytes in ends.withUnsafeBufferPointer { body(ByteOrder(base: bytes.baseAddress, ends: $0)) } }
    }
}

/// Compares the strings of a `ByteArena` in place, eight bytes at a time.
private struct ByteOrder {
    let base: UnsafePointer<UInt8>?
    let ends: UnsafeBufferPointer<Int>

    /// Whether each string sorts after the one before it.
    var isStrictlyIncreasing: Bool {
        for i in ends.indices.dropFirst() where compare(i - 1, i) >= 0 { return false }
        return true
    }

    /// All indices sorted by bytes, equal strings by index (a total order: any sort gives it).
    func sorted() -> [Int] {
        // Most comparisons are settled by the first eight bytes, read once into each key.
        var keys = ends.indices.map { (prefix: prefix($0), index: $0) }
        keys.sort { a, b in
            if a.prefix != b.prefix { return a.prefix < b.prefix }
            let order = compare(a.index, b.index)
            return order != 0 ? order < 0 : a.index < b.index
        }
        return keys.map(\.index)
    }

    /// Negative, zero or positive as string `a` sorts before, equals or sorts after string `b`.
    @inline(__always) func compare(_ a: Int, _ b: Int) -> Int {
        let (startA, countA) = span(a)
        let (startB, countB) = span(b)
        let common = min(countA, countB)
        var k = 0
        while k + 8 <= common {
            let x = word(at: startA + k), y = word(at: startB + k)
            if x != y { return x < y ? -1 : 1 }
            k += 8
        }
        while k < common {
            let x = base![startA + k], y = base![startB + k]
            if x != y { return x < y ? -1 : 1 }
            k += 1
        }
        return countA - countB
    }

    /// The first eight bytes of string `i` as a big-endian number, zero-padded: numbers order as
    /// the bytes do.
    private func prefix(_ i: Int) -> UInt64 {
        let (start, count) = span(i)
        if count >= 8 { return word(at: start) }
        var value: UInt64 = 0
        for k in 0..<8 { value = value << 8 | UInt64(k < count ? base![start + k] : 0) }
        return value
    }

    @inline(__always) private func span(_ i: Int) -> (start: Int, count: Int) {
        let start = i == 0 ? 0 : ends[i - 1]
        return (start, ends[i] - start)
    }

    @inline(__always) private func word(at offset: Int) -> UInt64 {
        UInt64(bigEndian: UnsafeRawPointer(base! + offset).loadUnaligned(as: UInt64.self))
    }
}
