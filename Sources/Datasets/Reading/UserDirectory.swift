import HealthCore

/// The accepted users of a dataset, indexed by the byte order of their ids (SPEC §0), so that
/// user index order is output order.
public struct UserDirectory: Sendable {
    /// Ids in index order.
    public let ids: ByteArena
    public let profiles: [UserProfile]
    @usableFromInline let index: ShortIdIndex

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
        var index = ShortIdIndex(capacity: order.count)
        for rank in 0..<order.count { ids.withBytes(rank) { index.insert($0, value: UInt32(rank)) } }
        self.index = index
        self.ids = ids
        profiles = order.map { unsorted[firstProfile[$0]] }
    }

    public var count: Int { profiles.count }

    /// The index of the user with id `bytes`, if accepted.
    @inline(__always) public func index(of bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        index.find(bytes)
    }

    /// The index of the user whose id is the `count` (at most 16) bytes held little-endian in
    /// `low` then `high`, zero-padded, if accepted: `index(of:)` for a parser that already holds
    /// the id in registers.
    @inlinable @inline(__always) func index(low: UInt64, high: UInt64, count: Int) -> UInt32? {
        index.find(low: low, high: high, count: count)
    }

    /// Starts loading what `index(low:high:count:)` will read for this id into the cache.
    @inlinable @inline(__always) func prefetch(low: UInt64, high: UInt64, count: Int) {
        index.prefetch(low: low, high: high, count: count)
    }
}
