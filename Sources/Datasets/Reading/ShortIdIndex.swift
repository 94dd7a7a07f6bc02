/// An exact index from id bytes to a dense `UInt32`, tuned for the short ids of datasets: an id of
/// up to 16 bytes lives inline in its slot, so a lookup is one probe of a flat table with no byte
/// comparison outside it. Longer ids fall back to a `ByteStringTable`.
struct ShortIdIndex: Sendable {
    private struct Slot {
        var low: UInt64 = 0
        var high: UInt64 = 0
        /// Bits 0–31: the value; bits 32–39: the id's length; bit 63: in use.
        var meta: UInt64 = 0
    }

    private var slots: [Slot]
    private let mask: Int
    private var long = ByteStringTable()
    private var longValues: [UInt32] = []

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Slot](repeating: Slot(), count: size)
        mask = size - 1
    }

    mutating func insert(_ id: UnsafeBufferPointer<UInt8>, value: UInt32) {
        guard id.count <= 16 else {
            if long.intern(id).inserted { longValues.append(value) }
            return
        }
        let (low, high) = Self.words(id)
        let meta = UInt64(value) | UInt64(id.count) << 32 | 1 << 63
        var i = Self.hash(low, high, id.count) & mask
        while slots[i].meta != 0 {
            if slots[i].low == low, slots[i].high == high, (slots[i].meta >> 32) & 0xFF == UInt64(id.count) { return }
            i = (i + 1) & mask
        }
        slots[i] = Slot(low: low, high: high, meta: meta)
    }

    @inline(__always) func find(_ id: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard id.count <= 16 else { return long.find(id).map { longValues[Int($0)] } }
        let (low, high) = Self.words(id)
        let length = UInt64(id.count)
        return slots.withUnsafeBufferPointer { table in
            var i = Self.hash(low, high, id.count) & mask
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

    @inline(__always) private static func words(_ id: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            if let base = id.baseAddress { raw.baseAddress!.copyMemory(from: base, byteCount: id.count) }
        }
        return words
    }

    @inline(__always) private static func hash(_ low: UInt64, _ high: UInt64, _ length: Int) -> Int {
        var h = (low ^ (high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return Int(truncatingIfNeeded: h)
    }
}
