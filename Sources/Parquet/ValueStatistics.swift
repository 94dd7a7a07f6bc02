import Glibc

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
                    var lo = Int64.max, hi = Int64.min, any = false
                    for row in rows where !nullable || validity[row] != 0 {
                        let v = Int64(bitPattern: words[row])
                        lo = Swift.min(lo, v)
                        hi = Swift.max(hi, v)
                        any = true
                    }
                    return any ? .int(lo, hi) : nil
                }
            case .double:
                range = values.words.withUnsafeBufferPointer { words in
                    var lo = Double.infinity, hi = -Double.infinity, any = false
                    for row in rows where !nullable || validity[row] != 0 {
                        let v = Double(bitPattern: words[row])
                        if v.isNaN { continue }
                        lo = Swift.min(lo, v)
                        hi = Swift.max(hi, v)
                        any = true
                    }
                    return any ? .double(lo, hi) : nil
                }
            case .string:
                var lo = -1, hi = -1
                for row in rows where !nullable || validity[row] != 0 {
                    if lo < 0 || Self.compare(values, row, lo) < 0 { lo = row }
                    if hi < 0 || Self.compare(values, row, hi) > 0 { hi = row }
                }
                if lo >= 0 {
                    range = .bytes(Array(values.bytes[values.start(lo)..<values.ends[lo]]), Array(values.bytes[values.start(hi)..<values.ends[hi]]))
                }
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

    /// Compares the bytes of rows `a` and `b` as unsigned bytes, then by length.
    static func compare(_ values: ParquetColumnValues, _ a: Int, _ b: Int) -> Int {
        let sa = values.start(a), la = values.ends[a] - sa
        let sb = values.start(b), lb = values.ends[b] - sb
        let common = Swift.min(la, lb)
        if common > 0 {
            let c = values.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + sa, $0.baseAddress! + sb, common) }
            if c != 0 { return Int(c) }
        }
        return la - lb
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
