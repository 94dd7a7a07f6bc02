/// A direct index for ids that are one fixed prefix then a fixed number of decimal digits, all in
/// at most 8 bytes (`u0000042`), as generators and many systems number their users: the digits
/// pick a slot of a flat table of 4 bytes per number, which stays in cache where a hash table of
/// the ids (24 bytes a slot) does not. Built only when every id has that shape, so an id of any
/// other shape is known not to be there.
@usableFromInline struct NumberedIdIndex: Sendable {
    /// The ids' length in bytes, and the prefix's.
    @usableFromInline let length: Int
    @usableFromInline let prefixLength: Int
    /// The prefix's bytes, little-endian, and the mask of its bytes in a word.
    @usableFromInline let prefixWord: UInt64
    @usableFromInline let prefixMask: UInt64
    /// The value of each number, `UInt32.max` where no id has it.
    @usableFromInline let values: [UInt32]

    /// An index of `ids` (their values are their positions), or `nil` when they do not all share
    /// the shape, or when their numbers are too sparse for a table (more than 8 slots per id).
    init?(ids: ByteArena) {
        guard ids.count > 0 else { return nil }
        let length = ids.range(0).count
        guard length > 0, length <= 8, ids.bytes.count == length * ids.count else { return nil }
        let built = ids.bytes.withUnsafeBufferPointer { bytes in
            ids.ends.withUnsafeBufferPointer { ends in Self.build(bytes: bytes.baseAddress!, ends: ends, length: length) }
        }
        guard let built else { return nil }
        (self.length, prefixLength, prefixWord, prefixMask, values) = (length, built.prefixLength, built.prefixWord, built.prefixMask, built.values)
    }

    /// The fields of an index of the ids ending at `ends` in `bytes` (`length` bytes each, when
    /// they have the shape), or `nil` when they do not all have it or are too sparse.
    private static func build(
        bytes: UnsafePointer<UInt8>, ends: UnsafeBufferPointer<Int>, length: Int
    ) -> (prefixLength: Int, prefixWord: UInt64, prefixMask: UInt64, values: [UInt32])? {
        // The first id sets the prefix (its bytes up to its last non-digit): an id that shares
        // those bytes and has digits after them has no longer prefix of its own.
        let first = word(UnsafeBufferPointer(start: bytes, count: length))
        let prefixLength = (0..<length).last { !isDigit(UInt8(truncatingIfNeeded: first >> UInt64(8 * $0))) }.map { $0 + 1 } ?? 0
        guard prefixLength < length else { return nil }
        let prefixMask: UInt64 = prefixLength == 0 ? 0 : ~0 >> (64 - 8 * prefixLength)
        let prefixWord = first & prefixMask
        // Then every id must have the same length and prefix, and digits after it.
        var largest = 0
        for i in ends.indices {
            guard ends[i] == (i + 1) * length else { return nil }
            let id = word(UnsafeBufferPointer(start: bytes + i * length, count: length))
            guard id & prefixMask == prefixWord, let number = number(of: id, prefixLength: prefixLength, length: length) else { return nil }
            largest = max(largest, number)
        }
        guard largest < 8 * ends.count + 4096 else { return nil }
        var values = [UInt32](repeating: .max, count: largest + 1)
        for i in ends.indices {
            let id = word(UnsafeBufferPointer(start: bytes + i * length, count: length))
            values[number(of: id, prefixLength: prefixLength, length: length)!] = UInt32(i)
        }
        return (prefixLength, prefixWord, prefixMask, values)
    }

    /// The value of the id of `count` bytes held little-endian in `low` then `high`, zero-padded.
    @inlinable @inline(__always) func find(low: UInt64, high: UInt64, count: Int) -> UInt32? {
        guard count == length, high == 0, low & prefixMask == prefixWord,
              let number = Self.number(of: low, prefixLength: prefixLength, length: length), number < values.count
        else { return nil }
        let value = values.withUnsafeBufferPointer { $0[number] }
        return value == .max ? nil : value
    }

    /// The decimal number in bytes `prefixLength..<length` of `word` (zero past `length`), `nil`
    /// if one is not a digit: all digits at once, as `CanonicalFields` reads numbers.
    @inlinable @inline(__always) static func number(of word: UInt64, prefixLength: Int, length: Int) -> Int? {
        let count = length &- prefixLength
        let (values, leading) = CanonicalFields.leadingDigits(word &>> UInt64(8 &* prefixLength))
        guard leading >= count else { return nil }
        return Int(truncatingIfNeeded: CanonicalFields.digitsValue(values, count))
    }

    /// The bytes of an id of at most 8 bytes, little-endian, zero-padded.
    @inline(__always) static func word(_ id: UnsafeBufferPointer<UInt8>) -> UInt64 {
        if id.count == 8 { return UInt64(littleEndian: UnsafeRawPointer(id.baseAddress!).loadUnaligned(as: UInt64.self)) }
        var word: UInt64 = 0
        for (i, byte) in id.enumerated() { word |= UInt64(byte) << UInt64(8 * i) }
        return word
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
}
