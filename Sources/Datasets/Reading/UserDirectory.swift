import HealthCore

/// The accepted users of a dataset, indexed by the byte order of their ids (SPEC §0), so that
/// user index order is output order.
public struct UserDirectory: Sendable {
    /// Ids in index order.
    public let ids: ByteArena
    public let profiles: [UserProfile]
    @usableFromInline let index: IdIndex

    /// How ids are looked up: by their number when they all have the shape of `NumberedIdIndex`.
    @usableFromInline enum IdIndex: Sendable {
        case numbered(NumberedIdIndex)
        case hashed(ShortIdIndex)
    }

    public init(profiles unsorted: [UserProfile]) {
        var table = ByteStringTable(capacity: unsorted.count)
        var firstProfile: [Int] = []
        for (position, profile) in unsorted.enumerated() {
            var id = profile.id
            if id.withUTF8({ table.intern($0).inserted }) { firstProfile.append(position) }
        }
        let order = table.strings.sortedIndices()
        var ids = ByteArena()
        for interned in order { table.strings.withBytes(interned) { _ = ids.append($0) } }
        if let numbered = NumberedIdIndex(ids: ids) {
            index = .numbered(numbered)
        } else {
            var hashed = ShortIdIndex(capacity: order.count)
            for rank in 0..<order.count { ids.withBytes(rank) { hashed.insert($0, value: UInt32(rank)) } }
            index = .hashed(hashed)
        }
        self.ids = ids
        profiles = order.map { unsorted[firstProfile[$0]] }
    }

    public var count: Int { profiles.count }

    /// The index of the user with id `bytes`, if accepted.
    @inline(__always) public func index(of bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        switch index {
        case .numbered(let numbered): bytes.count <= 8 ? numbered.find(low: NumberedIdIndex.word(bytes), high: 0, count: bytes.count) : nil
        case .hashed(let hashed): hashed.find(bytes)
        }
    }

    /// The index of the user whose id is the `count` (at most 16) bytes held little-endian in
    /// `low` then `high`, zero-padded, if accepted: `index(of:)` for a parser that already holds
    /// the id in registers.
    @inlinable @inline(__always) func index(low: UInt64, high: UInt64, count: Int) -> UInt32? {
        switch index {
        case .numbered(let numbered): numbered.find(low: low, high: high, count: count)
        case .hashed(let hashed): hashed.find(low: low, high: high, count: count)
        }
    }

    /// Whether a lookup may wait for memory, so that prefetching pays (a numbered index is small
    /// enough to stay in cache).
    @inlinable var benefitsFromPrefetch: Bool {
        if case .hashed = index { return true }
        return false
    }

    /// Starts loading what `index(low:high:count:)` will read for this id into the cache.
    @inlinable @inline(__always) func prefetch(low: UInt64, high: UInt64, count: Int) {
        if case .hashed(let hashed) = index { hashed.prefetch(low: low, high: high, count: count) }
    }
}
