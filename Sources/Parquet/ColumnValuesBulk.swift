extension ParquetColumnValues {
    /// Appends INT64, TIMESTAMP or DOUBLE values as their 64-bit words (a DOUBLE's bit pattern), with
    /// one validity byte a value (1 a value, 0 a null holding 0) for a nullable column, none otherwise.
    public mutating func append(words source: UnsafeBufferPointer<UInt64>, validity levels: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0)) {
        precondition(type != .string, "append(words:) on a string column")
        precondition(levels.count == (nullable ? source.count : 0), "one validity byte a value of a nullable column, none otherwise")
        words.append(contentsOf: source)
        appendValidity(levels)
    }

    /// Appends STRING values: their UTF-8 bytes back to back in `source`, where each ends in it, and
    /// one validity byte a value (1 a value, 0 a null holding no bytes) for a nullable column, none otherwise.
    public mutating func append(
        utf8 source: UnsafeBufferPointer<UInt8>, ends valueEnds: UnsafeBufferPointer<Int>,
        validity levels: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0)
    ) {
        precondition(type == .string, "append(utf8:ends:) on a \(type) column")
        precondition(levels.count == (nullable ? valueEnds.count : 0), "one validity byte a value of a nullable column, none otherwise")
        precondition(valueEnds.last ?? 0 == source.count, "the last value ends where the bytes do")
        let base = bytes.count, first = ends.count
        bytes.append(contentsOf: source)
        ends.append(contentsOf: valueEnds)
        if base != 0 { ends.withUnsafeMutableBufferPointer { for i in first..<$0.count { $0[i] += base } } }
        appendValidity(levels)
    }

    private mutating func appendValidity(_ levels: UnsafeBufferPointer<UInt8>) {
        guard nullable else { return }
        validity.append(contentsOf: levels)
        for level in levels where level == 0 { nullCount += 1 }
    }
}
