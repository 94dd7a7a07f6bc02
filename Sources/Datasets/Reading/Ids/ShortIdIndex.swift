import CPrefetch

/// An exact index from id bytes to a dense `UInt32`, tuned for the short ids of datasets: an id of
/// up to 16 bytes lives inline in its slot, so a lookup probes a few adjacent slots of a flat table, no byte
/// comparison outside it. Longer ids fall back to a `ByteStringTable`.
@usableFromInline struct ShortIdIndex: Sendable {
    @usableFromInline struct Slot: Sendable {
        @usableFromInline var low: UInt64 = 0
        @usableFromInline var high: UInt64 = 0
        /// Bits 0–31: the value; bits 32–39: the id's length; bit 63: in use.
        @usableFromInline var meta: UInt64 = 0
    }

    @usableFromInline private(set) var slots: [Slot]
    @usableFromInline let mask: Int
    /// 64 − log2(slot count): `home` keeps the top bits.
    @usableFromInline let shift: UInt64
    private var long = ByteStringTable()
    private var longValues: [UInt32] = []

    init(capacity: Int) {
        // Filled up to 80 %: about 2.4 probes per lookup, all but always within one or two cache
        // lines, and half the memory of a half-empty table, which matters more: a lookup is a cache
        // miss either way, and the smaller table misses less (docs/performance.md).
        var size = 16
        while size * 4 < capacity * 5 { size <<= 1 }
        slots = [Slot](repeating: Slot(), count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    mutating func insert(_ id: UnsafeBufferPointer<UInt8>, value: UInt32) {
        guard id.count <= 16 else {
            if long.intern(id).inserted { longValues.append(value) }
            return
        }
        let (low, high) = Self.words(id)
        let meta = UInt64(value) | UInt64(id.count) << 32 | 1 << 63
        var i = home(low, high, id.count)
        while slots[i].meta != 0 {
            if slots[i].low == low, slots[i].high == high, (slots[i].meta >> 32) & 0xFF == UInt64(id.count) { return }
            i = (i + 1) & mask
        }
        slots[i] = Slot(low: low, high: high, meta: meta)
    }

    @inline(__always) func find(_ id: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard id.count <= 16 else { return long.find(id).map { longValues[Int($0)] } }
        let (low, high) = Self.words(id)
        return find(low: low, high: high, count: id.count)
    }

    /// The value of the id of `count` (at most 16) bytes held little-endian in `low` then `high`,
    /// zero-padded; the words of `find(_:)` without copying bytes.
    @inlinable @inline(__always) func find(low: UInt64, high: UInt64, count: Int) -> UInt32? {
        let length = UInt64(count)
        return slots.withUnsafeBufferPointer { table in
            var i = home(low, high, count)
            while true {
                let slot = table[i]
                if slot.meta == 0 { return nil }
                if slot.low == low, slot.high == high, (slot.meta >> 32) & 0xFF == length {
                    return UInt32(truncatingIfNeeded: slot.meta)
                }
                i = (i + 1) & mask
            }
        }
    }

    /// Starts loading the home slot of an id (as in `find(low:high:count:)`) into the cache, so
    /// that a lookup a little later does not wait for memory.
    @inlinable @inline(__always) func prefetch(low: UInt64, high: UInt64, count: Int) {
        slots.withUnsafeBufferPointer { simharness_prefetch($0.baseAddress! + home(low, high, count)) }
    }

    @inline(__always) private static func words(_ id: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            if let base = id.baseAddress { raw.baseAddress!.copyMemory(from: base, byteCount: id.count) }
        }
        return words
    }

    /// The home slot of an id: the top bits of a product, which every input bit reaches (the low
    /// bits of a product only see the low input bits, so ids differing in their last bytes, as
    /// `u0000001`…`u0099999` do, would share a few home slots and probe long runs).
    @inlinable @inline(__always) func home(_ low: UInt64, _ high: UInt64, _ length: Int) -> Int {
        let h = (low ^ (high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: h >> shift)
    }
}
