@_spi(Tooling) import HealthCore

/// The field scanners of `CanonicalRows`: each reads one field at a cursor that it moves past the
/// field, and returns `nil` (or `false`) for anything but the plain shape it knows; the caller
/// then leaves the line to the general path. Bounded by `end`, whole words are loaded only where
/// they fit before it.
/// (Byte constants are literals, not `static let`s, which would cost a lazy-initialization check
/// per use in the inlining module.)
@usableFromInline enum CanonicalFields {
    /// An id of 1 to 16 bytes followed by a comma: its bytes as two little-endian words,
    /// zero-padded (the form `ShortIdIndex` stores and `FieldParsing.hash(low:high:count:)`
    /// reads), and its length. `nil` when empty, longer, or holding a `\n`.
    @inlinable @inline(__always)
    static func shortId(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (low: UInt64, high: UInt64, count: Int)? {
        guard end - p >= 16 else { return shortIdByBytes(&p, end) }
        let raw = UnsafeRawPointer(p)
        let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let lowStops = stops(low)
        if lowStops != 0 {
            let k = lowStops.trailingZeroBitCount >> 3
            guard k > 0, p[k] == UInt8(ascii: ",") else { return nil }
            p += k + 1
            return (low & bytesBelow(k), 0, k)
        }
        let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let highStops = stops(high)
        if highStops != 0 {
            let k = highStops.trailingZeroBitCount >> 3
            guard p[8 + k] == UInt8(ascii: ",") else { return nil }
            p += 9 + k
            return (low, high & bytesBelow(k), 8 + k)
        }
        guard end - p > 16, p[16] == UInt8(ascii: ",") else { return nil }
        p += 17
        return (low, high, 16)
    }

    /// `shortId` one byte at a time, for an id close to `end`.
    @inlinable
    static func shortIdByBytes(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (low: UInt64, high: UInt64, count: Int)? {
        var words: (low: UInt64, high: UInt64) = (0, 0)
        var count = 0
        while p + count < end, p[count] != UInt8(ascii: ",") {
            guard count < 16, p[count] != UInt8(ascii: "\n") else { return nil }
            let byte = UInt64(p[count]) &<< UInt64(8 &* (count & 7))
            if count < 8 { words.low |= byte } else { words.high |= byte }
            count += 1
        }
        guard count > 0, p + count < end else { return nil }
        p += count + 1
        return (words.low, words.high, count)
    }

    /// A user id (as `shortId`) and the index `users` gives it; `nil` when unknown.
    @inlinable @inline(__always)
    static func user(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, _ users: UserDirectory) -> UInt32? {
        guard let id = shortId(&p, end) else { return nil }
        return users.index(low: id.low, high: id.high, count: id.count)
    }

    /// Starts loading the directory slot of the user named in the second field of the line at
    /// `p`, so that parsing that line finds it in the cache: a hint, which changes no result.
    @inlinable @inline(__always)
    static func prefetchUser(ofLineAt p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, _ users: UserDirectory) {
        var q = p
        guard shortId(&q, end) != nil, let id = shortId(&q, end) else { return }
        users.prefetch(low: id.low, high: id.high, count: id.count)
    }

    /// `prefetchUser(ofLineAt:)` for the line `lines` lines after the one at `p`. The user lookup
    /// is a cache miss into a table of megabytes, longer than parsing a line: three lines ahead
    /// of the line being parsed hides most of it (measured: better than one, two or four).
    @inlinable @inline(__always)
    static func prefetchUser(_ lines: Int, linesAfter p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, _ users: UserDirectory) {
        var line = p
        for _ in 0..<lines {
            guard let next = lineAfter(line, end) else { return }
            line = next
        }
        prefetchUser(ofLineAt: line, end, users)
    }

    /// The start of the line after the one at `p` when its `\n` lies in bytes 32 to 127 of it.
    @inlinable @inline(__always)
    static func lineAfter(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        guard end - p >= 128 else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        for offset in stride(from: 32, to: 128, by: 8) {
            let newlines = load(p + offset) ^ (ones &* 0x0A)
            let found = (newlines &- ones) & ~newlines & (ones << 7)
            if found != 0 { return p + offset + (found.trailingZeroBitCount >> 3) + 1 }
        }
        return nil
    }

    /// The high bit of each byte of `word` that is a comma or a newline: exact for the lowest such
    /// byte (the bit trick may also flag a byte above a match, never below it).
    @inlinable @inline(__always) static func stops(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let commas = word ^ (ones &* 0x2C), newlines = word ^ (ones &* 0x0A)
        return ((commas &- ones) & ~commas | (newlines &- ones) & ~newlines) & (ones << 7)
    }

    /// A mask of the `k` (0 to 7) low bytes of a word.
    @inlinable @inline(__always) static func bytesBelow(_ k: Int) -> UInt64 {
        (UInt64(1) &<< UInt64(k &* 8)) &- 1
    }

    /// Moves past the byte at `p` when it is `byte`.
    @inlinable @inline(__always)
    static func skip(_ byte: UInt8, _ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Bool {
        guard p < end, p.pointee == byte else { return false }
        p += 1
        return true
    }

    /// A meal type followed by a comma.
    @inlinable @inline(__always)
    static func mealType(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Bool {
        guard end - p >= 10 else { return false }
        let raw = UnsafeRawPointer(p)
        let word = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let six = word & bytesBelow(6)
        // Little-endian words of "lunch,", "snack,", "dinner," and "breakfas" + "t,".
        if six == 0x2C68_636E_756C || six == 0x2C6B_6361_6E73 {
            p += 6
        } else if word & bytesBelow(7) == 0x2C_7265_6E6E_6964 {
            p += 7
        } else if word == 0x7361_666B_6165_7262, UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)) == 0x2C74 {
            p += 10
        } else {
            return false
        }
        return true
    }

    /// A step source followed by a comma.
    @inlinable @inline(__always)
    static func source(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> StepSource? {
        guard end - p >= 8 else { return nil }
        let six = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) & bytesBelow(6)
        // Little-endian words of "watch," and "phone,".
        let source: StepSource
        switch six {
        case 0x2C68_6374_6177: source = .watch
        case 0x2C65_6E6F_6870: source = .phone
        default: return nil
        }
        p += 6
        return source
    }

    /// The offset from `base` of the line's end when `p` is at it: a `\n`, or `end`.
    @inlinable @inline(__always)
    static func lineEnd(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, from base: UnsafePointer<UInt8>) -> Int? {
        p == end || p.pointee == UInt8(ascii: "\n") ? p - base : nil
    }
}
