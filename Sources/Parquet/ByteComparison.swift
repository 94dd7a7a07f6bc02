/// Comparisons of short byte strings (ids, enum values) eight bytes at a time, inlined: a call to
/// `memcmp` a value costs more than the comparison. Only the `count` bytes at each pointer are read.
enum ByteComparison {
    /// Whether the `count` bytes at `a` and at `b` are the same.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var i = 0
        while i + 8 <= count {
            guard a.loadUnaligned(fromByteOffset: i, as: UInt64.self) == b.loadUnaligned(fromByteOffset: i, as: UInt64.self) else { return false }
            i += 8
        }
        while i < count {
            guard a.load(fromByteOffset: i, as: UInt8.self) == b.load(fromByteOffset: i, as: UInt8.self) else { return false }
            i += 1
        }
        return true
    }

    /// The order of the `count` bytes at `a` and at `b` as unsigned bytes, as `memcmp`'s sign:
    /// negative, zero or positive.
    @inline(__always)
    static func compare(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Int {
        var i = 0
        while i + 8 <= count {
            let x = UInt64(bigEndian: a.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let y = UInt64(bigEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            if x != y { return x < y ? -1 : 1 }
            i += 8
        }
        while i < count {
            let x = a.load(fromByteOffset: i, as: UInt8.self), y = b.load(fromByteOffset: i, as: UInt8.self)
            if x != y { return x < y ? -1 : 1 }
            i += 1
        }
        return 0
    }
}
