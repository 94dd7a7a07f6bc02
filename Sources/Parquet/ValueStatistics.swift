/// Min, max and null count of a page or column chunk, in the column's sort order: signed for INT64,
/// IEEE order without NaN for DOUBLE, unsigned bytes for STRING.
struct ValueStatistics {
    enum Range {
        case int(Int64, Int64)
        case double(Double, Double)
        case bytes([UInt8], [UInt8])
    }

    var nullCount = 0
    var range: Range?

    /// No values and no nulls.
    init() {}

    /// The statistics of `rows` of `values`.
    init(_ values: ParquetColumnValues, rows: Swift.Range<Int>) {
        values.validity.withUnsafeBufferPointer { validity in
            let nullable = values.nullable
            if nullable {
                var valid = 0
                for row in rows { valid &+= Int(validity[row]) }
                nullCount = rows.count - valid
            }
            switch values.type {
            case .int64, .timestampMicros:
                range = values.words.withUnsafeBufferPointer { words in
                    var lo = Int64.max, hi = Int64.min
                    if nullable {
                        for row in rows where validity[row] != 0 {
                            lo = Swift.min(lo, Int64(bitPattern: words[row]))
                            hi = Swift.max(hi, Int64(bitPattern: words[row]))
                        }
                    } else {
                        // No branch a value: a loop the compiler can vectorize.
                        for row in rows {
                            lo = Swift.min(lo, Int64(bitPattern: words[row]))
                            hi = Swift.max(hi, Int64(bitPattern: words[row]))
                        }
                    }
                    return rows.count > nullCount ? .int(lo, hi) : nil
                }
            case .double:
                range = values.words.withUnsafeBufferPointer { words in
                    // NaN never wins: every comparison with it is false.
                    var lo = Double.infinity, hi = -Double.infinity, any = false
                    for row in rows where !nullable || validity[row] != 0 {
                        let v = Double(bitPattern: words[row])
                        if v < lo { lo = v }
                        if v > hi { hi = v }
                        any = any || !v.isNaN
                    }
                    return any ? .double(lo, hi) : nil
                }
            case .string:
                range = Self.stringRange(values, rows: rows, validity: validity)
            }
        }
    }

    /// Statistics of the dictionary entries flagged in `used` (a dictionary-encoded page's values).
    init(dictionary: ParquetColumnValues, used: [Bool], nullCount: Int) {
        let subset = dictionary.withValidity(used)
        self.init(subset, rows: 0..<subset.count)
        self.nullCount = nullCount
    }

    /// Folds `other` (a later page) into these statistics.
    mutating func merge(_ other: ValueStatistics) {
        nullCount += other.nullCount
        guard let theirs = other.range else { return }
        guard let mine = range else {
            range = theirs
            return
        }
        switch (mine, theirs) {
        case let (.int(a, b), .int(c, d)): range = .int(Swift.min(a, c), Swift.max(b, d))
        case let (.double(a, b), .double(c, d)): range = .double(Swift.min(a, c), Swift.max(b, d))
        case let (.bytes(a, b), .bytes(c, d)):
            range = .bytes(c.lexicographicallyPrecedes(a) ? c : a, b.lexicographicallyPrecedes(d) ? d : b)
        default: preconditionFailure("statistics of two types")
        }
    }

    /// The thrift Statistics: min_value/max_value as PLAIN bytes (a zero minimum as -0.0, a zero maximum as +0.0).
    var thrift: Statistics {
        var s = Statistics(nullCount: Int64(nullCount))
        switch range {
        case .int(let lo, let hi)?:
            s.min = Self.littleEndian(UInt64(bitPattern: lo))
            s.max = Self.littleEndian(UInt64(bitPattern: hi))
        case .double(let lo, let hi)?:
            s.min = Self.littleEndian((lo == 0 ? -0.0 : lo).bitPattern)
            s.max = Self.littleEndian((hi == 0 ? 0.0 : hi).bitPattern)
        case .bytes(let lo, let hi)?:
            s.min = lo
            s.max = hi
        case nil: break
        }
        return s
    }

    static func littleEndian(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// A string of `bytes` with its first 16 bytes as two big-endian numbers, zero-padded.
    private struct Key {
        var start: Int
        var count: Int
        var head: UInt64
        var next: UInt64

        init(_ bytes: UnsafeRawBufferPointer, start: Int, count: Int) {
            self.start = start
            self.count = count
            head = ValueStatistics.prefix(bytes, start, count)
            next = count > 8 ? ValueStatistics.prefix(bytes, start + 8, count - 8) : 0
        }

        /// Whether `self` sorts before `other` as unsigned bytes: the first 16 bytes decide (zero
        /// padding sorts a string before the longer ones it begins), the rest only on a tie, then the length.
        @inline(__always) func precedes(_ other: Key, in bytes: UnsafeRawBufferPointer) -> Bool {
            if head != other.head { return head < other.head }
            if next != other.next { return next < other.next }
            let common = Swift.min(count, other.count)
            if common > 16 {
                let c = ByteComparison.compare(bytes.baseAddress! + start + 16, bytes.baseAddress! + other.start + 16, count: common - 16)
                if c != 0 { return c < 0 }
            }
            return count < other.count
        }
    }

    /// The least and greatest non-null strings of `rows` as unsigned bytes (`Key`).
    private static func stringRange(_ values: ParquetColumnValues, rows: Swift.Range<Int>, validity: UnsafeBufferPointer<UInt8>) -> Range? {
        values.bytes.withUnsafeBytes { bytes in
            values.ends.withUnsafeBufferPointer { ends in
                let nullable = values.nullable
                var lo: Key?, hi: Key?
                for row in rows where !nullable || validity[row] != 0 {
                    let start = row == 0 ? 0 : ends[row - 1]
                    let value = Key(bytes, start: start, count: ends[row] - start)
                    guard let least = lo, let greatest = hi else {
                        (lo, hi) = (value, value)
                        continue
                    }
                    if value.precedes(least, in: bytes) {
                        lo = value
                    } else if greatest.precedes(value, in: bytes) {
                        hi = value
                    }
                }
                guard let lo, let hi else { return nil }
                return .bytes(Array(bytes[lo.start..<lo.start + lo.count]), Array(bytes[hi.start..<hi.start + hi.count]))
            }
        }
    }

    /// Up to the first 8 bytes at `start` as a big-endian number, zero-padded.
    @inline(__always)
    private static func prefix(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ length: Int) -> UInt64 {
        if start + 8 <= bytes.count {
            let word = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
            return length >= 8 ? word : length == 0 ? 0 : word & ~(UInt64.max >> (8 * length))
        }
        var v: UInt64 = 0
        for k in 0..<Swift.min(length, 8) { v |= UInt64(bytes[start + k]) << (56 - 8 * k) }
        return v
    }
}

extension ParquetColumnValues {
    /// These (non-null) values as a nullable column whose rows are null where `used` is false.
    func withValidity(_ used: [Bool]) -> ParquetColumnValues {
        var copy = ParquetColumnValues(type: type, nullable: true)
        copy.words = words
        copy.bytes = bytes
        copy.ends = ends
        copy.validity = used.map { $0 ? 1 : 0 }
        return copy
    }
}
