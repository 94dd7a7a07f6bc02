/// A column chunk's dictionary: its distinct non-null values in first-seen order, and the index of
/// every non-null value. An open-addressing table over the values' bits or bytes: nothing allocated a value.
struct DictionaryBuilder {
    /// The largest PLAIN size of a dictionary page; past it the chunk is written PLAIN.
    static let maxBytes = 1 << 20

    /// The dictionary and indices of `values`, or nil when the dictionary's PLAIN size would pass `maxBytes`.
    static func build(_ values: ColumnRuns) -> (dictionary: ParquetColumnValues, indices: [UInt32])? {
        var builder = DictionaryBuilder(type: values.type)
        // Not an empty array made in place: that writes the shared empty storage (a race for ThreadSanitizer).
        guard values.count > 0 else { return (builder.entries, []) }
        var complete = true
        let indices = [UInt32](unsafeUninitializedCapacity: values.count) { indices, count in
            count = 0
            for run in values.runs where complete { complete = builder.add(run, indices: indices, count: &count) }
        }
        return complete ? (builder.entries, indices) : nil
    }

    /// Writes the indices of the non-null values of `values` at `count` in `indices` (room for them),
    /// adding the new values; false when the dictionary grows past `maxBytes`.
    private mutating func add(_ values: ParquetColumnValues, indices: UnsafeMutableBufferPointer<UInt32>, count: inout Int) -> Bool {
        let nullable = values.nullable
        return values.validity.withUnsafeBufferPointer { validity in
            if values.type == .string {
                return values.bytes.withUnsafeBufferPointer { bytes in
                    values.ends.withUnsafeBufferPointer { ends in
                        var start = 0
                        var previous = UnsafeBufferPointer<UInt8>(start: nil, count: 0), previousIndex: UInt32?
                        for row in 0..<ends.count {
                            defer { start = ends[row] }
                            if nullable && validity[row] == 0 { continue }
                            let value = UnsafeBufferPointer(rebasing: bytes[start..<ends[row]])
                            // A run of one value (rows sorted by user, say) skips the table.
                            if let previousIndex, value.count == previous.count,
                               value.isEmpty || ByteComparison.equal(value.baseAddress!, previous.baseAddress!, count: value.count)
                            {
                                indices[count] = previousIndex
                                count += 1
                                continue
                            }
                            guard let index = index(of: value) else { return false }
                            indices[count] = index
                            count += 1
                            (previous, previousIndex) = (value, index)
                        }
                        return true
                    }
                }
            }
            return values.words.withUnsafeBufferPointer { words in
                var previous: UInt64 = 0, previousIndex: UInt32?
                for row in 0..<words.count {
                    if nullable && validity[row] == 0 { continue }
                    if let previousIndex, words[row] == previous {
                        indices[count] = previousIndex
                        count += 1
                        continue
                    }
                    guard let index = index(of: words[row]) else { return false }
                    indices[count] = index
                    count += 1
                    (previous, previousIndex) = (words[row], index)
                }
                return true
            }
        }
    }

    private var entries: ParquetColumnValues
    private var slots: [Int32] = .init(repeating: -1, count: 1024)
    private var mask = 1023
    private var plainBytes = 0

    private init(type: ParquetType) { entries = ParquetColumnValues(type: type) }

    private mutating func index(of word: UInt64) -> UInt32? {
        var slot = Self.slot(of: word, mask: mask)
        while true {
            let entry = slots[slot]
            if entry < 0 { break }
            if entries.words[Int(entry)] == word { return UInt32(entry) }
            slot = (slot + 1) & mask
        }
        plainBytes += 8
        guard plainBytes <= Self.maxBytes else { return nil }
        let index = entries.words.count
        entries.words.append(word)
        insert(index, at: slot)
        return UInt32(index)
    }

    private mutating func index(of value: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var slot = Int(truncatingIfNeeded: Self.hash(value)) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { break }
            let start = entry == 0 ? 0 : entries.ends[entry - 1]
            if entries.ends[entry] - start == value.count
                && (value.isEmpty || entries.bytes.withUnsafeBufferPointer { ByteComparison.equal($0.baseAddress! + start, value.baseAddress!, count: value.count) })
            {
                return UInt32(entry)
            }
            slot = (slot + 1) & mask
        }
        plainBytes += 4 + value.count
        guard plainBytes <= Self.maxBytes else { return nil }
        let index = entries.ends.count
        entries.append(utf8: value)
        insert(index, at: slot)
        return UInt32(index)
    }

    private mutating func insert(_ index: Int, at slot: Int) {
        slots[slot] = Int32(index)
        guard (index + 1) * 2 > slots.count else { return }
        // Grow to keep the table at most half full: rehash every entry.
        slots = .init(repeating: -1, count: slots.count * 2)
        mask = slots.count - 1
        for entry in 0...index {
            var s: Int
            if entries.type == .string {
                s = entries.bytes.withUnsafeBufferPointer { bytes in
                    let start = entry == 0 ? 0 : entries.ends[entry - 1]
                    return Int(truncatingIfNeeded: Self.hash(UnsafeBufferPointer(rebasing: bytes[start..<entries.ends[entry]])))
                } & mask
            } else {
                s = Self.slot(of: entries.words[entry], mask: mask)
            }
            while slots[s] >= 0 { s = (s + 1) & mask }
            slots[s] = Int32(entry)
        }
    }

    /// The table slot of a 64-bit value (`mask`: the table's size − 1): the low bits of its murmur3
    /// finalizer, which every bit of the value reaches. (A plain multiplicative hash's low bits depend
    /// only on the value's low bits: all zero in whole-number DOUBLEs.)
    static func slot(of word: UInt64, mask: Int) -> Int {
        var h = word
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return Int(truncatingIfNeeded: h) & mask
    }

    /// A 64-bit hash of bytes, eight at a time.
    private static func hash(_ value: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(value.count)
        let raw = UnsafeRawBufferPointer(value)
        var i = 0
        while i + 8 <= raw.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x100_0000_01B3
            h ^= h >> 29
            i += 8
        }
        while i < raw.count {
            h = (h ^ UInt64(raw[i])) &* 0x100_0000_01B3
            i += 1
        }
        h ^= h >> 32
        return (h &* 0x9E37_79B9_7F4A_7C15) >> 20
    }
}
