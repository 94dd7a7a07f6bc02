/// The values of one column for a run of rows, in contiguous storage: 64-bit values in one array,
/// strings as one byte buffer with end offsets, and a validity byte per row when the column is nullable.
/// A null row holds a placeholder (0, 0.0 or the empty string) so that rows index every array directly.
public struct ParquetColumnValues: Sendable {
    /// The type of the values.
    public private(set) var type: ParquetType
    /// Whether rows may be null.
    public private(set) var nullable: Bool
    /// INT64 and TIMESTAMP values, or the bit patterns of DOUBLE values, one a row.
    var words: [UInt64] = []
    /// STRING bytes, all rows back to back.
    var bytes: [UInt8] = []
    /// STRING rows: where each ends in `bytes`.
    var ends: [Int] = []
    /// Nullable columns: 1 for a value, 0 for a null, one a row.
    var validity: [UInt8] = []
    /// How many rows are null.
    var nullCount = 0

    /// Empty values of `type`, with room for `reservingCapacity` rows.
    public init(type: ParquetType, nullable: Bool = false, reservingCapacity: Int = 0) {
        self.type = type
        self.nullable = nullable
        if type == .string { ends.reserveCapacity(reservingCapacity) } else { words.reserveCapacity(reservingCapacity) }
        if nullable { validity.reserveCapacity(reservingCapacity) }
    }

    /// Appends an INT64 or TIMESTAMP value.
    public mutating func append(_ value: Int64) {
        precondition(type == .int64 || type == .timestampMicros, "append(Int64) on a \(type) column")
        words.append(UInt64(bitPattern: value))
        if nullable { validity.append(1) }
    }

    /// Appends a DOUBLE value.
    public mutating func append(_ value: Double) {
        precondition(type == .double, "append(Double) on a \(type) column")
        words.append(value.bitPattern)
        if nullable { validity.append(1) }
    }

    /// Appends a STRING value: its UTF-8 bytes.
    public mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        precondition(type == .string, "append(utf8:) on a \(type) column")
        bytes.append(contentsOf: utf8)
        ends.append(bytes.count)
        if nullable { validity.append(1) }
    }

    /// Appends a null row (nullable columns only).
    public mutating func appendNull() {
        precondition(nullable, "appendNull() on a column that is not nullable")
        if type == .string { ends.append(bytes.count) } else { words.append(0) }
        validity.append(0)
        nullCount += 1
    }

    /// Appends every row of `other`, which has the same type and nullability.
    public mutating func append(contentsOf other: ParquetColumnValues) {
        precondition(type == other.type && nullable == other.nullable, "append(contentsOf:) of another column type")
        if type == .string {
            let base = bytes.count
            bytes.append(contentsOf: other.bytes)
            ends.reserveCapacity(ends.count + other.ends.count)
            for end in other.ends { ends.append(base + end) }
        } else {
            words.append(contentsOf: other.words)
        }
        validity.append(contentsOf: other.validity)
        nullCount += other.nullCount
    }

    /// Removes every row.
    public mutating func removeAll(keepingCapacity: Bool) {
        words.removeAll(keepingCapacity: keepingCapacity)
        bytes.removeAll(keepingCapacity: keepingCapacity)
        ends.removeAll(keepingCapacity: keepingCapacity)
        validity.removeAll(keepingCapacity: keepingCapacity)
        nullCount = 0
    }

    /// Removes every row and makes the values of `type`, keeping the memory of every array (a reader
    /// reuses one column's memory for the next, whatever its type).
    mutating func reset(type: ParquetType, nullable: Bool) {
        removeAll(keepingCapacity: true)
        self.type = type
        self.nullable = nullable
    }

    /// The number of rows, nulls included.
    public var count: Int { type == .string ? ends.count : words.count }

    /// Whether `row` is null.
    public func isNull(_ row: Int) -> Bool { nullable && validity[row] == 0 }

    /// The INT64 or TIMESTAMP value of `row` (0 when null).
    public func int64(_ row: Int) -> Int64 { Int64(bitPattern: words[row]) }

    /// The DOUBLE value of `row` (0.0 when null).
    public func double(_ row: Int) -> Double { Double(bitPattern: words[row]) }

    /// Calls `body` with the UTF-8 bytes of `row` (empty when null).
    public func withUTF8<R>(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let start = row == 0 ? 0 : ends[row - 1]
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<ends[row]])) }
    }

    /// Where `row`'s bytes start in `bytes`.
    func start(_ row: Int) -> Int { row == 0 ? 0 : ends[row - 1] }

    /// Appends `count` 64-bit values that `fill` writes, all non-null (the reader's bulk path).
    mutating func appendWords(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt64>) -> Void) {
        let old = words.count
        words.append(contentsOf: repeatElement(0, count: count))
        words.withUnsafeMutableBufferPointer { fill(UnsafeMutableBufferPointer(rebasing: $0[old..<old + count])) }
        if nullable { validity.append(contentsOf: repeatElement(1, count: count)) }
    }
}

/// A read-only view of one column's storage, valid only inside the `withStorage` call that made
/// it: the bulk, inlinable counterpart of `ParquetColumnValues`' per-value accessors, for readers
/// in other modules that visit every row. When `indices` is not empty, the storage holds a
/// dictionary's entries and row `r` is entry `indices[r]` (`ParquetFileReader.read(rowGroup:column:into:indices:)`).
public struct ParquetColumnStorage {
    /// INT64 and TIMESTAMP values, or DOUBLE bit patterns, one a row or entry (empty for STRING).
    public let words: UnsafeBufferPointer<UInt64>
    /// STRING bytes, all rows (or entries) back to back.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// STRING rows (or entries): where each ends in `bytes` (empty for other types).
    public let ends: UnsafeBufferPointer<Int>
    /// Nullable columns: 1 for a value, 0 for a null, one a row (empty when not nullable).
    public let validity: UnsafeBufferPointer<UInt8>
    /// The entry of each row, when the storage holds a dictionary's entries; else empty.
    public let indices: UnsafeBufferPointer<UInt32>

    /// The number of rows.
    @inlinable public var count: Int { !indices.isEmpty ? indices.count : ends.isEmpty ? words.count : ends.count }

    /// Where row `row` is in the storage: the row itself, or its dictionary entry.
    @inlinable @inline(__always) public func slot(_ row: Int) -> Int { indices.isEmpty ? row : Int(indices[row]) }

    /// Whether `row` is null.
    @inlinable @inline(__always) public func isNull(_ row: Int) -> Bool { !validity.isEmpty && validity[row] == 0 }

    /// The INT64 or TIMESTAMP value of `row` (0 when null).
    @inlinable @inline(__always) public func int64(_ row: Int) -> Int64 { Int64(bitPattern: words[slot(row)]) }

    /// The DOUBLE value of `row` (0.0 when null).
    @inlinable @inline(__always) public func double(_ row: Int) -> Double { Double(bitPattern: words[slot(row)]) }

    /// The UTF-8 bytes of `row` (empty when null).
    @inlinable @inline(__always) public func utf8(_ row: Int) -> UnsafeBufferPointer<UInt8> {
        let s = slot(row)
        let start = s == 0 ? 0 : ends[s - 1]
        return UnsafeBufferPointer(rebasing: bytes[start..<ends[s]])
    }
}

extension ParquetColumnValues {
    /// Calls `body` with a view of the column's storage (which must not escape it); with `indices`
    /// (not empty), the view's rows are those entries of this column.
    public func withStorage<R>(indices: [UInt32] = [], _ body: (ParquetColumnStorage) throws -> R) rethrows -> R {
        try words.withUnsafeBufferPointer { words in
            try bytes.withUnsafeBufferPointer { bytes in
                try ends.withUnsafeBufferPointer { ends in
                    try validity.withUnsafeBufferPointer { validity in
                        try indices.withUnsafeBufferPointer { indices in
                            try body(ParquetColumnStorage(words: words, bytes: bytes, ends: ends, validity: validity, indices: indices))
                        }
                    }
                }
            }
        }
    }
}

extension Array where Element == ParquetColumnValues {
    /// Calls `body` with a view of the storage of each column (which must not escape it); `indices`,
    /// when given, holds each column's dictionary indices (see `withStorage(indices:_:)`).
    public func withStorage<R>(indices: [[UInt32]] = [], _ body: ([ParquetColumnStorage]) throws -> R) rethrows -> R {
        precondition(indices.isEmpty || indices.count == count, "indices for \(indices.count) of \(count) columns")
        var views: [ParquetColumnStorage] = []
        views.reserveCapacity(count)
        return try Self.withStorage(self[...], indices: indices.isEmpty ? [[UInt32]](repeating: [], count: count)[...] : indices[...], into: &views, body)
    }

    private static func withStorage<R>(
        _ rest: ArraySlice<ParquetColumnValues>, indices: ArraySlice<[UInt32]>, into views: inout [ParquetColumnStorage],
        _ body: ([ParquetColumnStorage]) throws -> R
    ) rethrows -> R {
        guard let first = rest.first, let firstIndices = indices.first else { return try body(views) }
        return try first.withStorage(indices: firstIndices) { view in
            views.append(view)
            return try withStorage(rest.dropFirst(), indices: indices.dropFirst(), into: &views, body)
        }
    }
}
