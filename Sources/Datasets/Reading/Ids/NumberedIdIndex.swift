/// A direct index for ids that are one fixed prefix then a fixed number of decimal digits, all in
/// at most 8 bytes (`u0000042`), as generators and many systems number their users, given in
/// increasing order: the digits pick a bit of a bitmap of the numbers in use, and an id's value
/// (its position) is the count of bits below it. The bitmap and a running count every 64 numbers
/// take 2 bits per number — 25 KB for 100,000 users, which stays in the nearest cache where a
/// table of 4 bytes per number (400 KB) did not, nor a hash table of the ids (24 bytes a slot).
/// Built only when every id has that shape, so an id of any other shape is known not to be there.
@usableFromInline struct NumberedIdIndex: Sendable {
    /// 64 consecutive numbers: which of them are ids (bit `number % 64`), and how many ids come
    /// before the first of them.
    @usableFromInline struct Block: Sendable {
        @usableFromInline var present: UInt64
        @usableFromInline var before: UInt32
    }

    /// The ids' length in bytes, and the prefix's.
    @usableFromInline let length: Int
    @usableFromInline let prefixLength: Int
    /// The prefix's bytes, little-endian, and the mask of its bytes in a word.
    @usableFromInline let prefixWord: UInt64
    @usableFromInline let prefixMask: UInt64
    /// The numbers in use, 64 a block, from 0 to the largest.
    @usableFromInline let blocks: [Block]

    /// An index of `ids` (their values are their positions), or `nil` when they do not all share
    /// the shape, do not increase, or are too sparse (more than 8 numbers per id).
    init?(ids: ByteArena) {
        guard ids.count > 0 else { return nil }
        let length = ids.range(0).count
        guard length > 0, length <= 8, ids.bytes.count == length * ids.count else { return nil }
        let built = ids.bytes.withUnsafeBufferPointer { bytes in
            ids.ends.withUnsafeBufferPointer { ends in Self.build(bytes: bytes.baseAddress!, ends: ends, length: length) }
        }
        guard let built else { return nil }
        (self.length, prefixLength, prefixWord, prefixMask, blocks) = (length, built.prefixLength, built.prefixWord, built.prefixMask, built.blocks)
    }

    /// The fields of an index of the ids ending at `ends` in `bytes` (`length` bytes each, when
    /// they have the shape), or `nil` when they do not all have it, do not increase or are too sparse.
    private static func build(
        bytes: UnsafePointer<UInt8>, ends: UnsafeBufferPointer<Int>, length: Int
    ) -> (prefixLength: Int, prefixWord: UInt64, prefixMask: UInt64, blocks: [Block])? {
        // The first id sets the prefix (its bytes up to its last non-digit): an id that shares
        // those bytes and has digits after them has no longer prefix of its own.
        let first = word(UnsafeBufferPointer(start: bytes, count: length))
        let prefixLength = (0..<length).last { !isDigit(UInt8(truncatingIfNeeded: first >> UInt64(8 * $0))) }.map { $0 + 1 } ?? 0
        guard prefixLength < length else { return nil }
        let prefixMask: UInt64 = prefixLength == 0 ? 0 : ~0 >> (64 - 8 * prefixLength)
        let prefixWord = first & prefixMask
        // Then every id must have the same length and prefix, and digits after it, each number
        // above the one before.
        var numbers: [Int] = []
        numbers.reserveCapacity(ends.count)
        for i in ends.indices {
            guard ends[i] == (i + 1) * length else { return nil }
            let id = word(UnsafeBufferPointer(start: bytes + i * length, count: length))
            guard id & prefixMask == prefixWord, let number = number(of: id, prefixLength: prefixLength, length: length),
                  number > numbers.last ?? -1
            else { return nil }
            numbers.append(number)
        }
        let largest = numbers.last ?? 0
        guard largest < 8 * ends.count + 4096 else { return nil }
        var blocks = [Block](repeating: Block(present: 0, before: 0), count: largest / 64 + 1)
        for number in numbers { blocks[number / 64].present |= 1 << UInt64(number % 64) }
        var before: UInt32 = 0
        for b in blocks.indices {
            blocks[b].before = before
            before += UInt32(blocks[b].present.nonzeroBitCount)
        }
        return (prefixLength, prefixWord, prefixMask, blocks)
    }

    /// The value of the id of `count` bytes held little-endian in `low` then `high`, zero-padded.
    @inlinable @inline(__always) func find(low: UInt64, high: UInt64, count: Int) -> UInt32? {
        guard count == length, high == 0, low & prefixMask == prefixWord,
              let number = Self.number(of: low, prefixLength: prefixLength, length: length), number &>> 6 < blocks.count
        else { return nil }
        let block = blocks.withUnsafeBufferPointer { $0[number &>> 6] }
        let bit = UInt64(1) &<< UInt64(number & 63)
        guard block.present & bit != 0 else { return nil }
        // A block of 64 consecutive numbers all present (users numbered without gaps) needs no
        // count of bits: x86-64 without POPCNT counts them in some twenty instructions.
        if block.present == .max { return block.before &+ UInt32(truncatingIfNeeded: number & 63) }
        return block.before &+ UInt32(truncatingIfNeeded: (block.present & (bit &- 1)).nonzeroBitCount)
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
