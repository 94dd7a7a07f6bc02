/// The ordinals of one user's rows seen so far: a stamp per ordinal, so starting the next user
/// costs nothing and nothing is allocated once the table has grown.
final class OrdinalSet {
    private var stamps = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 1024)
    private var current: UInt32 = 1

    init() { stamps.initialize(repeating: 0) }

    deinit { stamps.deallocate() }

    /// Forgets every ordinal.
    func reset() {
        current &+= 1
        if current == 0 {
            stamps.update(repeating: 0)
            current = 1
        }
    }

    /// Adds `ordinal`; false when it was already there.
    @inline(__always) func insert(_ ordinal: UInt32) -> Bool {
        let i = Int(ordinal)
        if i >= stamps.count { grow(to: i + 1) }
        if stamps[i] == current { return false }
        stamps[i] = current
        return true
    }

    private func grow(to count: Int) {
        let larger = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(count, 2 * stamps.count))
        larger.initialize(repeating: 0)
        _ = larger.update(fromContentsOf: stamps)
        stamps.deallocate()
        stamps = larger
    }
}
