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
        let length = ids.withBytes(0) { $0.count }
        guard length <= 8 else { return nil }
        var prefixLength = 0
        var words: [UInt64] = []
        words.reserveCapacity(ids.count)
        for i in 0..<ids.count {
            let fits = ids.withBytes(i) { id -> Bool in
                guard id.count == length else { return false }
                if let lastNonDigit = id.lastIndex(where: { !Self.isDigit($0) }) { prefixLength = max(prefixLength, lastNonDigit + 1) }
                words.append(Self.word(id))
                return true
            }
            guard fits else { return nil }
        }
        guard prefixLength < length else { return nil }
        let prefixMask: UInt64 = prefixLength == 0 ? 0 : ~0 >> (64 - 8 * prefixLength)
        guard words.allSatisfy({ $0 & prefixMask == words[0] & prefixMask }) else { return nil }
        self.length = length
        self.prefixLength = prefixLength
        self.prefixWord = words[0] & prefixMask
        self.prefixMask = prefixMask
        let numbers = words.map { Self.number(of: $0, prefixLength: prefixLength, length: length)! }
        let size = numbers.max()! + 1
        guard size <= 8 * ids.count + 4096 else { return nil }
        var values = [UInt32](repeating: .max, count: size)
        for (value, number) in numbers.enumerated() { values[number] = UInt32(value) }
        self.values = values
    }

    /// The value of the id of `count` bytes held little-endian in `low` then `high`, zero-padded.
    @inlinable @inline(__always) func find(low: UInt64, high: UInt64, count: Int) -> UInt32? {
        guard count == length, high == 0, low & prefixMask == prefixWord,
              let number = Self.number(of: low, prefixLength: prefixLength, length: length), number < values.count
        else { return nil }
        let value = values.withUnsafeBufferPointer { $0[number] }
        return value == .max ? nil : value
    }

    /// The decimal number in bytes `prefixLength..<length` of `word`, `nil` if one is not a digit.
    @inlinable @inline(__always) static func number(of word: UInt64, prefixLength: Int, length: Int) -> Int? {
        var number = 0
        var position = prefixLength
        while position < length {
            let digit = (word >> UInt64(8 * position)) & 0xFF &- 0x30
            guard digit < 10 else { return nil }
            number = number &* 10 &+ Int(digit)
            position += 1
        }
        return number
    }

    /// The bytes of an id of at most 8 bytes, little-endian, zero-padded.
    static func word(_ id: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        for (i, byte) in id.enumerated() { word |= UInt64(byte) << UInt64(8 * i) }
        return word
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
}
