/// Folds a user's results into one 64-bit value; the run's digest is the wrapping sum over users,
/// so it is the same for any split into tasks, batches or shards.
struct DigestHasher {
    private var state: UInt64

    init(user: UInt32, stream: UInt64) {
        state = 0xCBF2_9CE4_8422_2325 ^ (UInt64(user) << 8 | stream)
    }

    @inline(__always) mutating func add(_ value: Int64) {
        state = (state ^ UInt64(bitPattern: value)) &* 0x0000_0100_0000_01B3
        state ^= state >> 29
    }

    var value: UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
