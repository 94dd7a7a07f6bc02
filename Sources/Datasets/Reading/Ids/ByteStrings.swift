import CPrefetch

/// Byte strings appended one after another in a single buffer, addressed by index: ids of a whole
/// file with two allocations instead of one per id.
public struct ByteArena: Sendable {
    /// Every string's bytes, one after another.
    public private(set) var bytes: [UInt8] = []
    /// The end of each string in `bytes`.
    private(set) var ends: [Int] = []

    /// An empty arena.
    public init() {}

    /// Makes room for `strings` strings of `bytes` bytes in all.
    public mutating func reserveCapacity(strings: Int, bytes byteCount: Int) {
        bytes.reserveCapacity(byteCount)
        ends.reserveCapacity(strings)
    }

    /// Strings held.
    package var count: Int { ends.count }

    /// Appends `value` and returns its index.
    @discardableResult
    public mutating func append(_ value: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
        return ends.count - 1
    }

    /// Where string `index` lies in `bytes`.
    public func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Calls `body` with the bytes of string `index`.
    @inlinable public func withBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let r = range(index)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[r])) }
    }

    /// String `index` as a `String` (for messages, not per row).
    public func string(_ index: Int) -> String {
        String(decoding: bytes[range(index)], as: UTF8.self)
    }
}

/// Interns byte strings: equal bytes get the same `UInt32` id (open addressing, no per-string object).
public struct ByteStringTable: Sendable {
    /// The interned strings, by id.
    public private(set) var strings = ByteArena()
    private var slots: [UInt32]
    private var hashes: [UInt64] = []
    private var mask: Int

    /// An empty table with room for about `capacity` strings (of 16 bytes or so): neither its slots
    /// nor its strings and hashes grow before that (growing copies them, into fresh memory).
    public init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt32](hugePagesRepeating: .max, count: size)
        mask = size - 1
        strings.reserveCapacity(strings: capacity, bytes: capacity * 16)
        hashes.reserveCapacity(capacity)
    }

    /// Strings interned.
    public var count: Int { strings.count }

    /// The id of `value`, if interned.
    package func find(_ value: UnsafeBufferPointer<UInt8>) -> UInt32? {
        let h = FieldParsing.hash(value)
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i] != .max {
            let id = slots[i]
            if hashes[Int(id)] == h, strings.withBytes(Int(id), { FieldParsing.equal($0, value) }) { return id }
            i = (i + 1) & mask
        }
        return nil
    }

    /// The id of `value`, interning it if new; `inserted` tells which.
    package mutating func intern(_ value: UnsafeBufferPointer<UInt8>) -> (id: UInt32, inserted: Bool) {
        intern(value, hash: FieldParsing.hash(value))
    }

    /// Starts loading the slot where interning a string of hash `h` (`FieldParsing.hash`) starts
    /// looking: a hint, which changes no result. The slot is a cache miss in a large table.
    package func prefetch(hash h: UInt64) {
        slots.withUnsafeBufferPointer { simharness_prefetch($0.baseAddress! + (Int(truncatingIfNeeded: h) & mask)) }
    }

    /// `intern(value)` for a string whose `FieldParsing.hash` is `h`.
    package mutating func intern(_ value: UnsafeBufferPointer<UInt8>, hash h: UInt64) -> (id: UInt32, inserted: Bool) {
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i] != .max {
            let id = slots[i]
            if hashes[Int(id)] == h, strings.withBytes(Int(id), { FieldParsing.equal($0, value) }) { return (id, false) }
            i = (i + 1) & mask
        }
        let id = UInt32(strings.append(value))
        hashes.append(h)
        slots[i] = id
        if strings.count * 2 > slots.count { grow() }
        return (id, true)
    }

    private mutating func grow() {
        slots = [UInt32](hugePagesRepeating: .max, count: slots.count * 2)
        mask = slots.count - 1
        for (id, h) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i] != .max { i = (i + 1) & mask }
            slots[i] = UInt32(id)
        }
    }
}
