#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import PaymentsCore

/// Nanoseconds of the monotonic clock, for timing batches (never for deciding anything).
enum Stopwatch {
    @inline(__always) static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

/// The ordinals of one user's rows seen so far: a stamp per ordinal, so starting the next user
/// costs nothing and nothing is allocated once the array has grown.
struct OrdinalSet {
    private var stamps: [UInt32] = []
    private var current: UInt32 = 0

    /// Forgets every ordinal.
    mutating func reset() {
        current &+= 1
        if current == 0 {
            for i in stamps.indices { stamps[i] = 0 }
            current = 1
        }
    }

    /// Adds `ordinal`; false when it was already there.
    @inline(__always) mutating func insert(_ ordinal: UInt32) -> Bool {
        let i = Int(ordinal)
        if i >= stamps.count { stamps.append(contentsOf: repeatElement(0, count: i + 1 - stamps.count)) }
        if stamps[i] == current { return false }
        stamps[i] = current
        return true
    }
}

/// The seeded backoff jitter of the payment processor, reseeded for each user so that a user's
/// simulated latencies depend on the user only, not on which task or batch processes them.
final class JitterSource {
    var state = SplitMix64(seed: 0)
}

/// A random number generator that draws from a shared `JitterSource`.
struct UserJitter: RandomNumberGenerator {
    let source: JitterSource

    @inline(__always) mutating func next() -> UInt64 { source.state.next() }
}

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

/// Sorts rows that are almost in order, as a user's generated rows are (a few late or
/// interleaved ones): insertion sort, linear in the rows plus the inversions and allocation-free;
/// falls back to the standard sort when the rows turn out to be far from sorted. The result is the
/// order `precedes` defines; equal elements are interchangeable (they are equal values).
@inline(__always)
func sortNearlySorted<T>(_ rows: UnsafeMutableBufferPointer<T>, by precedes: (T, T) -> Bool) {
    guard rows.count > 1 else { return }
    var budget = 16 * rows.count
    for i in 1..<rows.count {
        let row = rows[i]
        var j = i
        while j > 0, precedes(row, rows[j - 1]) {
            rows[j] = rows[j - 1]
            j -= 1
        }
        rows[j] = row
        budget -= i - j
        if budget < 0 {
            var all = rows
            all.sort(by: precedes)
            return
        }
    }
}
