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

    /// The least and greatest non-null strings of `rows` as unsigned bytes: each row's first 8 bytes as a
    /// big-endian number decide, the rest only on a tie.
    private static func stringRange(_ values: ParquetColumnValues, rows: Swift.Range<Int>, validity: UnsafeBufferPointer<UInt8>) -> Range? {
        values.bytes.withUnsafeBytes { bytes in
            values.ends.withUnsafeBufferPointer { ends in
                let nullable = values.nullable
                var lo = (start: 0, count: -1, prefix: UInt64(0)), hi = lo
                for row in rows where !nullable || validity[row] != 0 {
                    let start = row == 0 ? 0 : ends[row - 1]
                    let value = (start: start, count: ends[row] - start, prefix: prefix(bytes, start, ends[row] - start))
                    if lo.count < 0 {
                        (lo, hi) = (value, value)
                    } else if value.prefix < lo.prefix || value.prefix == lo.prefix && compare(bytes, value, lo) < 0 {
                        lo = value
                    } else if value.prefix > hi.prefix || value.prefix == hi.prefix && compare(bytes, value, hi) > 0 {
                        hi = value
                    }
                }
                guard lo.count >= 0 else { return nil }
                return .bytes(Array(bytes[lo.start..<lo.start + lo.count]), Array(bytes[hi.start..<hi.start + hi.count]))
            }
        }
    }

    /// Two strings whose first 8 bytes tie: the rest as unsigned bytes, then the length.
    private static func compare(_ bytes: UnsafeRawBufferPointer, _ a: (start: Int, count: Int, prefix: UInt64), _ b: (start: Int, count: Int, prefix: UInt64)) -> Int {
        let common = Swift.min(a.count, b.count)
        if common > 8 {
            let c = ByteComparison.compare(bytes.baseAddress! + a.start + 8, bytes.baseAddress! + b.start + 8, count: common - 8)
            if c != 0 { return c }
        }
        return a.count - b.count
    }

    /// Up to the first 8 bytes at `start` as a big-endian number, zero-padded.
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
