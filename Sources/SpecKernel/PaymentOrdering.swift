/// One user's payments in SPEC §4's processing order, `(created_at, payment_id)`: add each valid
/// one with the rank of its id, sort, then read the row handles in order. Keeps its memory from user
/// to user.
public struct PaymentOrdering {
    private var keys: [PaymentOrderKey] = []

    /// An empty ordering.
    public init() {}

    /// The payments added.
    public var count: Int { keys.count }

    /// Forgets the payments, keeping the memory.
    public mutating func removeAll() { keys.removeAll(keepingCapacity: true) }

    /// A payment: its `created_at`, the rank of its `payment_id` among the ids in byte order (any
    /// order-preserving number) and the caller's handle of its row.
    @inline(__always) public mutating func add(createdAt: Int64, idRank: UInt32, row: Int32) {
        keys.append(PaymentOrderKey(createdAt: createdAt, idRank: idRank, row: row))
    }

    /// Puts the payments in processing order.
    public mutating func sort() { keys.withUnsafeMutableBufferPointer { sortNearlySorted($0, by: PaymentOrderKey.precedes) } }

    /// The row handle of the `i`th payment.
    @inline(__always) public subscript(i: Int) -> Int32 { keys[i].row }
}

/// A payment's place in SPEC §4's processing order.
struct PaymentOrderKey {
    var createdAt: Int64
    var idRank: UInt32
    var row: Int32

    @inline(__always) static func precedes(_ a: PaymentOrderKey, _ b: PaymentOrderKey) -> Bool {
        if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
        if a.idRank != b.idRank { return a.idRank < b.idRank }
        return a.row < b.row
    }
}
