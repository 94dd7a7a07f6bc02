import HealthCore

/// The accepted users of a dataset, indexed by the byte order of their ids (SPEC §0), so that
/// user index order is output order.
public struct UserDirectory: Sendable {
    /// Ids in index order.
    public let ids: ByteArena
    public let profiles: [UserProfile]
    private let table: ByteStringTable
    private let indexOfInterned: [UInt32]

    public init(profiles unsorted: [UserProfile]) {
        var table = ByteStringTable(capacity: unsorted.count)
        for profile in unsorted {
            var id = profile.id
            _ = id.withUTF8 { table.intern($0) }
        }
        let order = table.strings.sortedIndices()
        var indexOfInterned = [UInt32](repeating: 0, count: order.count)
        var ids = ByteArena()
        for (rank, interned) in order.enumerated() {
            indexOfInterned[interned] = UInt32(rank)
            table.strings.withBytes(interned) { ids.append($0) }
        }
        self.table = table
        self.indexOfInterned = indexOfInterned
        self.ids = ids
        profiles = order.map { unsorted[$0] }
    }

    public var count: Int { profiles.count }

    /// The index of the user with id `bytes`, if accepted.
    @inlinable public func index(of bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        lookup(bytes)
    }

    @usableFromInline func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        table.find(bytes).map { indexOfInterned[Int($0)] }
    }
}
