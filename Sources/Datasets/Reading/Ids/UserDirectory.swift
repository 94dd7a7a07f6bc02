@_spi(Tooling) import HealthCore
import UserProfiles

/// The accepted users of a dataset, indexed by the byte order of their ids (SPEC §0), so that
/// user index order is output order.
public struct UserDirectory: Sendable {
    /// Ids in index order.
    public let ids: ByteArena
    /// The accepted users' profiles, by user index (ids in byte order).
    public let profiles: [UserProfile]
    @usableFromInline let index: IdIndex

    /// How ids are looked up: by their number when they all have the shape of `NumberedIdIndex`.
    @usableFromInline enum IdIndex: Sendable {
        case numbered(NumberedIdIndex)
        case hashed(ShortIdIndex)
    }

    /// The directory of `profiles` (in file order), of which `ids` holds the id bytes, one per
    /// profile in the same order: the first profile of each id (SPEC §1: the first row counts),
    /// and the positions of the others, ascending, which repeat an earlier id.
    public static func firstOfEachId(profiles: [UserProfile], ids: ByteArena) -> (directory: UserDirectory, repeats: [Int]) {
        precondition(ids.count == profiles.count, "one id per profile")
        let (first, repeats) = ids.firstOccurrences()
        guard let first else { return (UserDirectory(ids: ids, profiles: profiles), []) }
        var sortedIds = ByteArena()
        sortedIds.reserveCapacity(strings: first.count, bytes: ids.bytes.count)
        for position in first { ids.withBytes(position) { _ = sortedIds.append($0) } }
        return (UserDirectory(ids: sortedIds, profiles: first.map { profiles[$0] }), repeats)
    }

    /// The directory of `profiles`, of which a repeated id keeps the first.
    public init(profiles: [UserProfile]) {
        var ids = ByteArena()
        for profile in profiles {
            var id = profile.id
            id.withUTF8 { _ = ids.append($0) }
        }
        self = Self.firstOfEachId(profiles: profiles, ids: ids).directory
    }

    /// Users whose `ids` increase strictly, with their profiles in the same order.
    private init(ids: ByteArena, profiles: [UserProfile]) {
        if let numbered = NumberedIdIndex(ids: ids) {
            index = .numbered(numbered)
        } else {
            var hashed = ShortIdIndex(capacity: ids.count)
            for rank in 0..<ids.count { ids.withBytes(rank) { hashed.insert($0, value: UInt32(rank)) } }
            index = .hashed(hashed)
        }
        self.ids = ids
        self.profiles = profiles
    }

    /// Accepted users.
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
