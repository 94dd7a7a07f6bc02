/// The ordinals of one user's rows seen so far: a stamp per ordinal, so starting the next user
/// costs nothing and nothing is allocated once the table has grown.
final class OrdinalSet {
    private var stamps = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 1024)
    private var current: UInt32 = 1

    init() { stamps.initialize(repeating: 0) }

    deinit { stamps.deallocate() }

    /// Forgets every ordinal and returns the empty set of the next user, valid until the next call.
    func nextUser() -> UserOrdinals {
        current &+= 1
        if current == 0 {
            stamps.update(repeating: 0)
            current = 1
        }
        return UserOrdinals(owner: self, stamps: stamps, current: current)
    }

    /// The table, grown to hold at least `count` ordinals.
    fileprivate func grown(to count: Int) -> UnsafeMutableBufferPointer<UInt32> {
        let larger = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(count, 2 * stamps.count))
        larger.initialize(repeating: 0)
        _ = larger.update(fromContentsOf: stamps)
        stamps.deallocate()
        stamps = larger
        return larger
    }
}

/// One user's view of an `OrdinalSet`: a value whose table pointer and stamp a row loop keeps in
/// registers (read through the class, they were loads on every row: its stores may alias them).
struct UserOrdinals {
    private let owner: OrdinalSet
    private var stamps: UnsafeMutableBufferPointer<UInt32>
    private let current: UInt32

    fileprivate init(owner: OrdinalSet, stamps: UnsafeMutableBufferPointer<UInt32>, current: UInt32) {
        self.owner = owner
        self.stamps = stamps
        self.current = current
    }

    /// Adds `ordinal`; false when it was already there.
    @inline(__always) mutating func insert(_ ordinal: UInt32) -> Bool {
        let i = Int(ordinal)
        if i >= stamps.count { stamps = owner.grown(to: i + 1) }
        if stamps[i] == current { return false }
        stamps[i] = current
        return true
    }
}
