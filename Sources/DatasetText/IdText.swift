@_spi(Tooling) import HealthCore

extension ByteCursor {
    /// An id of one prefix and a number in `Ids.userWidth` digits: `u0000042`.
    @inlinable @inline(__always) public mutating func id(_ prefix: UInt8, _ number: UInt64) {
        byte(prefix)
        padded(number, width: Ids.userWidth)
    }

    /// An id of a row that a user owns: `p0000042-000017`.
    @inlinable @inline(__always) public mutating func id(_ prefix: UInt8, owner: UInt64, ordinal: UInt64) {
        id(prefix, owner)
        byte(UInt8(ascii: "-"))
        padded(ordinal, width: Ids.ordinalWidth)
    }
}

/// The text of the ids written last, kept from id to id: rows come grouped by user, so an id's
/// owner is copied from a word, not formatted again; and a user's rows mostly count up by one, so
/// the next ordinal's text is the last one's with its last digit raised. What `RecordEncoder` and
/// the Parquet export's column scratch both write ids from.
@usableFromInline package struct IdWords: Sendable {
    /// The owner number of the last owner word (`.max`: none yet), and its `Ids.userWidth` digits in
    /// bytes 1 to 7 of a little-endian word (byte 0 is zero, for the prefix).
    @usableFromInline var lastOwner = UInt64.max
    @usableFromInline var lastOwnerDigits: UInt64 = 0
    /// The ordinal of the last ordinal word (`.max`: none yet), and `-` and its `Ids.ordinalWidth`
    /// digits in bytes 0 to 6 of a little-endian word (byte 7 is zero).
    @usableFromInline var lastOrdinal = UInt64.max
    @usableFromInline var lastOrdinalText: UInt64 = 0

    /// No id written yet.
    package init() {}

    /// `number` (below 10⁷) in `Ids.userWidth` digits, in bytes 1 to 7 of a little-endian word
    /// whose byte 0 is zero: OR the prefix in.
    @inlinable @inline(__always) package mutating func owner(_ number: UInt64) -> UInt64 {
        if number != lastOwner {
            lastOwnerDigits = ByteCursor.word { $0.id(0, number) }
            lastOwner = number
        }
        return lastOwnerDigits
    }

    /// `-` and `ordinal` (below 10⁶) in `Ids.ordinalWidth` digits, in bytes 0 to 6 of a
    /// little-endian word whose byte 7 is zero.
    @inlinable @inline(__always) package mutating func ordinal(_ ordinal: UInt64) -> UInt64 {
        let lastDigit: UInt64 = 0xFF << 48
        if ordinal != lastOrdinal {
            if lastOrdinal != .max, ordinal == lastOrdinal + 1, lastOrdinalText & lastDigit != UInt64(UInt8(ascii: "9")) << 48 {
                lastOrdinalText &+= 1 << 48
            } else {
                lastOrdinalText = ByteCursor.word { $0.byte(UInt8(ascii: "-")); $0.padded(ordinal, width: Ids.ordinalWidth); $0.byte(0) }
            }
            lastOrdinal = ordinal
        }
        return lastOrdinalText
    }
}
